// glint-flags: -V -gVS
// -gVS with a global initializer: glslang 12 emits its code at the start of main before
// it enters main, recording the line while its stack of debug scopes is empty (Glint's
// guard, glslang/debug_scope_guard.h); the module is Debian's glslangValidator's.
#version 450
layout(location = 0) in vec2 position;
layout(location = 1) in vec3 color;
layout(location = 0) out vec3 frag_color;
vec2 offset = position * 0.5;
void main() {
  frag_color = color;
  gl_Position = vec4(position + offset, 0.0, 1.0);
}
