// glint-flags: -V --target-env vulkan1.2
#version 450
// An array of structs indexed at run time, then a member read.
layout(location = 0) flat in int index;
layout(location = 0) out vec4 color;
struct Light { vec3 color; float radius; };
const Light lights[3] = Light[3](Light(vec3(1, 0, 0), 1.0), Light(vec3(0, 1, 0), 2.0),
                                 Light(vec3(0, 0, 1), 3.0));
void main() { color = vec4(lights[index].color * lights[index].radius, 1.0); }
