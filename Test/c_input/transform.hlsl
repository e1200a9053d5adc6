// Included beside the file that includes it.
#include "scale.hlsl"
float4 Transform(float3 p) { return float4(p * kScale, 1); }
