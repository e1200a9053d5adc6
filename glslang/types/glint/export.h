/*
 * GLINT_EXPORT marks what libglint.so exports: the glint_ C functions and the glint::
 * C++ API. Everything else in the shared library (Glint's passes, glslang, SPIRV-Tools,
 * the standard library's template instances) is built with -fvisibility=hidden and
 * fenced by the linker version script glslang/glint.map, so an application's own
 * glslang cannot clash with the copy inside. libglint.a holds the same objects (hidden
 * unless marked), which a static link resolves all the same.
 */
#ifndef GLINT_EXPORT_H
#define GLINT_EXPORT_H

#if defined(_WIN32)
#define GLINT_EXPORT
#elif defined(__GNUC__) || defined(__clang__)
#define GLINT_EXPORT __attribute__((visibility("default")))
#else
#define GLINT_EXPORT
#endif

#endif /* GLINT_EXPORT_H */
