// A short list of ids held in place: the operands a range rule reads, the values of an
// expression followed at a use. Such lists are made and dropped by the thousand while a
// large shader is analysed, nearly all with four ids or fewer; a vector would cost a
// heap block each (malloc and free were a third of the range analysis's instructions).
// Up to `kInline` ids live inside the object; a longer list moves to the heap whole.
#ifndef GLINT_SPIRV_ANALYSIS_FACTS_SMALL_IDS_H
#define GLINT_SPIRV_ANALYSIS_FACTS_SMALL_IDS_H

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <vector>

namespace glint::spirv {

template <size_t kInline>
class SmallIdList {
 public:
  SmallIdList() = default;
  SmallIdList(std::initializer_list<uint32_t> ids) { Append(ids.begin(), ids.end()); }
  template <typename Iterator>
  SmallIdList(Iterator first, Iterator last) {
    Append(first, last);
  }
  // Implicit on purpose: rules that already hold their operands in a vector return it.
  SmallIdList(const std::vector<uint32_t>& ids) { Append(ids.begin(), ids.end()); }  // NOLINT
  SmallIdList(const SmallIdList& other) { Append(other.begin(), other.end()); }
  SmallIdList& operator=(const SmallIdList& other) {
    if (this != &other) {
      clear();
      Append(other.begin(), other.end());
    }
    return *this;
  }

  void push_back(uint32_t id) {
    if (size_ < kInline) {
      inline_[size_++] = id;
      return;
    }
    if (size_ == kInline) heap_.assign(inline_, inline_ + kInline);
    heap_.push_back(id);
    ++size_;
  }
  void clear() {
    size_ = 0;
    heap_.clear();
  }

  const uint32_t* begin() const { return size_ > kInline ? heap_.data() : inline_; }
  const uint32_t* end() const { return begin() + size_; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  uint32_t operator[](size_t i) const { return begin()[i]; }
  std::vector<uint32_t> ToVector() const { return std::vector<uint32_t>(begin(), end()); }

 private:
  template <typename Iterator>
  void Append(Iterator first, Iterator last) {
    for (; first != last; ++first) push_back(*first);
  }

  uint32_t inline_[kInline];
  uint32_t size_ = 0;
  std::vector<uint32_t> heap_;  // every id, once there are more than kInline
};

// The operands a value's range is computed from (range_rule.h).
using DependencyIds = SmallIdList<4>;

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_FACTS_SMALL_IDS_H
