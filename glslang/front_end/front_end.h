// Glint's front end: drives glslang (TShader / TProgram) the way glslangValidator 12
// does, so that for the same settings glslang's own SPIR-V comes out byte-identical, and
// then hands that SPIR-V to Glint's passes.
//
// What it owns: stages, source and client/target environments, preamble (-D/-U),
// include directories (an includer with glslangValidator's search order), resource
// limits, binding shifts and the other TShader settings, compile + link, SPIR-V
// generation, and running Glint on the result.
//
// Located reports: Glint's output must not depend on whether anything is reported, yet
// diagnostics should name source lines even when the user did not ask for -g.
// glint::GlslangToSpv does that (lines kept outside the module locate the report); this
// front end adds the file name where glslang's line information has none.
//
// Assumes glslang::InitializeProcess() was called (ScopedGlslangProcess does it).
#ifndef GLINT_GLSLANG_FRONT_END_FRONT_END_H
#define GLINT_GLSLANG_FRONT_END_FRONT_END_H

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <glslang/Include/ResourceLimits.h>
#include <glslang/Public/ShaderLang.h>
#include <glslang/SPIRV/GlslangToSpv.h>

#include "glint/glint.h"
#include "glslang/front_end/source_read.h"

namespace glint::frontend {

// Calls glslang::InitializeProcess / FinalizeProcess around its lifetime.
class ScopedGlslangProcess {
 public:
  ScopedGlslangProcess();
  ~ScopedGlslangProcess();
  ScopedGlslangProcess(const ScopedGlslangProcess&) = delete;
  ScopedGlslangProcess& operator=(const ScopedGlslangProcess&) = delete;
};

// One compilation unit: a file (or "stdin") and the stage it is compiled as.
struct SourceUnit {
  std::string name;
  std::string text;
  EShLanguage stage = EShLangVertex;
};

class DirectoryIncluder;

// A block glslang makes of loose declarations under relaxed Vulkan rules (-R): the
// atomic counters, or the default uniforms.
struct GlobalBlock {
  bool given = false;
  std::string name;
  unsigned set = 0;
  unsigned binding = 0;  // the default uniform block's only
};

// Everything that decides how glslang parses, links and generates code. Defaults are
// glslangValidator's defaults.
struct GlslangSettings {
  EShMessages messages = EShMsgDefault;
  // Sets the client and target environment on every shader (glslangValidator's -V/-G).
  bool set_environment = false;
  bool hlsl = false;
  glslang::EShClient client = glslang::EShClientNone;
  glslang::EShTargetClientVersion client_version = glslang::EShTargetVulkan_1_0;
  int client_input_semantics_version = 100;
  glslang::EShTargetLanguage target_language = glslang::EShTargetNone;
  glslang::EShTargetLanguageVersion target_version = glslang::EShTargetSpv_1_0;
  bool hlsl_functionality1 = false;
  bool vulkan_rules_relaxed = false;
  // Used only with vulkan_rules_relaxed, as glslangValidator does.
  std::vector<std::pair<std::string, glslang::TBlockStorageClass>> block_storage_overrides;
  GlobalBlock atomic_counter_block;   // name and set
  GlobalBlock default_uniform_block;  // name, set and binding

  std::string entry_point;                       // empty: glslang's default ("main")
  std::string source_entry_point;                // empty: none
  std::string preamble;                          // "#define ..." / "#undef ..." lines
  std::vector<std::string> processes;            // OpModuleProcessed entries for the preamble
  std::vector<std::string> include_directories;  // -I, in command-line order
  // Resolves #include instead of a DirectoryIncluder over include_directories (the C
  // API's callback includer); not owned, outlives Compile. Null: the directories.
  DirectoryIncluder* includer = nullptr;
  // Includes are read within these (source_read.h); the caller checks the top-level
  // sources, whose sizes Compile counts against the total first.
  SourceLimits source_limits;
  int override_version = 0;      // --glsl-version (0: keep #version)
  int default_version = 100;     // without #version: 100 (ES), -d: 110
  TBuiltInResource resources{};  // set by the caller (default or a .conf file)

  // Binding shifts per resource type and stage; per-set shifts map set -> base.
  std::array<std::array<unsigned, EShLangCount>, glslang::EResCount> base_binding{};
  std::array<std::array<std::map<unsigned, unsigned>, EShLangCount>, glslang::EResCount>
      base_binding_for_set{};
  std::array<std::vector<std::string>, EShLangCount> resource_set_binding{};
  std::vector<std::pair<std::string, int>> uniform_location_overrides;
  int uniform_base = 0;

  bool auto_map_bindings = false;
  bool auto_map_locations = false;
  bool auto_sampled_textures = false;
  bool nan_clamp = false;
  bool invert_y = false;
  bool dx_position_w = false;
  bool enhanced_messages = false;
  bool no_storage_format = false;
  bool flatten_uniform_arrays = false;
  bool hlsl_io_mapping = false;
  bool debug_info = false;  // TShader::setDebugInfo (non-semantic debug info)
  bool map_io = false;      // TProgram::mapIO after linking (SPIR-V generation)
};

// What glslang said about one unit.
struct UnitLog {
  std::string name;
  std::string info_log;
  std::string debug_log;
};

// A parsed (and, unless preprocessing only, linked) program. Owns the shaders and
// the program; the program is destroyed first, as glslang requires.
class Compilation {
 public:
  Compilation() = default;
  ~Compilation();
  Compilation(const Compilation&) = delete;
  Compilation& operator=(const Compilation&) = delete;

