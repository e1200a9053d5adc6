// The counting operator new/delete (see heap_counter.h).
#include "heap_counter.h"

#include <malloc.h>

#include <atomic>
#include <cstdlib>
#include <new>

namespace {
std::atomic<size_t> g_live{0}, g_peak{0};
// glibc's chunk header in front of every block (its size field).
constexpr size_t kBlockHeader = sizeof(size_t);
size_t Cost(void* memory) { return malloc_usable_size(memory) + kBlockHeader; }
}  // namespace

void* operator new(std::size_t size) {
  void* memory = std::malloc(size ? size : 1);
  if (!memory) throw std::bad_alloc();
  size_t live = g_live += Cost(memory);
  for (size_t peak = g_peak; live > peak && !g_peak.compare_exchange_weak(peak, live);) {
  }
  return memory;
}
void operator delete(void* memory) noexcept {
  if (memory) g_live -= Cost(memory);
  std::free(memory);
}
void operator delete(void* memory, std::size_t) noexcept { operator delete(memory); }

namespace glint::bench {

size_t HeapLive() { return g_live; }
size_t HeapPeak() { return g_peak; }
void ResetHeapPeak() { g_peak = g_live.load(); }

}  // namespace glint::bench
