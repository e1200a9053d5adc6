// glslang 12 dereferences null when a byte-address buffer is loaded at a struct address.
struct Address { float2 at; };
ByteAddressBuffer data;
float4 main() : SV_TARGET { Address a; return float4(data.Load(a), 0, 0, 0); }
