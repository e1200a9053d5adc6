#include "glslang_log.h"

#include <sstream>

namespace glint::frontend {

void AppendGlslangLog(const std::string& log, std::vector<Diagnostic>* out) {
  std::istringstream lines(log);
  for (std::string line; std::getline(lines, line);) {
    if (line.empty()) continue;
    Diagnostic diagnostic;
    diagnostic.origin = "glslang";
    diagnostic.severity = line.rfind("error:", 0) == 0 ? Severity::kError : Severity::kWarning;
    diagnostic.message = line;
    out->push_back(std::move(diagnostic));
  }
}

}  // namespace glint::frontend
