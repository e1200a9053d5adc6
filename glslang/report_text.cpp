// Escaping and line splitting for the report formatters (see report_text.h).
#include "report_text.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace glint::text {
namespace {

// Length of the valid UTF-8 sequence starting at `at`, or 0 when it is not one
// (overlong forms, surrogates and code points past U+10FFFF are invalid).
size_t Utf8SequenceLength(std::string_view s, size_t at) {
  const auto byte = [&](size_t i) { return static_cast<unsigned char>(s[i]); };
  unsigned char lead = byte(at);
  if (lead < 0x80) return 1;
  size_t length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC2 ? 2 : 0;
  if (length == 0 || lead > 0xF4 || at + length > s.size()) return 0;
  for (size_t i = 1; i < length; ++i)
    if ((byte(at + i) & 0xC0) != 0x80) return 0;
  unsigned char second = byte(at + 1);
  if (lead == 0xE0 && second < 0xA0) return 0;  // overlong
  if (lead == 0xED && second >= 0xA0) return 0;  // surrogate
  if (lead == 0xF0 && second < 0x90) return 0;  // overlong
  if (lead == 0xF4 && second >= 0x90) return 0;  // past U+10FFFF
  return length;
}

}  // namespace

std::string ValidUtf8(const std::string& bytes) {
  std::string out;
  out.reserve(bytes.size());
  for (size_t at = 0; at < bytes.size();) {
    size_t length = Utf8SequenceLength(bytes, at);
    if (length == 0) {
      out += "\xEF\xBF\xBD";
      ++at;
      continue;
    }
    out.append(bytes, at, length);
    at += length;
  }
  return out;
}

// What Html() does with a byte: copy it, replace it by an entity, or check the UTF-8
// sequence it starts.
enum ByteClass : unsigned char { kPlain, kEntity, kMultibyte };

struct ByteClasses {
  ByteClass of[256];
  ByteClasses() {
    for (int c = 0; c < 256; ++c) of[c] = c < 0x80 ? kPlain : kMultibyte;
    for (unsigned char c : {'&', '<', '>', '"', '\'', '\0'}) of[c] = kEntity;
  }
};

const char* EntityOf(char c) {
  switch (c) {
    case '&': return "&amp;";
    case '<': return "&lt;";
    case '>': return "&gt;";
    case '"': return "&quot;";
    case '\'': return "&#39;";
    default: return "\xEF\xBF\xBD";  // NUL, and bytes that are not UTF-8
  }
}

// One pass: runs of plain bytes are appended whole (sources are mostly plain ASCII,
// and a report of a large source must stay cheap next to its compile).
void AppendHtml(std::string& out, std::string_view bytes) {
  static const ByteClasses kClasses;
  size_t run = 0;  // start of the pending run of bytes copied as they are
  for (size_t at = 0; at < bytes.size();) {
    ByteClass kind = kClasses.of[static_cast<unsigned char>(bytes[at])];
    if (kind == kPlain) {
      ++at;
      continue;
    }
    size_t length = kind == kMultibyte ? Utf8SequenceLength(bytes, at) : 0;
    if (length > 0) {
      at += length;
      continue;
    }
    out.append(bytes, run, at - run);
    out += EntityOf(bytes[at]);
    run = ++at;
  }
  out.append(bytes, run, bytes.size() - run);
}

std::string Html(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size() + bytes.size() / 8);
  AppendHtml(out, bytes);
  return out;
}

std::string Json(const std::string& bytes) {
  std::string out = "\"";
  for (char c : ValidUtf8(bytes)) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char escaped[8];
          std::snprintf(escaped, sizeof(escaped), "\\u%04x", static_cast<unsigned>(c));
          out += escaped;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

// Lines end at \n in nearly every source; memchr finds those fast, and a line is
// searched for a lone \r (old Mac line ends) only once found.
std::vector<std::string_view> SplitLines(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    const void* newline = std::memchr(text.data(), '\n', text.size());
    size_t end = newline ? static_cast<const char*>(newline) - text.data() : text.size();
    std::string_view line = text.substr(0, end);
    size_t carriage = line.find('\r');
    if (carriage != std::string_view::npos && carriage + 1 < line.size()) end = carriage;  // a lone \r ends it
    else if (carriage != std::string_view::npos) line.remove_suffix(1);                 // \r\n
    lines.push_back(text.substr(0, std::min(end, line.size())));
    text.remove_prefix(std::min(text.size(), end + 1));
  }
  return lines;
}

}  // namespace glint::text
