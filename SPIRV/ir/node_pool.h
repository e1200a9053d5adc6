// An allocator for the nodes of the IR's instruction lists (module.h): one node per
// instruction, taken from a free list instead of malloc.
//
// Why: a module is built instruction by instruction (tens of thousands of nodes for a
// large shader) and freed all at once, in every compile. glibc's malloc paid about 200
// instructions for each such node and about as much again to free it (its per-thread
// cache holds 7 nodes of a size; the rest goes through its bins and their
// consolidation): 3.3 M instructions of a 14 M parse of a 64 K-word module, and 2.2 M to
// destroy it. Taking a node from a free list costs a few instructions.
//
// How: nodes of one size come from a free list of the calling thread, refilled from
// chunks of kNodesPerChunk nodes taken with operator new. A node freed goes to the
// freeing thread's list, whichever thread took it. When a thread ends, its free nodes go
// to a list shared by all threads (under a mutex), which a thread whose own list is
// empty takes from before it takes a new chunk. Chunks are never given back: a process
// keeps as many nodes as it ever had live at once, and reuses them in the next compile
// (engines compile one shader after another in one process). The memory is reachable
// all along (the shared list and the chunk list hold it), so leak checkers see no leak.
//
// Under AddressSanitizer the allocator is std::allocator, so that the sanitizer still
// sees each node's use after free.
#ifndef GLINT_SPIRV_IR_NODE_POOL_H
#define GLINT_SPIRV_IR_NODE_POOL_H

#include <cstddef>
#include <type_traits>
#include <memory>
#include <mutex>
#include <new>
#include <vector>

#if defined(__SANITIZE_ADDRESS__)
#define GLINT_NODE_POOL 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GLINT_NODE_POOL 0
#endif
#endif
#ifndef GLINT_NODE_POOL
#define GLINT_NODE_POOL 1
#endif

namespace glint::spirv {
namespace node_pool_detail {

// The free nodes of one size: a singly linked list through the nodes themselves.
struct FreeNode {
  FreeNode* next;
};

// What all threads share for one node size: nodes left by threads that ended, and the
// chunks (kept only so that the memory stays reachable).
struct SharedNodes {
  std::mutex mutex;
  FreeNode* free = nullptr;
  std::vector<void*> chunks;
};

template <size_t kSize, size_t kAlign>
class SizePool {
 public:
  static constexpr size_t kNodesPerChunk = 256;
  static constexpr size_t kStride = (kSize + kAlign - 1) / kAlign * kAlign;
  static_assert(kStride >= sizeof(FreeNode), "a node must hold the free list's link");
  static_assert(kAlign <= alignof(std::max_align_t), "operator new aligns chunks no further");

  static void* Take() {
    ThreadNodes& mine = Mine();
    if (!mine.free) mine.Refill();
    FreeNode* node = mine.free;
    mine.free = node->next;
    return node;
  }

  static void Give(void* pointer) {
    ThreadNodes& mine = Mine();
    FreeNode* node = static_cast<FreeNode*>(pointer);
    node->next = mine.free;
    mine.free = node;
  }

 private:
  static SharedNodes& Shared() {
    // Never destroyed: threads that end after static destruction still give back.
    static SharedNodes* shared = new SharedNodes;
    return *shared;
  }

  struct ThreadNodes {
    FreeNode* free = nullptr;

    void Refill() {
      SharedNodes& shared = Shared();
      std::lock_guard<std::mutex> lock(shared.mutex);
      if (shared.free) {
        free = shared.free;
        shared.free = nullptr;
        return;
      }
      char* chunk = static_cast<char*>(::operator new(kStride * kNodesPerChunk));
      shared.chunks.push_back(chunk);
      for (size_t i = kNodesPerChunk; i-- > 0;) {
        FreeNode* node = reinterpret_cast<FreeNode*>(chunk + i * kStride);
        node->next = free;
        free = node;
      }
    }

    ~ThreadNodes() {
      if (!free) return;
      FreeNode* last = free;
      while (last->next) last = last->next;
      SharedNodes& shared = Shared();
      std::lock_guard<std::mutex> lock(shared.mutex);
      last->next = shared.free;
      shared.free = free;
    }
  };

  static ThreadNodes& Mine() {
    thread_local ThreadNodes nodes;
    return nodes;
  }
};

}  // namespace node_pool_detail

template <class T>
class NodePoolAllocator {
 public:
  using value_type = T;
  using is_always_equal = std::true_type;

  NodePoolAllocator() noexcept = default;
  template <class U>
  NodePoolAllocator(const NodePoolAllocator<U>&) noexcept {}

  T* allocate(size_t count) {
#if GLINT_NODE_POOL
    if (count == 1)
      return static_cast<T*>(node_pool_detail::SizePool<sizeof(T), alignof(T)>::Take());
#endif
    return std::allocator<T>().allocate(count);
  }

  void deallocate(T* pointer, size_t count) noexcept {
#if GLINT_NODE_POOL
    if (count == 1) {
      node_pool_detail::SizePool<sizeof(T), alignof(T)>::Give(pointer);
      return;
    }
#endif
    std::allocator<T>().deallocate(pointer, count);
  }

  template <class U>
  bool operator==(const NodePoolAllocator<U>&) const noexcept {
    return true;
  }
  template <class U>
  bool operator!=(const NodePoolAllocator<U>&) const noexcept {
    return false;
  }
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_IR_NODE_POOL_H
