// glslc's diagnostics: each line of a glslang info log is classified by its prefix
// ("ERROR: ", "WARNING: ", "Warning, " or none), its "SOURCE:LINE: " location is found the
// way shaderc 2023.2's glslc finds it, and it is printed in glslc's "file:line: error: ..."
// form, or dropped, while warnings and errors are counted for the final summary line.
#include "messages.h"

#include <array>
#include <optional>
#include <string_view>

namespace glint::glslc {
namespace {

// glslc trims messages of exactly the C locale's whitespace.
constexpr std::string_view kWhitespace = " \t\n\r\f\v";

std::string_view TrimWhitespace(std::string_view text) {
  const size_t first = text.find_first_not_of(kWhitespace);
  if (first == std::string_view::npos) return {};
  const size_t last = text.find_last_not_of(kWhitespace);
  return text.substr(first, last - first + 1);
}

bool StartsWith(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

// Lines glslc drops before looking at them at all, even without -w: glslang's notes on
// desktop versions it considers incomplete, and the link step's stage headers.
bool IsIgnoredLine(std::string_view line) {
  static constexpr std::array<std::string_view, 14> kIgnoredLines = {
      "",
      "Warning, version 310 is not yet complete; most version-specific features are present, "
      "but some are missing.",
      "Warning, version 400 is not yet complete; most version-specific features are present, "
      "but some are missing.",
      "Warning, version 410 is not yet complete; most version-specific features are present, "
      "but some are missing.",
      "Warning, version 420 is not yet complete; most version-specific features are present, "
      "but some are missing.",
      "Warning, version 430 is not yet complete; most version-specific features are present, "
      "but some are missing.",
      "Warning, version 440 is not yet complete; most version-specific features are present, "
      "but some are missing.",
      "Warning, version 450 is not yet complete; most version-specific features are present, "
      "but some are missing.",
      "Linked vertex stage:",
      "Linked fragment stage:",
      "Linked tessellation control stage:",
      "Linked tessellation evaluation stage:",
      "Linked geometry stage:",
      "Linked compute stage:",
  };
  for (std::string_view ignored : kIgnoredLines) {
    if (line == ignored) return true;
  }
  return false;
}

struct Location {
  std::string_view source;   // a file name, or glslang's string number
  std::string_view line;     // digits only
  std::string_view message;  // what follows the location's ": "
};

// glslang writes "SOURCE:LINE: message". SOURCE may itself hold colons ("C:\a.vert"), so
// the location is the first pair of consecutive colons with only digits between them and
// a space after the second; glslc also wants room for a digit, a colon, a space and a
// message character after the first colon, and gives up as soon as the next colon is too
// close to the end.
std::optional<Location> FindLocation(std::string_view text) {
  const size_t size = text.size();
  if (size <= 4) return std::nullopt;
  const size_t last_first_colon = size - 4;
  const size_t last_second_colon = size - 2;
  size_t first_colon = text.find(':');
  while (first_colon != std::string_view::npos && first_colon <= last_first_colon) {
    const size_t second_colon = text.find(':', first_colon + 1);
    if (second_colon == std::string_view::npos || second_colon > last_second_colon) {
      return std::nullopt;
    }
    const bool has_digits = second_colon > first_colon + 1 &&
                            text.find_first_not_of("0123456789", first_colon + 1) == second_colon;
    if (has_digits && text[second_colon + 1] == ' ') {
      return Location{text.substr(0, first_colon),
                      text.substr(first_colon + 1, second_colon - first_colon - 1),
                      text.substr(second_colon + 2)};
    }
    first_colon = second_colon;
  }
  return std::nullopt;
}

// glslang ends a failed parse's log with "N compilation errors.  No code generated.",
// which glslc leaves out: it prints its own summary after all inputs.
bool IsCompilationErrorsSummary(std::string_view text) {
  const size_t space = text.find(' ');
  if (space == std::string_view::npos) return false;
  const std::string_view number = text.substr(0, space);
  if (number.find_first_not_of("0123456789") != std::string_view::npos) return false;
  return StartsWith(text.substr(space + 1), "compilation errors.");
}

enum class Kind { kError, kWarning, kGlobalWarning, kUnknown };

Kind ClassifyAndStripPrefix(std::string_view* line) {
  static constexpr std::string_view kErrorPrefix = "ERROR: ";
  static constexpr std::string_view kWarningPrefix = "WARNING: ";
  static constexpr std::string_view kGlobalWarningPrefix = "Warning, ";
  if (StartsWith(*line, kErrorPrefix)) {
    line->remove_prefix(kErrorPrefix.size());
    return Kind::kError;
  }
  if (StartsWith(*line, kWarningPrefix)) {
    line->remove_prefix(kWarningPrefix.size());
    return Kind::kWarning;
  }
  if (StartsWith(*line, kGlobalWarningPrefix)) {
    line->remove_prefix(kGlobalWarningPrefix.size());
    return Kind::kGlobalWarning;
  }
  return Kind::kUnknown;
}

void AppendUnknownLine(std::string_view line, const std::string& name, std::string* out) {
  out->append(name).append(": ").append(line).append("\n");
}

// Appends "WHERE: error: MESSAGE" (or warning) and counts it.
void AppendCounted(std::string_view where, bool is_error, std::string_view message,
                   std::string* out, MessageCounts* counts) {
  out->append(where).append(is_error ? ": error: " : ": warning: ");
  out->append(TrimWhitespace(message)).append("\n");
  if (is_error) {
    ++counts->errors;
  } else {
    ++counts->warnings;
  }
}

}  // namespace

size_t RewriteGlslangLog(const std::string& log, const std::string& name,
                         const WarningPolicy& policy, std::string* out, MessageCounts* counts) {
  const size_t errors_before = counts->errors;
  // glslc is handed the log as a C string: anything after a NUL is never seen.
  std::string_view rest_of_log(log.c_str());
  while (!rest_of_log.empty()) {
    const size_t newline = rest_of_log.find('\n');
    const std::string_view line = rest_of_log.substr(0, newline);
    rest_of_log.remove_prefix(newline == std::string_view::npos ? rest_of_log.size() : newline + 1);
    if (IsIgnoredLine(line)) continue;

    std::string_view text = line;
    const Kind kind = ClassifyAndStripPrefix(&text);
    if (kind == Kind::kUnknown) {
      AppendUnknownLine(line, name, out);
      continue;
    }
    if (kind != Kind::kError && policy.suppress) continue;
    const bool is_error = kind == Kind::kError || policy.as_errors;
    if (kind == Kind::kGlobalWarning) {
      AppendCounted(name, is_error, text, out, counts);
      continue;
    }

    text = TrimWhitespace(text);
    if (text.empty()) {
      AppendUnknownLine(line, name, out);
      continue;
    }
    if (const std::optional<Location> location = FindLocation(text)) {
      // String number -1 is the preamble, which holds the -D macros.
      const std::string_view source =
          location->source == "-1" ? std::string_view("<command line>") : location->source;
      std::string where(source);
      where.append(":").append(location->line);
      AppendCounted(where, is_error, location->message, out, counts);
    } else if (!IsCompilationErrorsSummary(text)) {
      AppendCounted(name, is_error, text, out, counts);
    }
  }
  return counts->errors - errors_before;
}

std::string SummaryLine(const MessageCounts& counts) {
  auto counted = [](size_t count, const char* noun) {
    return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
  };
  std::string summary;
  if (counts.warnings > 0) summary = counted(counts.warnings, "warning");
  if (counts.errors > 0) {
    if (!summary.empty()) summary += " and ";
    summary += counted(counts.errors, "error");
  }
  if (summary.empty()) return summary;
  return summary + " generated.\n";
}

}  // namespace glint::glslc
