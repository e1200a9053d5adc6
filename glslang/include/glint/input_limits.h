/* Glint's limits on what it reads, in one place (C and C++).
 *
 * Every input is bounded before it is read whole, so that a hostile or careless input
 * (a 2 GB source, a device or FIFO that never ends, a count larger than the buffer
 * behind it) is refused with a message naming the limit instead of exhausting memory:
 *
 *   GLINT_MAX_SOURCE_BYTES        one GLSL/HLSL source: a file on the command line,
 *                                 an #include'd file, stdin, a C API source string
 *                                 or an include callback's content (default 64 MiB)
 *   GLINT_MAX_TOTAL_SOURCE_BYTES  all sources of one compile together, includes counted
 *                                 each time they are read (default 256 MiB)
 *   GLINT_MAX_MODULE_WORDS        one SPIR-V module (8,388,608 words, 32 MiB; the IR's
 *                                 own limit, spirv::kMaxModuleWords)
 *   GLINT_COMPILE_MEMORY_MB       address space an isolated compile may add to its
 *                                 process (glslangValidator's forked child; 4096 MiB)
 *
 * The source limits can be raised (or lowered) per run: glslangValidator
 * --max-source-bytes N / --max-total-source-bytes N, the C API's
 * glint_input_set_source_limits. The memory cap: glslangValidator --max-memory-mb N
 * (0: none). The module limit is fixed: it is what the IR can hold. */
#ifndef GLINT_INPUT_LIMITS_H
#define GLINT_INPUT_LIMITS_H

#define GLINT_MAX_SOURCE_BYTES (64ull << 20)
#define GLINT_MAX_TOTAL_SOURCE_BYTES (256ull << 20)
#define GLINT_MAX_MODULE_WORDS (1ull << 23)
#define GLINT_COMPILE_MEMORY_MB 4096u

#endif /* GLINT_INPUT_LIMITS_H */
