// Text helpers the report formatters share: escaping for HTML and JSON (both replace
// bytes that are not valid UTF-8 with U+FFFD, so any source text renders as text) and
// splitting a source into lines the way a reader counts them.
#ifndef GLINT_GLSLANG_REPORT_TEXT_H
#define GLINT_GLSLANG_REPORT_TEXT_H

#include <string>
#include <vector>

namespace glint::text {

// `bytes` with every invalid UTF-8 sequence replaced by U+FFFD.
std::string ValidUtf8(const std::string& bytes);
// Text for HTML element content and attribute values: & < > " ' escaped.
std::string Html(const std::string& bytes);
// A JSON string literal, quotes included.
std::string Json(const std::string& bytes);
// Lines split at \n, \r\n or \r; a final line break does not start another line.
std::vector<std::string> SplitLines(const std::string& text);

}  // namespace glint::text

#endif  // GLINT_GLSLANG_REPORT_TEXT_H
