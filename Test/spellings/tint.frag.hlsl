float4 tint;
float4 main(float4 color : COLOR0) : SV_Target { return color * tint; }
