// Shared by the shaders beside it: an include, so that -g names a second file.
struct Instance {
  vec4 position_radius;
  uint mesh;
  uint pad[3];
};
float Visibility(vec4 sphere, vec3 eye) { return length(sphere.xyz - eye) - sphere.w; }
