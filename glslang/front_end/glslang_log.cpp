#include "glslang/front_end/glslang_log.h"

#include <glslang/SPIRV/Logger.h>

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

namespace {

// glslang's logger methods, by the prefix getAllMessages() gives their messages.
enum class LogMethod { kTbd, kMissing, kWarning, kError };

struct Prefix {
  const char* text;
  LogMethod method;
};

const Prefix kPrefixes[] = {{"TBD functionality: ", LogMethod::kTbd},
                            {"Missing functionality: ", LogMethod::kMissing},
                            {"warning: ", LogMethod::kWarning},
                            {"error: ", LogMethod::kError}};

void Log(spv::SpvBuildLogger& logger, LogMethod method, const std::string& text) {
  switch (method) {
    case LogMethod::kTbd:
      return logger.tbdFunctionality(text);
    case LogMethod::kMissing:
      return logger.missingFunctionality(text);
    case LogMethod::kWarning:
      return logger.warning(text);
    case LogMethod::kError:
      return logger.error(text);
  }
}

}  // namespace

void ReplayGlslangLog(const std::vector<std::string>& lines, spv::SpvBuildLogger& logger) {
  std::vector<std::pair<LogMethod, std::string>> messages;
  for (const std::string& line : lines) {
    bool starts_message = false;
    for (const Prefix& prefix : kPrefixes) {
      if (line.rfind(prefix.text, 0) != 0) continue;
      messages.emplace_back(prefix.method, line.substr(std::string(prefix.text).size()));
      starts_message = true;
      break;
    }
    if (starts_message) continue;
    if (messages.empty())
      messages.emplace_back(LogMethod::kWarning, line);
    else
      messages.back().second += "\n" + line;
  }
  for (const auto& [method, text] : messages) Log(logger, method, text);
}

}  // namespace glint::frontend
