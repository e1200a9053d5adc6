// A table of distinct texts, each held once and named by its number (numbers count up
// from 0 in the order texts are first interned). The range memo keeps its reasons in one
// and the uniformity facts their source texts: many values share a few texts, so each
// keeps a 4-byte number instead of a string or a pointer. Not copied: the index views the
// texts it holds.
#ifndef GLINT_SPIRV_ANALYSIS_INTERNED_TEXTS_H
#define GLINT_SPIRV_ANALYSIS_INTERNED_TEXTS_H

#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>

namespace glint::spirv {

class InternedTexts {
 public:
  InternedTexts() = default;
  InternedTexts(const InternedTexts&) = delete;
  InternedTexts& operator=(const InternedTexts&) = delete;

  // The number of `text`, held from now on if it was not yet.
  uint32_t Intern(std::string_view text) {
    auto known = numbers_.find(text);
    if (known != numbers_.end()) return known->second;
    uint32_t number = uint32_t(texts_.size());
    numbers_.emplace(texts_.emplace_back(text), number);
    return number;
  }
  const std::string& Text(uint32_t number) const { return texts_[number]; }
  size_t size() const { return texts_.size(); }

 private:
  std::deque<std::string> texts_;  // a deque: its elements stay put, the index views them
  std::unordered_map<std::string_view, uint32_t> numbers_;
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_INTERNED_TEXTS_H
