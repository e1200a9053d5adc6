// glint-flags: -V -gV
// -gV with a specialization-constant operation glslang 12 meets after main: it writes
// `DebugScope 0` and a DebugLine after main's OpReturn (what Debian's glslangValidator
// writes too); Glint's IR keeps them in place and changes nothing.
#version 450
layout(location = 0) in vec2 position;
layout(constant_id = 0) const int kScale = 2;
const int kDouble = kScale * 2;
void main() {
  gl_Position = vec4(position * float(kScale), 0.0, 1.0);
}
