// The usage text: glslangValidator's flags (same meanings as glslang 12.0.0) and Glint's.
#include <cstdio>

#include "command_line.h"

namespace glint::standalone {

namespace {

const char kUsage[] = R"(Usage: glslangValidator [option]... [file]...

Glint: glslang 12's GLSL/HLSL front end and SPIR-V generation, followed by Glint's
SPIR-V passes. Flags are glslangValidator's (glslang 12.0.0) plus Glint's own below.

Input files: the last suffix names the stage: .vert .tesc .tese .geom .frag .comp
  .mesh .task .rgen .rint .rahit .rchit .rmiss .rcall, or the one before a final
  .glsl / .hlsl (a.frag.hlsl is HLSL). A .conf file replaces the resource limits
  (-c prints the defaults). A .spv file is SPIR-V from any front end: glslang is
  skipped, Glint's passes run, and the result is written to -o, by default to the
  input's name with .spv replaced by .glint.spv.

Compiling:
  -V[100] | -G[100]     SPIR-V under Vulkan | OpenGL semantics (implies -l); default
                        output <stage>.spv, or -o <file>
  --client vulkan100|opengl100   same as -V / -G
  --target-env vulkan1.0|vulkan1.1|vulkan1.2|vulkan1.3|opengl|spirv1.0..spirv1.6
                        client and SPIR-V version (vulkan1.N implies -V, opengl -G)
  -S <stage>            stage instead of the file suffix
  --stdin               read the shader from stdin (needs -S)
  -e | --entry-point <name>    entry point name
  --sep | --source-entrypoint <name>   source function renamed to the -e name
  -D                    input is HLSL
  -D<name[=def]> | --D | --define-macro <name[=def]>   define a macro
  -U<name> | --U | --undef-macro <name>                undefine a macro
  -I<dir>               include directory (after the including file's own)
  --glsl-version <100|110|...|460|300es|310es|320es>   overrides #version
  -d                    default to #version 110 instead of 100 (ES)
  -l                    link all inputs into one program
  -E                    print the preprocessed source (not with -l)
  -R                    relaxed Vulkan rules (default uniforms, atomic_uint, ...)
  -g | -g0 | -gV | -gVS debug info | strip it | non-semantic debug info (with source)
  -Od | -Os             no optimization (HLSL legalization off) | optimize for size
  --nan-clamp           min/max/clamp favour the non-NaN operand
  --invert-y | --iy     invert position.y in vertex shaders
  --auto-map-bindings | --amb, --auto-map-locations | --aml
  --auto-sampled-textures      textures and samplers become sampled textures
  --shift-{image,sampler,ssbo,texture,uav,UBO,cbuffer}-binding [stage] num
  --shift-...-binding [stage] [num set]...   (short: --sib --ssb --sbb --stb --suavb
                        --sub --scb)
  --resource-set-binding | --rsb [stage] set | stage [name set binding]...
  --uniform-base <n>, -u<name>:<location>, --keep-uncalled | --ku,
  --no-storage-format | --nsf, --hlsl-offsets, --hlsl-iomap, --fua,
  --hlsl-enable-16bit-types, --hlsl-dx9-compatible, --hlsl-dx-position-w,
  -fhlsl_functionality1, -C (cascading errors), -r (relaxed errors)

Output:
  -o <file>             output file (needs a SPIR-V option such as -V)
  -x                    hexadecimal text instead of binary
  --vn | --variable-name <name>   a C header with a uint32_t array <name>
  -H                    print the SPIR-V in glslang's readable form (implies -V)
  --spirv-dis           print SPIRV-Tools' disassembly
  --spirv-val           run the SPIRV-Tools validator
  --depfile <file>      write a make-style dependency file
  -i                    print the AST,  -q  reflection (needs -l),  -c  resource limits
  -w | --suppress-warnings,  -s  no info log,  --quiet  no file names,
  --enhanced-msgs       more readable errors (GLSL)
  -t                    accepted (compiles are sequential)
  -v | --version, -dumpversion, -h

Glint:
  --no-glint            glslang 12's own output, Glint does nothing
  --no-hoist-constant-tables   keep run-time-indexed constant arrays as glslang emits them
  --robust-access       clamp every dynamic index so no access leaves its object
  --range-analysis=off|reference|full   what may prove a clamp unnecessary (default full)
  --dump-ranges[=json]  print every dynamic index with its range and verdict
  --report=html <file>  write an HTML page: the sources with what Glint found per line
  --report=sarif <file> write the findings as SARIF 2.1.0 (for code-review tools)
  --uniformity=warn|error|off   uniformity problems: warnings (default), errors, none
  --subgroup-size <N>   the subgroup size the application guarantees
  --max-workgroups X,Y,Z   the largest dispatch (workgroups per dimension) the
                        application makes with this shader: a promise, not checked;
                        full range analysis bounds gl_WorkGroupID, gl_NumWorkGroups and
                        gl_GlobalInvocationID by it
  --spec-constant <ID>=<VALUE>  value of a specialization constant (repeatable)
  --no-isolate          compile in this process (default: each input, or each linked
                        program, in a child process, so a crash in glslang is one error)
  --timeout-ms <N>      end a compile that runs longer than N ms (needs isolation;
                        use it for untrusted shaders, with --max-memory-mb)
  --max-memory-mb <N>   the address space an isolated compile may add, in MiB (default
                        4096; 0: no cap); a compile that needs more is ended with a
                        message naming the budget
  --max-source-bytes <N>   the largest source file, include or stdin (default 64 MiB)
  --max-total-source-bytes <N>   all sources of one compile together (default 256 MiB)
  --passes=<a,b,...>    run only these passes, in this order (debugging): specialize-constants,
                        hoist-constant-tables, robust-access, uniformity, range-report

Exit codes: 0 success, 1 usage or output error, 2 compile error (or Glint refused),
3 link error.
)";

}  // namespace

void PrintUsage() { std::fputs(kUsage, stdout); }

}  // namespace glint::standalone
