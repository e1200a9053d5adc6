// Escaping and line splitting for the report formatters (see report_text.h).
#include "glslang/reports/report_text.h"

#include <algorithm>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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
  if (lead == 0xE0 && second < 0xA0) return 0;   // overlong
  if (lead == 0xED && second >= 0xA0) return 0;  // surrogate
  if (lead == 0xF0 && second < 0x90) return 0;   // overlong
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

namespace {

// Bytes the HTML escaper stops at: the ones it replaces by an entity, bytes >= 0x80
// (a multibyte sequence is checked, U+FFFD when invalid) and line breaks (where
// AppendHtmlLine ends a line). Everything else is copied in runs.
struct StopBytes {
  bool at[256] = {};
  constexpr StopBytes() {
    for (int c = 0x80; c < 256; ++c) at[c] = true;
    for (unsigned char c : {'&', '<', '>', '"', '\'', '\0', '\n', '\r'}) at[c] = true;
  }
};
constexpr StopBytes kStopBytes;  // built by the compiler: no start-up cost without --report

// Index of the first stop byte at or after `at`, or text.size(). Sources are nearly all
// plain ASCII, so this loop is most of a large report's cost: with SSE2 (every x86-64)
// it tests 16 bytes with a few instructions instead of one table lookup per byte.
size_t NextStop(std::string_view text, size_t at) {
#if defined(__SSE2__) && (defined(__GNUC__) || defined(__clang__))
  const __m128i amp = _mm_set1_epi8('&'), lt = _mm_set1_epi8('<'), gt = _mm_set1_epi8('>');
  const __m128i quot = _mm_set1_epi8('"'), apos = _mm_set1_epi8('\''), nul = _mm_setzero_si128();
  const __m128i lf = _mm_set1_epi8('\n'), cr = _mm_set1_epi8('\r');
  for (; at + 16 <= text.size(); at += 16) {
    __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(text.data() + at));
    __m128i entity =
        _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(bytes, amp), _mm_cmpeq_epi8(bytes, lt)),
                     _mm_or_si128(_mm_cmpeq_epi8(bytes, gt), _mm_cmpeq_epi8(bytes, quot)));
    __m128i other =
        _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(bytes, apos), _mm_cmpeq_epi8(bytes, nul)),
                     _mm_or_si128(_mm_cmpeq_epi8(bytes, lf), _mm_cmpeq_epi8(bytes, cr)));
    // movemask takes each byte's top bit: set by a match, and by every byte >= 0x80.
    unsigned mask = unsigned(_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(entity, other), bytes)));
    if (mask != 0) return at + unsigned(__builtin_ctz(mask));
  }
#endif
  while (at < text.size() && !kStopBytes.at[static_cast<unsigned char>(text[at])]) ++at;
  return at;
}

const char* EntityOf(char c) {
  switch (c) {
    case '&':
      return "&amp;";
    case '<':
      return "&lt;";
    case '>':
      return "&gt;";
    case '"':
      return "&quot;";
    case '\'':
      return "&#39;";
    default:
      return "\xEF\xBF\xBD";  // NUL, and bytes that are not UTF-8
  }
}

// Escapes text[at, end of line or text) into `out`; returns where it stopped: at a line
// break when `lines` is set, else at the end. Runs of plain bytes and valid multibyte
// sequences are appended whole.
size_t AppendEscaped(std::string& out, std::string_view text, size_t at, bool lines) {
  size_t run = at;  // start of the pending run of bytes copied as they are
  for (;; ++at) {
    at = NextStop(text, at);
    if (at == text.size()) break;
    char c = text[at];
    if (c == '\n' || c == '\r') {
      if (lines) break;
      continue;
    }
    size_t length = static_cast<unsigned char>(c) >= 0x80 ? Utf8SequenceLength(text, at) : 0;
    if (length > 0) {
      at += length - 1;
      continue;
    }
    out.append(text.data() + run, at - run);
    out += EntityOf(c);
    run = at + 1;
  }
  out.append(text.data() + run, at - run);
  return at;
}

}  // namespace

void AppendHtml(std::string& out, std::string_view bytes) { AppendEscaped(out, bytes, 0, false); }

size_t AppendHtmlLine(std::string& out, std::string_view text, size_t at) {
  at = AppendEscaped(out, text, at, true);
  if (at == text.size()) return at;
  bool crlf = text[at] == '\r' && at + 1 < text.size() && text[at + 1] == '\n';
  return at + (crlf ? 2 : 1);
}

std::string Html(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size() + bytes.size() / 8);
  AppendHtml(out, bytes);
  return out;
}

namespace {

// The escape of a byte a JSON string may not hold as it is: " \ and control
// characters; bytes that are not UTF-8 become U+FFFD.
void AppendJsonEscape(std::string& out, unsigned char c) {
  static const char kHex[] = "0123456789abcdef";
  switch (c) {
    case '"':
      out += "\\\"";
      return;
    case '\\':
      out += "\\\\";
      return;
    case '\n':
      out += "\\n";
      return;
    case '\r':
      out += "\\r";
      return;
    case '\t':
      out += "\\t";
      return;
    default:
      if (c >= 0x80)
        out += "\xEF\xBF\xBD";
      else
        out += {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 15]};
  }
}

}  // namespace

// Runs of bytes that need no escape are appended whole (a SARIF log is mostly
// messages and paths of plain ASCII).
void AppendJson(std::string& out, std::string_view bytes) {
  out += '"';
  size_t run = 0;  // start of the pending run of bytes copied as they are
  for (size_t at = 0; at < bytes.size(); ++at) {
    unsigned char c = static_cast<unsigned char>(bytes[at]);
    if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') continue;
    size_t length = c >= 0x80 ? Utf8SequenceLength(bytes, at) : 0;
    if (length > 0) {
      at += length - 1;
      continue;
    }
    out.append(bytes.data() + run, at - run);
    AppendJsonEscape(out, c);
    run = at + 1;
  }
  out.append(bytes.data() + run, bytes.size() - run);
  out += '"';
}

std::string Json(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size() + 2);
  AppendJson(out, bytes);
  return out;
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
    if (carriage != std::string_view::npos && carriage + 1 < line.size())
      end = carriage;  // a lone \r ends it
    else if (carriage != std::string_view::npos)
      line.remove_suffix(1);  // \r\n
    lines.push_back(text.substr(0, std::min(end, line.size())));
    text.remove_prefix(std::min(text.size(), end + 1));
  }
  return lines;
}

}  // namespace glint::text