  std::vector<UnitLog> units;
  std::vector<std::string> preprocessed;  // per unit, only when preprocessing
  bool compile_failed = false;
  bool link_failed = false;
  std::string program_info_log;
  std::string program_debug_log;
  std::vector<std::string> included_files;  // sorted, as the includer resolved them

  glslang::TProgram& program() { return *program_; }
  // The linked intermediate of `stage`, or null.
  glslang::TIntermediate* Intermediate(EShLanguage stage);

 private:
  friend std::unique_ptr<Compilation> Compile(const std::vector<SourceUnit>&,
                                              const GlslangSettings&, bool);
  std::vector<std::unique_ptr<glslang::TShader>> shaders_;
  std::unique_ptr<glslang::TProgram> program_;
};

// Parses every unit; when `preprocess_only`, fills `preprocessed` and does not link,
// else links (and maps IO when settings.map_io).
std::unique_ptr<Compilation> Compile(const std::vector<SourceUnit>& units,
                                     const GlslangSettings& settings, bool preprocess_only);

// glslang::GlslangToSpv for one stage; glslang's log messages go to `messages`.
// Never validates or disassembles (spv_options.validate / disassemble are ignored).
std::vector<uint32_t> GenerateSpirv(const glslang::TIntermediate& intermediate,
                                    const glslang::SpvOptions& spv_options, std::string* messages);

// SPIRV-Tools' validator as glslangValidator's --spirv-val runs it (same environment
// and layout options); problems are appended to `messages`.
void ValidateLikeGlslang(const glslang::TIntermediate& intermediate,
                         const glslang::SpvOptions& spv_options, std::vector<uint32_t>& spirv,
                         std::string* messages);

// SPIRV-Tools' friendly disassembly as --spirv-dis prints it.
std::string DisassembleLikeGlslang(const std::vector<uint32_t>& spirv);

// The Glint target environment matching glslang's client settings.
TargetEnv GlintTargetEnv(const GlslangSettings& settings);

// What glslang's code generation followed by Glint produced for one stage.
struct GlintOutput {
  bool ok = false;  // false: Glint refused; `words` is empty
  std::vector<uint32_t> words;
  std::string glslang_log;  // glslang's code generation messages, as it prints them
  Report report;            // Glint's diagnostics (glslang's log lines removed)
};

// glint::GlslangToSpv (glslang's SPIR-V for `intermediate`, Glint's passes, and a report
// located by a second line-info code generation when the module has no OpLine and
// something is reported; the output never depends on the report). Report locations without a file name get `source_name`.
// spv_options.validate / disassemble are ignored (see ValidateLikeGlslang).
GlintOutput GenerateWithGlint(const glslang::TIntermediate& intermediate,
                              const glslang::SpvOptions& spv_options, const Options& options,
                              const std::string& source_name);

// glslang::TShader::Includer with glslangValidator's search order for
// `#include "x"`: the including file's directory (and those of files it was included
// from, innermost first), then -I directories left to right. `#include <x>` is not
// resolved. Records every file it opened.
//
// Refusals go through glslang's include-failure error ("'#include' : <why> for header
// name: x"), which ends the compile: a name found but not a readable regular file (a
// directory, a FIFO, a device, a file whose read fails, a file larger than what is left
// of the source budget: source_read.h), and an include nested deeper
// than kMaxIncludeDepth files, whose message names the limit and the chain of files
// (an #include cycle without guards ends there at once).
class DirectoryIncluder : public glslang::TShader::Includer {
 public:
  // Included files may nest this deep (the top-level file not counted).
  static constexpr size_t kMaxIncludeDepth = 64;

  explicit DirectoryIncluder(std::vector<std::string> include_directories);
  IncludeResult* includeLocal(const char* header_name, const char* includer_name,
                              size_t inclusion_depth) override;
  // Resolves nothing; after includeLocal refused a name, returns that refusal, because
  // glslang reports the failure of this call (made after every failed local one).
  IncludeResult* includeSystem(const char* header_name, const char*, size_t) override;
  void releaseInclude(IncludeResult* result) override;
  const std::set<std::string>& included_files() const { return included_files_; }
  // What included files may still read (Compile sets it before parsing).
  void SetSourceBudget(const SourceBudget& budget) { budget_ = budget; }

 protected:
  // Records a refusal (replayed by includeSystem) and returns glslang's failure result.
  IncludeResult* Refuse(const char* header_name, std::string why);
  // The depth-limit refusal's text for `chain` (top-level file first, the refused name
  // last), for a subclass that resolves some includes itself (the C API's callback).
  static std::string DepthLimitMessage(const std::vector<std::string>& chain);

 private:
  std::vector<std::string> external_directories_;
  std::vector<std::string> nested_directories_;  // innermost last
  std::vector<std::string> nested_files_;        // the chain of files, top-level first
  std::string refused_header_, refusal_;         // includeLocal's last refusal, for includeSystem
  std::set<std::string> included_files_;

 protected:
  SourceBudget budget_;
};

}  // namespace glint::frontend

#endif  // GLINT_GLSLANG_FRONT_END_FRONT_END_H
