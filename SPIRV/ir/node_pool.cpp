// The node pool behind NodePoolAllocator (see node_pool.h). Kept out of the header so
// that its per-thread and shared state are this library's own symbols, not template
// statics every user of the header would export.
#include "node_pool.h"

#include <mutex>
#include <new>
#include <vector>

namespace glint::spirv::node_pool_detail {
namespace {

constexpr size_t kSizeClasses = kLargestPooledNode / kNodeGranule + 1;
constexpr size_t kChunkBytes = 16 * 1024;

// The free nodes of one size class: a list linked through the nodes themselves.
struct FreeNode {
  FreeNode* next;
};

size_t SizeClass(size_t size) { return (size + kNodeGranule - 1) / kNodeGranule; }

// What all threads share: nodes left by threads that ended, and the chunks (kept only so
// that the memory stays reachable).
struct SharedNodes {
  std::mutex mutex;
  FreeNode* free[kSizeClasses] = {};
  std::vector<void*> chunks;
};

SharedNodes& Shared() {
  // Never destroyed: threads that end during or after static destruction still give
  // their nodes back.
  static SharedNodes* shared = new SharedNodes;
  return *shared;
}

struct ThreadNodes {
  FreeNode* free[kSizeClasses] = {};

  void Refill(size_t size_class) {
    SharedNodes& shared = Shared();
    std::lock_guard<std::mutex> lock(shared.mutex);
    if (shared.free[size_class]) {
      free[size_class] = shared.free[size_class];
      shared.free[size_class] = nullptr;
      return;
    }
    const size_t stride = size_class * kNodeGranule;
    const size_t nodes = kChunkBytes / stride;
    const size_t chunk_bytes = stride * nodes;
    char* chunk = static_cast<char*>(::operator new(chunk_bytes));
    shared.chunks.push_back(chunk);
    for (size_t i = nodes; i-- > 0;) {
      FreeNode* node = reinterpret_cast<FreeNode*>(chunk + i * stride);
      node->next = free[size_class];
      free[size_class] = node;
    }
  }

  // The thread's free nodes go to the shared list. Its own lists are emptied: a node
  // given back later in the thread's exit (another thread-local's destructor freeing a
  // module) is then only lost, and a node taken then comes from the shared list, never
  // from one the shared list also holds.
  ~ThreadNodes() {
    SharedNodes& shared = Shared();
    std::lock_guard<std::mutex> lock(shared.mutex);
    for (size_t size_class = 0; size_class < kSizeClasses; ++size_class) {
      FreeNode* first = free[size_class];
      if (!first) continue;
      free[size_class] = nullptr;
      FreeNode* last = first;
      while (last->next) last = last->next;
      last->next = shared.free[size_class];
      shared.free[size_class] = first;
    }
  }
};

thread_local ThreadNodes this_thread;

}  // namespace

void* TakeNode(size_t size) {
  const size_t size_class = SizeClass(size);
  if (!this_thread.free[size_class]) this_thread.Refill(size_class);
  FreeNode* node = this_thread.free[size_class];
  this_thread.free[size_class] = node->next;
  return node;
}

void GiveNode(void* pointer, size_t size) noexcept {
  const size_t size_class = SizeClass(size);
  FreeNode* node = static_cast<FreeNode*>(pointer);
  node->next = this_thread.free[size_class];
  this_thread.free[size_class] = node;
}

}  // namespace glint::spirv::node_pool_detail
