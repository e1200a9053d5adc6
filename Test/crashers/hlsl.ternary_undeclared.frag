// glslang 12 dereferences null on a conditional whose branch is undeclared.
float4 main(float4 c : COLOR) : SV_TARGET { return c.x > 0 ? c : nothing; }
