// glslangValidator's command line (glslang 12.0.0 flags, same meanings, same error
// messages) plus Glint's own flags. Parsing fills a CommandLine; it never compiles.
//
// Accepts exactly what glslang 12.0.0's parser accepts: every synonym, long options in
// any case (glslang lowercases them), one-letter options read by their letter alone
// ("-quiet" is -q), and its quirks (--stdin takes the next argument as the stage; a
// stage given by -S wins over one written after a binding option; --glsl-version and
// --target-env as the last argument do nothing). Glint's own long options are matched
// lowercased too (their =values keep their case).
//
// Errors: a bad flag throws CommandLineError with glslangValidator's message (main
// prints "glslangValidator: Error: <message> (use -h for usage)" to stderr and exits 1);
// where glslangValidator prints the usage text instead, ShowUsage is thrown; where it
// prints a bare line on stdout, CommandLineError has `bare` set.
#ifndef GLINT_STANDALONE_COMMAND_LINE_H
#define GLINT_STANDALONE_COMMAND_LINE_H

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "glslang/front_end/front_end.h"

namespace glint::standalone {

struct CommandLineError : std::runtime_error {
  explicit CommandLineError(const std::string& message, bool bare = false)
      : std::runtime_error(message), bare(bare) {}
  bool bare;  // printed as is on stdout, without the "Error:" decoration
};

// glslangValidator's usage text (exit 1), after `preamble` where it prints a line first.
struct ShowUsage {
  std::string preamble;
};

struct CommandLine {
  frontend::GlslangSettings glslang;
  std::vector<std::string> files;            // inputs in command-line order
  std::string config_file;                   // a .conf input: resource limits
  std::optional<std::string> stage_name;     // -S
  std::optional<std::string> binary_file;    // -o
  std::optional<std::string> variable_name;  // --vn
  std::optional<std::string> depfile;

  // What glslangValidator does (its option bits, by name).
  bool spirv = false;  // -V / -G / -H / --target-env / --client
  bool vulkan_rules = false;
  bool link = false;        // -l (and any SPIR-V generation)
  bool preprocess = false;  // -E
  bool read_stdin = false;
  bool hex = false;                      // -x / --vn
  bool human_readable = false;           // -H
  bool spirv_tools_disassemble = false;  // --spirv-dis
  bool spirv_tools_validate = false;     // --spirv-val
  bool quiet = false;                    // --quiet
  bool suppress_info_log = false;        // -s
  bool multi_threaded = false;           // -t
  // -m: each compile (and link, and SPIR-V generation) is repeated 100 x 100 times
  // without printing logs or writing SPIR-V, as glslangValidator's memory-leak mode.
  bool memory_leak_mode = false;
  bool dump_config = false;                       // -c
  bool dump_reflection = false;                   // -q
  int reflection_options = EShReflectionDefault;  // --reflect-*: EShReflectionOptions bits
  bool print_versions = false;                    // -v
  bool print_bare_version = false;                // -dumpversion
  bool debug = false;                             // -g / -gV / -gVS
  bool strip_debug = false;                       // -g0
  bool non_semantic_debug = false;
  bool non_semantic_debug_source = false;
  bool optimize_disable = false;  // -Od
  bool optimize_size = false;     // -Os
  bool defines_given = false;     // any -D<name> / -U<name>

  // Glint.
  bool run_glint = true;  // --no-glint turns it off
  // Each compile runs in a child process (--no-isolate: in this one); see
  // child_compiles.h. timeout_ms (--timeout-ms, 0: none) bounds each child.
  bool isolate = true;
  uint32_t timeout_ms = 0;
  // The address space an isolated compile may add (--max-memory-mb, 0: no cap).
  // Sources are bounded by glslang.source_limits (--max-source-bytes and
  // --max-total-source-bytes); see glint/input_limits.h.
  uint32_t max_memory_mb = GLINT_COMPILE_MEMORY_MB;  // ParseCommandLine: DefaultCompileMemoryMb()
  Options glint;
  bool dump_ranges = false;
  bool dump_ranges_json = false;
  std::optional<std::string> html_report;   // --report=html FILE
  std::optional<std::string> sarif_report;  // --report=sarif FILE
};

// Parses argv[1..]. Throws CommandLineError or ShowUsage as described above.
CommandLine ParseCommandLine(int argc, char** argv);

// Stage from a name ("vert", ...); nullopt when unknown.
std::optional<EShLanguage> StageFromName(const std::string& name);
// The stage name glslangValidator uses in default output names ("vert" -> "vert.spv").
const char* StageName(EShLanguage stage);

// Stage of a file from its suffix (x.frag, x.frag.glsl, x.frag.hlsl); sets *hlsl for
// .hlsl. nullopt when the name has no known stage.
std::optional<EShLanguage> StageFromFileName(const std::string& name, bool* hlsl);

// glslang's message flags for what the command line asks (glslangValidator's rules).
EShMessages MessagesFor(const CommandLine& line);
// Sets the GlslangSettings fields that follow from the flags (messages, environment,
// IO mapping); call after every unit's stage is known (a .hlsl file sets hlsl).
void FinishGlslangSettings(CommandLine& line);
// glslang's code generation options for -g/-g0/-gV/-gVS/-Od/-Os.
glslang::SpvOptions SpvOptionsFor(const CommandLine& line);
// Glint's options for the flags, compiling for `env`.
Options GlintOptionsFor(const CommandLine& line, TargetEnv env);

// glslang 12.0.0's long-option spellings (lowercase, without "--"), every one its
// parser accepts.
std::vector<std::string> GlslangLongOptionSpellings();

// glslangValidator's usage text, then Glint's own options in a section of their own.
void PrintUsage();

}  // namespace glint::standalone

#endif  // GLINT_STANDALONE_COMMAND_LINE_H
