// Which macros the command line defined and undefined decides the colour: each branch
// leaves a different constant in the output.
#define IN_SHADER 1
float4 main() : SV_Target {
  float4 color = float4(0, 0, 0, 1);
#if defined(UNDEFED)
  color.r = 1;  // -U after -D: never
#endif
#if defined(IN_SHADER)
  color.g = 0.5;  // the shader's own #define wins over -UIN_SHADER
#endif
#if FOO == 200
  color.b = 0.25;
#endif
  return color;
}
