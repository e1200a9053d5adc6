// glint-flags: -D -V -e main -DSCALE=2.0 -DUSE_TINT
// HLSL input (-D) with macros defined on the command line (-DSCALE=2.0 -DUSE_TINT).
Texture2D image : register(t0);
SamplerState linearSampler : register(s0);
cbuffer Params : register(b1) { float4 tint; };

float4 main(float2 uv : TEXCOORD0) : SV_Target {
    float4 texel = image.Sample(linearSampler, uv) * SCALE;
#ifdef USE_TINT
    texel *= tint;
#endif
    return texel;
}
