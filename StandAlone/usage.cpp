// The usage text: glslangValidator 12.0.0's, byte for byte (scripts and wrappers compare
// it), then Glint's own options in a section of their own.
//
// The first part is what Debian's /usr/bin/glslangValidator 12.0.0 prints for -h, read
// from that tool when configuring (StandAlone/CMakeLists.txt) and turned into a string
// literal (glslang12_usage.inc); the text is glslang's and is not kept in this
// repository. It documents --set-block-backing, which glslang 12's parser
// refuses: that is glslang's text, and the parser does what glslang's does.
#include <cstdio>

#include "command_line.h"

namespace glint::standalone {

namespace {

const char kGlslangUsage[] =
#include "glslang12_usage.inc"
    ;

const char kGlintUsage[] = R"(
Glint: this glslangValidator is glslang 12's, with Glint's SPIR-V passes run on what
glslang generates. Everything above works as in glslang 12.0.0. Glint adds:

  A .spv input is SPIR-V from any front end: glslang is skipped, Glint's passes run,
  and the result goes to -o, by default to the input's name with .spv replaced by
  .glint.spv.

  --no-glint            glslang 12's own output, Glint does nothing
  --no-hoist-constant-tables   keep run-time-indexed constant arrays as glslang emits them
  --robust-access       clamp every dynamic index so no access leaves its object
  --range-analysis=off|reference|full   what may prove a clamp unnecessary (default full)
  --dump-ranges[=json]  print every dynamic index with its range and verdict
  --report=html <file>  write an HTML page: the sources with what Glint found per line
  --report=sarif <file> write the findings as SARIF 2.1.0 (for code-review tools)
  --uniformity=warn|error|off   uniformity problems: warnings (default), errors, none
  --uniformity-off=<where>[=<why>]   do not report uniformity problems at <where>:
                        a function (its GLSL name) or FILE:LINE or FILE:FIRST-LAST; they
                        stay in --report files as suppressed, with <why> (repeatable)
  --uniformity-note=<where>[=<why>]  report them there as notes, never errors
  --uniformity-assume-uniform=<function>[=<why>]   take the function's result as
                        workgroup-uniform (a promise the analysis cannot check; what it
                        silences is reported as suppressed). Filters never change the output
  --subgroup-size <N>   the subgroup size the application guarantees (a power of two
                        from 1 to 128)
  --max-workgroups X,Y,Z   the largest dispatch (workgroups per dimension) the
                        application makes with this shader: a promise, not checked;
                        full range analysis bounds gl_WorkGroupID, gl_NumWorkGroups and
                        gl_GlobalInvocationID by it
  --spec-constant <ID>=<VALUE>  value of a specialization constant (repeatable)
  --no-isolate          compile in this process (default: each input, or each linked
                        program, in a child process, so a crash in glslang is one error)
  --timeout-ms <N>      end a compile that runs longer than N ms (needs isolation;
                        use it for untrusted shaders, with --max-memory-mb); also a
                        .spv input's processing, 60000 ms by default
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

void PrintUsage() {
  std::fputs(kGlslangUsage, stdout);
  std::fputs(kGlintUsage, stdout);
}

}  // namespace glint::standalone
