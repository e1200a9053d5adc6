Texture2D pictures[2] : register(t3);
SamplerState linear_sampler : register(s2);
sampler legacy : register(s4);
RWTexture2D<float4> target : register(u1);
half4 main(float2 uv : TEXCOORD0) : SV_Target {
  target[uint2(0, 0)] = tex2D(legacy, uv);
  return half4(pictures[0].Sample(linear_sampler, uv) + pictures[1].Sample(linear_sampler, uv));
}
