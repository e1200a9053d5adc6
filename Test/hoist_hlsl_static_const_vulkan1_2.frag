// glint-flags: -D -V -e main --target-env vulkan1.2
// HLSL (compile with -D -e main): a `static const` array indexed at run time.
static const float table[4] = { 1, 2, 3, 4 };
float4 main(int i : TEXCOORD0) : SV_Target { return table[i]; }
