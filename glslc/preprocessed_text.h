// What glslc makes of glslang's preprocessed text: the text -E prints (glslang's output
// with the preamble's traces removed and, when the source includes files, the include
// extension and a #line for the top-level file put back where glslc puts them), and the
// shader stage a `#pragma shader_stage(...)` in that text names. The rules are those of
// shaderc 2023.2's glslc (Debian's /usr/bin/glslc).
#ifndef GLINT_GLSLC_PREPROCESSED_TEXT_H
#define GLINT_GLSLC_PREPROCESSED_TEXT_H

#include <optional>
#include <string>
#include <string_view>

#include <glslang/Public/ShaderLang.h>

namespace glint::glslc {

// The line the preamble ends with; glslang's preprocessed text carries it.
constexpr char kIncludeExtensionLine[] = "#extension GL_GOOGLE_include_directive : enable\n";

// Reads a version and profile as glslc reads -std= and the `#version` it looks at
// itself: "450", "310es", "450core", "140compatibility"; 3 to 16 characters, a version
// glslang knows, then at most one profile word (the first whitespace-separated word).
bool ParseVersionProfile(std::string_view text, int* version, EProfile* profile);

// The version and profile that decide how `#line N` numbers the next line: with
// "next-line" semantics (ES, or version 330 and later) `#line N` names the next line N,
// else N + 1. `forced_version` is -std='s (0: not given); otherwise the first `#version`
// line of `preprocessed` decides, and 110 without a profile when there is none.
bool NextLineSemantics(const std::string& preprocessed, int forced_version,
                       EProfile forced_profile);

// The text `glslc -E` prints for glslang's preprocessed output `preprocessed` of the input
// named `name` (path as given, or "<stdin>"), which asked the includer `include_requests`
// times (resolved or not). `next_line`: NextLineSemantics of that text.
std::string PreprocessedOutput(const std::string& preprocessed, const std::string& name,
                               size_t include_requests, bool next_line);

// The stage named by the shader-stage pragma of `preprocessed` (the input named `name`).
struct StagePragma {
  bool found = false;                 // some `#pragma shader_stage` line
  std::optional<EShLanguage> stage;   // when found and valid (`errors` is then empty)
  std::string errors;                 // glslc's error lines (each ending in '\n'); not counted
};
// Pragma names: vertex fragment tesscontrol tesseval geometry compute raygen intersect
// anyhit closest miss callable task mesh. Errors: a first pragma after non-preprocessor
// code, an invalid stage name, a later pragma naming another stage; located by the
// #line-aware logical line and file of the pragma.
// `preprocessed` must be the cleaned text (PreprocessedOutput's result), which is what glslc
// scans: in glslang's own text the preamble's lines would shift every line number.
// `next_line`: NextLineSemantics (of either text; they give the same answer).
StagePragma FindStagePragma(const std::string& preprocessed, const std::string& name,
                            bool next_line);

}  // namespace glint::glslc

#endif  // GLINT_GLSLC_PREPROCESSED_TEXT_H
