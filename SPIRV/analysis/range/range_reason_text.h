// The shape of a range analysis reason's text, shared by the code that writes reasons
// (integer_range_analysis.cpp's BoundedReason) and the memo that holds them.
//
// A reason is a chain of hops joined by kHop ("a value stored to the local has no range:
// an argument passed to the parameter has no range: ... <root cause>"); a chain longer
// than BoundedReason allows has its middle elided as "[N more steps] ". Along a chain of
// calls nearly every value's reason differs from the next only in N, so the memo keeps
// such a reason as the text before the marker, N, and the text after it: a few distinct
// texts instead of one string per depth.
#ifndef GLINT_SPIRV_ANALYSIS_RANGE_REASON_TEXT_H
#define GLINT_SPIRV_ANALYSIS_RANGE_REASON_TEXT_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace glint::spirv::range_reason_text {

inline constexpr std::string_view kHop = " has no range: ";
inline constexpr std::string_view kMoreOpen = "[", kMoreClose = " more steps] ";

// A reason split at its first elision marker: `head` + "[" + steps + " more steps] " +
// `tail` is the reason again, character for character.
struct Elided {
  std::string_view head;
  uint32_t steps = 0;
  std::string_view tail;
};

// Where the first kMoreClose in `reason` starts (npos when none). The memo asks this of
// every reason it keeps: the rare ']' is searched for, not the marker's leading space.
inline size_t FindMoreClose(std::string_view reason) {
  const size_t bracket = kMoreClose.find(']');
  for (size_t at = reason.find(']', bracket); at != std::string_view::npos;
       at = reason.find(']', at + 1))
    if (reason.compare(at - bracket, kMoreClose.size(), kMoreClose) == 0) return at - bracket;
  return std::string_view::npos;
}

// The parts of `reason` at its first elision marker; nullopt when it has none, or when
// its count would not be written back the same (a leading zero, more than 9 digits).
inline std::optional<Elided> SplitAtElision(std::string_view reason) {
  size_t close = FindMoreClose(reason);
  if (close == std::string_view::npos) return std::nullopt;
  size_t first_digit = close;
  while (first_digit > 0 && reason[first_digit - 1] >= '0' && reason[first_digit - 1] <= '9')
    --first_digit;
  size_t digits = close - first_digit;
  if (digits == 0 || digits > 9 || (digits > 1 && reason[first_digit] == '0')) return std::nullopt;
  if (first_digit < kMoreOpen.size() ||
      reason.substr(first_digit - kMoreOpen.size(), kMoreOpen.size()) != kMoreOpen)
    return std::nullopt;
  Elided parts;
  for (size_t i = first_digit; i < close; ++i)
    parts.steps = parts.steps * 10 + uint32_t(reason[i] - '0');
  parts.head = reason.substr(0, first_digit - kMoreOpen.size());
  parts.tail = reason.substr(close + kMoreClose.size());
  return parts;
}

inline std::string JoinElided(std::string_view head, uint32_t steps, std::string_view tail) {
  std::string reason;
  reason.reserve(head.size() + tail.size() + kMoreOpen.size() + kMoreClose.size() + 10);
  reason.append(head).append(kMoreOpen).append(std::to_string(steps)).append(kMoreClose);
  reason.append(tail);
  return reason;
}

}  // namespace glint::spirv::range_reason_text

#endif  // GLINT_SPIRV_ANALYSIS_RANGE_REASON_TEXT_H
