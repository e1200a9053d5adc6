// Text helpers the report formatters share: escaping for HTML and JSON (both replace
// bytes that are not valid UTF-8 with U+FFFD, so any source text renders as text) and
// splitting a source into lines the way a reader counts them.
#ifndef GLINT_GLSLANG_REPORTS_REPORT_TEXT_H
#define GLINT_GLSLANG_REPORTS_REPORT_TEXT_H

#include <charconv>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace glint::text {

// Text appended in many small pieces with <<: strings as they are, integers in
// decimal. std::ostringstream costs several times more (a sentry, locale and virtual
// calls per piece), which shows on a report of thousands of lines or findings.
class TextBuilder {
 public:
  TextBuilder& operator<<(std::string_view piece) {
    text_.append(piece);
    return *this;
  }
  TextBuilder& operator<<(const char* piece) { return *this << std::string_view(piece); }
  TextBuilder& operator<<(const std::string& piece) { return *this << std::string_view(piece); }
  TextBuilder& operator<<(char c) {
    text_ += c;
    return *this;
  }
  template <typename Integer, std::enable_if_t<std::is_integral_v<Integer>, int> = 0>
  TextBuilder& operator<<(Integer value) {
    char digits[24];
    return *this << std::string_view(
               digits, size_t(std::to_chars(digits, digits + sizeof digits, value).ptr - digits));
  }
  void Reserve(size_t bytes) { text_.reserve(bytes); }
  std::string& Text() { return text_; }
  std::string Take() { return std::move(text_); }

 private:
  std::string text_;
};

// `bytes` with every invalid UTF-8 sequence replaced by U+FFFD.
std::string ValidUtf8(const std::string& bytes);
// Text for HTML element content and attribute values: & < > " ' escaped.
std::string Html(std::string_view bytes);
void AppendHtml(std::string& out, std::string_view bytes);
// Appends the line of `text` that starts at `at`, escaped as Html() does, and returns
// where the next line starts (past its \n, \r\n or lone \r; text.size() at the end).
// Called from 0 until it returns text.size(), it visits the lines SplitLines gives, in
// one scan of the text: how a report shows a large source cheaply.
size_t AppendHtmlLine(std::string& out, std::string_view text, size_t at);
// A JSON string literal, quotes included.
std::string Json(std::string_view bytes);
void AppendJson(std::string& out, std::string_view bytes);
// Lines split at \n, \r\n or \r; a final line break does not start another line.
// The views point into `text`, which must outlive them.
std::vector<std::string_view> SplitLines(std::string_view text);

}  // namespace glint::text

#endif  // GLINT_GLSLANG_REPORTS_REPORT_TEXT_H
