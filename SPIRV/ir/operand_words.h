// The operand words of one instruction, held inside the instruction when there are few.
//
// A module holds one Instruction per instruction, and most have at most four operand
// words after their result type and id (a load has one, a store two, an access chain
// two or three). As a std::vector each of those words arrays was a heap block of its own
// (32 bytes with malloc's header, for 4 to 12 bytes of words): on a large compute shader
// about 8 bytes per input word, the largest single cost after the instructions
// themselves. OperandWords is as large as a std::vector (24 bytes), keeps up to
// kInlineWords words in place and moves to the heap only beyond that.
//
// It offers the part of std::vector's interface that Glint uses, with pointer
// iterators. Unlike a std::vector, moving it moves words held in place, so a pointer
// into an instruction's words does not survive moving the instruction (instructions
// live in std::list nodes, which never move).
#ifndef GLINT_SPIRV_IR_OPERAND_WORDS_H
#define GLINT_SPIRV_IR_OPERAND_WORDS_H

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <stdexcept>
#include <type_traits>
#include <vector>

namespace glint::spirv {

class OperandWords {
  // Keeps (count, value) calls away from the iterator-pair templates, as std::vector does.
  template <typename Iterator>
  using NotACount = std::enable_if_t<!std::is_integral_v<Iterator>>;

 public:
  using value_type = uint32_t;
  using size_type = size_t;
  using reference = uint32_t&;
  using const_reference = const uint32_t&;
  using iterator = uint32_t*;
  using const_iterator = const uint32_t*;

  static constexpr uint32_t kInlineWords = 4;

  OperandWords() = default;
  OperandWords(std::initializer_list<uint32_t> words) { assign(words.begin(), words.end()); }
  // Implicit, as std::vector<uint32_t> was the type before: an instruction is made from
  // the words a pass computed.
  OperandWords(const std::vector<uint32_t>& words) { assign(words.begin(), words.end()); }
  template <typename Iterator, typename = NotACount<Iterator>>
  OperandWords(Iterator first, Iterator last) {
    assign(first, last);
  }
  OperandWords(const OperandWords& other) { assign(other.begin(), other.end()); }
  OperandWords(OperandWords&& other) noexcept { TakeFrom(other); }
  OperandWords& operator=(const OperandWords& other) {
    if (this != &other) assign(other.begin(), other.end());
    return *this;
  }
  OperandWords& operator=(OperandWords&& other) noexcept {
    if (this != &other) {
      Release();
      TakeFrom(other);
    }
    return *this;
  }
  ~OperandWords() { Release(); }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  size_t capacity() const { return capacity_; }
  uint32_t* data() { return OnHeap() ? heap_ : inline_; }
  const uint32_t* data() const { return OnHeap() ? heap_ : inline_; }
  iterator begin() { return data(); }
  iterator end() { return data() + size_; }
  const_iterator begin() const { return data(); }
  const_iterator end() const { return data() + size_; }
  uint32_t& operator[](size_t i) { return data()[i]; }
  const uint32_t& operator[](size_t i) const { return data()[i]; }
  uint32_t& at(size_t i) {
    if (i >= size_) throw std::out_of_range("OperandWords::at");
    return data()[i];
  }
  const uint32_t& at(size_t i) const {
    if (i >= size_) throw std::out_of_range("OperandWords::at");
    return data()[i];
  }
  uint32_t& back() { return data()[size_ - 1]; }
  const uint32_t& back() const { return data()[size_ - 1]; }

