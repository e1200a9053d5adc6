// glint::GlslangToSpv in glslang 12's two shapes (glint.h): the namespace is the whole
// switch for an engine. Each runs the full entry point with default Options into a
// report, then speaks glslang's language: the words are appended to the caller's
// vector, glslang's log is replayed into the caller's logger message by message (so
// getAllMessages() reads as glslang's own), Glint's diagnostics follow as warnings and
// errors, and SpvOptions::validate / disassemble act on the final module through
// glslang's own SpirvToolsValidate / SpirvToolsDisassemble (same environment, same
// layout options, same text).
#ifndef ENABLE_OPT
#define ENABLE_OPT 1
#endif
#include <glslang/MachineIndependent/localintermediate.h>
#include <glslang/SPIRV/GlslangToSpv.h>
#include <glslang/SPIRV/Logger.h>
#include <glslang/SPIRV/SpvTools.h>

#include <iostream>
#include <type_traits>

#include "glint/glint.h"
#include "glslang/front_end/glslang_log.h"

namespace glint {
namespace {

// Glint's diagnostic as glslang's logger carries a message: no severity label (the
// logger adds "warning: " / "error: "), then "file:line: message" and the reasons.
std::string LoggerText(const Diagnostic& diagnostic) {
  std::string text = FormatDiagnostic(diagnostic);
  return text.substr(text.find(": ") + 2);
}

void LogReport(const Report& report, spv::SpvBuildLogger& logger) {
  std::vector<std::string> glslang_lines;
  for (const Diagnostic& d : report.diagnostics)
    if (d.origin == "glslang") glslang_lines.push_back(d.message);
  frontend::ReplayGlslangLog(glslang_lines, logger);
  for (const Diagnostic& d : report.diagnostics) {
    if (d.origin == "glslang") continue;
    if (d.severity == Severity::kError)
      logger.error(LoggerText(d));
    else if (d.severity != Severity::kOff)
      logger.warning(LoggerText(d));
  }
}

// Validation and disassembly as glslang's GlslangToSpv does them, on Glint's module.
void FinishLikeGlslang(const glslang::TIntermediate& intermediate,
                       const glslang::SpvOptions& options, std::vector<unsigned int>& words,
                       spv::SpvBuildLogger& logger) {
  bool legalized = intermediate.getSource() == glslang::EShSourceHlsl && !options.disableOptimizer;
  bool prelegalization = intermediate.getSource() == glslang::EShSourceHlsl && !legalized;
  if (options.validate) glslang::SpirvToolsValidate(intermediate, words, &logger, prelegalization);
  if (options.disassemble) glslang::SpirvToolsDisassemble(std::cout, words);
}

}  // namespace

void GlslangToSpv(const glslang::TIntermediate& intermediate, std::vector<unsigned int>& spirv,
                  glslang::SpvOptions* spv_options) {
  spv::SpvBuildLogger logger;  // glslang's shape without a logger keeps a local one too
  glint::GlslangToSpv(intermediate, spirv, &logger, spv_options);  // qualified: no ADL into glslang
}

void GlslangToSpv(const glslang::TIntermediate& intermediate, std::vector<unsigned int>& spirv,
                  spv::SpvBuildLogger* logger, glslang::SpvOptions* spv_options) {
  if (!intermediate.getTreeRoot()) return;  // glslang generates nothing for it either
  try {
    spv::SpvBuildLogger local;
    spv::SpvBuildLogger& log = logger ? *logger : local;
    glslang::SpvOptions options = spv_options ? *spv_options : glslang::SpvOptions();
    glslang::SpvOptions generate = options;
    generate.validate = generate.disassemble = false;  // done on the final module below
    Report report;
    std::vector<uint32_t> words;
    bool ok = glint::GlslangToSpv(intermediate, words, &generate, Options(), &report);
    LogReport(report, log);
    if (!ok) return;
    // Moved, not copied (each copy is a pass over every word of a large shader).
    static_assert(std::is_same_v<uint32_t, unsigned int>, "glslang's words are uint32_t");
    FinishLikeGlslang(intermediate, options, words, log);
    // glslang appends to what `spirv` holds; most callers pass it empty.
    if (spirv.empty())
      spirv.swap(words);
    else
      spirv.insert(spirv.end(), words.begin(), words.end());
  } catch (...) {
    // Out of memory while logging or appending: the entry point never throws; what
    // was logged stays, and `spirv` may lack the module.
  }
}

}  // namespace glint
