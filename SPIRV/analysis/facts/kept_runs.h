// Read-only runs of small values kept by the analysis that made them: many short lists
// (one per load, say) packed into a few large chunks, so each costs its elements and a
// pointer and a length instead of a vector, a heap block and malloc's header apiece.
// A run stays valid while its KeptRuns lives (chunks never move).
#ifndef GLINT_SPIRV_ANALYSIS_KEPT_RUNS_H
#define GLINT_SPIRV_ANALYSIS_KEPT_RUNS_H

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace glint::spirv {

template <typename T>
class KeptRun {
 public:
  KeptRun() = default;
  KeptRun(const T* first, uint32_t size) : first_(first), size_(size) {}
  const T* begin() const { return first_; }
  const T* end() const { return first_ + size_; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const T& operator[](size_t i) const { return first_[i]; }
  const T& front() const { return first_[0]; }
  const T& back() const { return first_[size_ - 1]; }
  std::vector<T> ToVector() const { return std::vector<T>(begin(), end()); }

 private:
  const T* first_ = nullptr;
  uint32_t size_ = 0;
};

template <typename T>
class KeptRuns {
 public:
  static constexpr size_t kChunkElements = 1024;

  // A copy of `items` kept here.
  KeptRun<T> Keep(const std::vector<T>& items) {
    if (items.empty()) return KeptRun<T>();
    if (items.size() > capacity_ - used_) {
      capacity_ = std::max(kChunkElements, items.size());
      chunks_.push_back(std::make_unique<T[]>(capacity_));
      used_ = 0;
    }
    T* first = chunks_.back().get() + used_;
    std::copy(items.begin(), items.end(), first);
    used_ += items.size();
    return KeptRun<T>(first, uint32_t(items.size()));
  }

 private:
  std::vector<std::unique_ptr<T[]>> chunks_;
  size_t used_ = 0;
  size_t capacity_ = 0;
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_KEPT_RUNS_H