  void clear() { size_ = 0; }
  void reserve(size_t count) {
    if (count > capacity_) Grow(count);
  }
  void resize(size_t count, uint32_t value = 0) {
    reserve(count);
    std::fill(data() + std::min<size_t>(size_, count), data() + count, value);
    size_ = static_cast<uint32_t>(count);
  }
  template <typename Iterator, typename = NotACount<Iterator>>
  void assign(Iterator first, Iterator last) {
    size_t count = static_cast<size_t>(std::distance(first, last));
    size_ = 0;
    reserve(count);
    if constexpr (std::is_pointer_v<Iterator>) {
      // The parser reads every instruction's words this way, mostly one to four: a
      // library copy call costs more than copying them.
      if (count <= kInlineWords) {
        uint32_t* out = data();
        switch (count) {
          case 4:
            out[3] = first[3];
            [[fallthrough]];
          case 3:
            out[2] = first[2];
            [[fallthrough]];
          case 2:
            out[1] = first[1];
            [[fallthrough]];
          case 1:
            out[0] = first[0];
            break;
          default:
            break;
        }
        size_ = static_cast<uint32_t>(count);
        return;
      }
    }
    std::copy(first, last, data());
    size_ = static_cast<uint32_t>(count);
  }
  void assign(std::initializer_list<uint32_t> words) { assign(words.begin(), words.end()); }
  void assign(size_t count, uint32_t value) {
    size_ = 0;
    resize(count, value);
  }
  void push_back(uint32_t word) {
    if (size_ == capacity_) Grow(size_t{capacity_} * 2);
    data()[size_++] = word;
  }
  void pop_back() { --size_; }

  iterator insert(const_iterator position, uint32_t word) {
    return insert(position, &word, &word + 1);
  }
  template <typename Iterator, typename = NotACount<Iterator>>
  iterator insert(const_iterator position, Iterator first, Iterator last) {
    size_t at = static_cast<size_t>(position - begin());
    size_t count = static_cast<size_t>(std::distance(first, last));
    // Copied first: the inserted words may be this instruction's own.
    std::vector<uint32_t> inserted(first, last);
    if (size_ + count > capacity_) Grow(std::max<size_t>(size_ + count, size_t{capacity_} * 2));
    uint32_t* words = data();
    std::copy_backward(words + at, words + size_, words + size_ + count);
    std::copy(inserted.begin(), inserted.end(), words + at);
    size_ += static_cast<uint32_t>(count);
    return words + at;
  }
  iterator erase(const_iterator position) { return erase(position, position + 1); }
  iterator erase(const_iterator first, const_iterator last) {
    uint32_t* words = data();
    size_t from = static_cast<size_t>(first - words), to = static_cast<size_t>(last - words);
    std::copy(words + to, words + size_, words + from);
    size_ -= static_cast<uint32_t>(to - from);
    return words + from;
  }

  friend bool operator==(const OperandWords& a, const OperandWords& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }
  friend bool operator!=(const OperandWords& a, const OperandWords& b) { return !(a == b); }
  friend bool operator==(const OperandWords& a, const std::vector<uint32_t>& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }
  friend bool operator==(const std::vector<uint32_t>& a, const OperandWords& b) { return b == a; }
  friend bool operator!=(const OperandWords& a, const std::vector<uint32_t>& b) {
    return !(a == b);
  }
  friend bool operator!=(const std::vector<uint32_t>& a, const OperandWords& b) {
    return !(b == a);
  }

 private:
  bool OnHeap() const { return capacity_ > kInlineWords; }
  void Grow(size_t count) {
    count = std::max<size_t>(count, kInlineWords + 1);
    uint32_t* grown = new uint32_t[count];
    if (OnHeap()) {
      std::copy(heap_, heap_ + size_, grown);
    } else {  // bounded by the array so that GCC's -Warray-bounds sees it cannot overrun
      std::copy(inline_, inline_ + std::min<size_t>(size_, kInlineWords), grown);
    }
    Release();
    heap_ = grown;
    capacity_ = static_cast<uint32_t>(count);
  }
  void Release() {
    if (OnHeap()) delete[] heap_;
    capacity_ = kInlineWords;
  }
  void TakeFrom(OperandWords& other) {
    size_ = other.size_;
    capacity_ = other.capacity_;
    if (other.OnHeap()) {
      heap_ = other.heap_;
    } else {
      std::copy(other.inline_, other.inline_ + other.size_, inline_);
    }
    other.size_ = 0;
    other.capacity_ = kInlineWords;
  }

  uint32_t size_ = 0;
  uint32_t capacity_ = kInlineWords;
  union {
    uint32_t inline_[kInlineWords];
    uint32_t* heap_;
  };
};

static_assert(sizeof(void*) != 8 || sizeof(OperandWords) == 24,
              "an instruction's words take no more room than the std::vector they replaced");

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_IR_OPERAND_WORDS_H
