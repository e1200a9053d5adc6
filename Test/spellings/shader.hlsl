cbuffer Params : register(b1) { float4 tint; float3 offset; float scale; };
float4 shade(float4 position : SV_Position, float2 uv : TEXCOORD0) : SV_Target {
  return tint * SCALE * position.w + float4(offset, scale) * uv.x;
}
float4 main(float2 uv : TEXCOORD0) : SV_Target { return tint * SCALE * uv.y; }
