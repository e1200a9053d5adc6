/* Glint's libshaderc: target environments, their versions and SPIR-V versions, with
 * libshaderc's values. */
#ifndef SHADERC_ENV_H_
#define SHADERC_ENV_H_

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  shaderc_target_env_vulkan,        /* SPIR-V for Vulkan */
  shaderc_target_env_opengl,        /* SPIR-V for OpenGL */
  shaderc_target_env_opengl_compat, /* no longer supported: a compile fails */
  shaderc_target_env_webgpu,        /* no longer supported */
  shaderc_target_env_default = shaderc_target_env_vulkan
} shaderc_target_env;

/* Vulkan versions are VK_MAKE_VERSION's encoding; OpenGL 4.5 is 450. */
typedef enum {
  shaderc_env_version_vulkan_1_0 = ((1u << 22)),
  shaderc_env_version_vulkan_1_1 = ((1u << 22) | (1 << 12)),
  shaderc_env_version_vulkan_1_2 = ((1u << 22) | (2 << 12)),
  shaderc_env_version_vulkan_1_3 = ((1u << 22) | (3 << 12)),
  shaderc_env_version_opengl_4_5 = 450,
  shaderc_env_version_webgpu, /* no longer supported */
} shaderc_env_version;

/* The version word of a SPIR-V module's header. */
typedef enum {
  shaderc_spirv_version_1_0 = 0x010000u,
  shaderc_spirv_version_1_1 = 0x010100u,
  shaderc_spirv_version_1_2 = 0x010200u,
  shaderc_spirv_version_1_3 = 0x010300u,
  shaderc_spirv_version_1_4 = 0x010400u,
  shaderc_spirv_version_1_5 = 0x010500u,
  shaderc_spirv_version_1_6 = 0x010600u
} shaderc_spirv_version;

#ifdef __cplusplus
}
#endif

#endif /* SHADERC_ENV_H_ */
