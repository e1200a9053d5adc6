#version 440
layout(location = 0) out vec4 color;
uniform vec4 tint;
uniform float strength;
layout(binding = 0) uniform atomic_uint counter;
uniform Lights { vec4 sun; };
void main() {
  atomicCounterIncrement(counter);
  color = tint * strength + sun;
}
