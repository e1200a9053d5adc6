// One input of glslc, compiled the way shaderc 2023.2's glslc compiles it: the stage from
// -fshader-stage, a `#pragma shader_stage`, or the extension (found by a preprocessing
// pass first), glslang with shaderc's settings (a preamble of the -D macros and the
// include extension, glslc's include search, shaderc's resource limits, cascading
// errors, link and IO mapping), shaderc's generator word, then Glint's passes (unless
// -fno-glint), SPIRV-Tools' optimizer for -O / -Os and HLSL legalization, and the
// disassembly for -S. `.spvasm` inputs are assembled.
#ifndef GLINT_GLSLC_COMPILE_H
#define GLINT_GLSLC_COMPILE_H

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include <glslang/Public/ShaderLang.h>

#include "messages.h"
#include "options.h"

namespace glint::glslc {

struct CompileResult {
  bool ok = false;
  std::vector<uint32_t> words;  // binary output
  std::string text;             // assembly (-S) or preprocessed (-E) output
  bool has_output = false;      // false: nothing is written (a failure, a skipped .spvasm)
  std::string messages;         // what glslc prints on standard error for this input
  // Every include path resolved, in glslc's hash-set order (the dependency rule's).
  std::unordered_set<std::string> included;
  bool writes_dependency_rule = false;  // the input was read and its stage known
};

// Compiles `input`; counts its errors and warnings into `counts`. glslang's process
// state must be initialized (glslang::InitializeProcess).
CompileResult CompileInput(const InputFile& input, const GlslcOptions& options,
                           MessageCounts* counts);

// What a compile resolves #include with; counts the requests (-E's output depends on
// whether there were any) and records every path it resolved into `included`.
class CountingIncluder : public glslang::TShader::Includer {
 public:
  size_t requests() const { return requests_; }
  std::unordered_set<std::string>* included = nullptr;

 protected:
  size_t requests_ = 0;
};

// One source, however it was given (a file for glslc, memory for libshaderc).
struct SourceRequest {
  std::string name;  // in messages, #line and the dependency rule
  std::string text;
  std::optional<EShLanguage> forced_stage;   // no pragma is looked for
  std::optional<EShLanguage> default_stage;  // when no pragma names one
  bool hlsl = false;
  std::string entry_point = "main";
  // When no stage is known: glslc's message for this input ("" for libshaderc's, which
  // reports a stage error in the result's status).
  std::string stage_error;
};

// SPIR-V assembly text into words for `env` (an spv_target_env). On failure `error` gets
// "LINE:COLUMN: message" (1-based, as libshaderc says it).
bool AssembleSpirv(int env, const std::string& text, std::vector<uint32_t>* words,
                   std::string* error);

// Why a compile failed, for libshaderc's status.
enum class Failure { kNone, kStage, kCompilation, kInternal };

// Compiles `request` with `includer`; as CompileInput, for any source.
CompileResult CompileSource(const SourceRequest& request, const GlslcOptions& options,
                            CountingIncluder& includer, MessageCounts* counts,
                            Failure* failure = nullptr);

}  // namespace glint::glslc

#endif  // GLINT_GLSLC_COMPILE_H
