// Why a value has no range (IntegerRange::reason): an immutable text that the copies of
// one range share.
//
// Ranges are copied wherever they are read (every memo read, every operand of a rule,
// every conversion between readings), and a reason is longer than a std::string keeps
// inline ("u32 subtraction may underflow", "a value stored to the local has no range:
// ..."): as a std::string each copy was an allocation and a free, a quarter of what the
// range report allocated on a large compute kernel. Copying a RangeReason copies one
// pointer; appending builds a new text and leaves the others' alone.
#ifndef GLINT_SPIRV_ANALYSIS_RANGE_RANGE_REASON_H
#define GLINT_SPIRV_ANALYSIS_RANGE_RANGE_REASON_H

#include <memory>
#include <ostream>
#include <string>
#include <string_view>

namespace glint::spirv {

class RangeReason {
 public:
  RangeReason() = default;
  RangeReason(std::string text)  // NOLINT(google-explicit-constructor): reasons are texts
      : text_(text.empty() ? nullptr : std::make_shared<const std::string>(std::move(text))) {}
  RangeReason(const char* text) : RangeReason(std::string(text)) {}  // NOLINT

  const std::string& str() const { return text_ ? *text_ : Empty(); }
  operator const std::string&() const { return str(); }  // NOLINT
  bool empty() const { return !text_; }
  size_t size() const { return str().size(); }
  size_t find(std::string_view what, size_t from = 0) const { return str().find(what, from); }
  size_t rfind(std::string_view what, size_t from = std::string::npos) const {
    return str().rfind(what, from);
  }
  int compare(std::string_view other) const { return std::string_view(str()).compare(other); }
  std::string substr(size_t from, size_t count = std::string::npos) const {
    return str().substr(from, count);
  }

  RangeReason& operator+=(std::string_view more) {
    std::string joined = str();
    joined += more;
    return *this = RangeReason(std::move(joined));
  }

  friend bool operator==(const RangeReason& a, const RangeReason& b) { return a.str() == b.str(); }
  friend bool operator!=(const RangeReason& a, const RangeReason& b) { return a.str() != b.str(); }
  friend bool operator==(const RangeReason& a, const std::string& b) { return a.str() == b; }
  friend bool operator!=(const RangeReason& a, const std::string& b) { return a.str() != b; }
  friend bool operator==(const RangeReason& a, const char* b) { return a.str() == b; }
  friend bool operator!=(const RangeReason& a, const char* b) { return a.str() != b; }
  friend bool operator==(const char* a, const RangeReason& b) { return b.str() == a; }
  friend bool operator!=(const char* a, const RangeReason& b) { return b.str() != a; }
  friend std::string operator+(const RangeReason& a, std::string_view b) {
    std::string out = a.str();
    out += b;
    return out;
  }
  friend std::string operator+(std::string a, const RangeReason& b) { return a += b.str(); }
  friend std::string operator+(const char* a, const RangeReason& b) {
    return std::string(a) + b.str();
  }
  friend std::ostream& operator<<(std::ostream& out, const RangeReason& reason) {
    return out << reason.str();
  }

 private:
  static const std::string& Empty() {
    static const std::string empty;
    return empty;
  }
  std::shared_ptr<const std::string> text_;
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_RANGE_RANGE_REASON_H
