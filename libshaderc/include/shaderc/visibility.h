/* Glint's libshaderc: how the API's functions are marked for export: the shared
 * library (libshaderc.so.1) exports them; a program that uses them needs no marking. */
#ifndef SHADERC_VISIBILITY_H_
#define SHADERC_VISIBILITY_H_

#if defined(_WIN32)
#define SHADERC_EXPORT
#elif defined(SHADERC_IMPLEMENTATION)
#define SHADERC_EXPORT __attribute__((visibility("default")))
#else
#define SHADERC_EXPORT
#endif

#endif /* SHADERC_VISIBILITY_H_ */
