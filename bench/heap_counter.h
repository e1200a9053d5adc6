// Heap bytes a benchmark's allocations hold: operator new/delete replaced (heap_counter.cpp)
// to count what each block costs malloc — its usable size (rounding included) plus its
// per-block header (glibc: one size_t) — so many small allocations cost what they
// really do, and temporaries show in the peak. Linked into the memory benchmarks only.
#ifndef GLINT_BENCH_HEAP_COUNTER_H
#define GLINT_BENCH_HEAP_COUNTER_H

#include <cstddef>

namespace glint::bench {

// Bytes held now.
size_t HeapLive();
// The most held at once since the last ResetHeapPeak (which sets it to what is held now).
size_t HeapPeak();
void ResetHeapPeak();

}  // namespace glint::bench

#endif  // GLINT_BENCH_HEAP_COUNTER_H
