#include "transform.hlsl"
float4 main(float3 position : POSITION) : SV_Position { return Transform(position); }
