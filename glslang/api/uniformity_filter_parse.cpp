// glint::ParseUniformityFilter (glint.h): the text of --uniformity-off, --uniformity-note
// and --uniformity-assume-uniform, shared by the command line and the C API.
#include <cctype>
#include <cstdlib>

#include "glint/glint.h"

namespace glint {
namespace {

const char kShape[] =
    "expects FUNCTION, FILE:LINE or FILE:FIRST-LAST, optionally followed by =JUSTIFICATION";

// A decimal line number from 1 to 2^32 - 1, the whole of `digits`.
bool ParseLine(const std::string& digits, uint32_t* line) {
  if (digits.empty() || digits.size() > 10) return false;
  for (char c : digits)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  unsigned long long value = std::strtoull(digits.c_str(), nullptr, 10);
  if (value == 0 || value > UINT32_MAX) return false;
  *line = static_cast<uint32_t>(value);
  return true;
}

// "FILE:LINE" or "FILE:FIRST-LAST" (the last colon separates the file).
bool ParseLines(const std::string& where, UniformityFilter* filter) {
  size_t colon = where.rfind(':');
  if (colon == std::string::npos || colon == 0) return false;
  std::string lines = where.substr(colon + 1);
  size_t dash = lines.find('-');
  uint32_t first = 0, last = 0;
  if (!ParseLine(lines.substr(0, dash), &first)) return false;
  if (dash == std::string::npos)
    last = first;
  else if (!ParseLine(lines.substr(dash + 1), &last))
    return false;
  filter->file = where.substr(0, colon);
  filter->first_line = first;
  filter->last_line = last;
  return true;
}

// A GLSL identifier, or glslang's full name of a function: the identifier followed by
// its parameter list, "(u1;vf4;".
bool IsFunctionName(const std::string& name) {
  if (name.empty() || !(std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_'))
    return false;
  for (char c : name) {
    if (c == '(') return true;
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  }
  return true;
}

}  // namespace

bool ParseUniformityFilter(UniformityFilterAction action, const std::string& text,
                           UniformityFilter* filter, std::string* error) {
  size_t equal = text.find('=');
  std::string where = text.substr(0, equal);
  UniformityFilter parsed;
  parsed.action = action;
  if (equal != std::string::npos) parsed.justification = text.substr(equal + 1);
  bool lines = where.find(':') != std::string::npos;
  if (lines ? !ParseLines(where, &parsed) : !IsFunctionName(where)) {
    if (error) *error = std::string(kShape) + "; got '" + text + "'";
    return false;
  }
  if (lines && parsed.first_line > parsed.last_line) {
    if (error) *error = "lines " + where.substr(where.rfind(':') + 1) + ": the first is after the last";
    return false;
  }
  if (lines && action == UniformityFilterAction::kAssumeUniform) {
    if (error) *error = "a promise names a function whose results are uniform, not lines; got '" +
                        where + "'";
    return false;
  }
  if (!lines) parsed.function = where;
  *filter = std::move(parsed);
  return true;
}

}  // namespace glint
