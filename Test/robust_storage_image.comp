// glint-flags: -V --robust-access
#version 450
// imageLoad / imageStore: coordinates (array layer included) clamped to
// OpImageQuerySize - 1; a cube's face to 5, a cube array's layer-face to 6 * layers - 1;
// a multisampled image's sample index to OpImageQuerySamples - 1.
layout(local_size_x = 1) in;
layout(binding = 0, rgba8) uniform image2D plain;
layout(binding = 1, rgba8) uniform imageCube cube;
layout(binding = 2, rgba8) uniform imageCubeArray cubes;
layout(binding = 3, rgba8) uniform image2DMS multi;
layout(binding = 4, rgba8) uniform imageBuffer texels;
layout(binding = 5, rgba8) uniform image3D volume;
layout(push_constant) uniform P { ivec4 at; };
void main() {
  vec4 sum = imageLoad(plain, at.xy) + imageLoad(cube, at.xyz) + imageLoad(cubes, at.xyz)
           + imageLoad(multi, at.xy, at.w) + imageLoad(texels, at.x) + imageLoad(volume, at.xyz);
  imageStore(plain, at.yx, sum);
  imageStore(multi, at.xy, at.z, sum);
}
