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
// How (node_pool.cpp): nodes of one size class come from a free list of the calling
// thread, refilled from chunks of nodes taken with operator new. A node freed goes to the
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
#include <memory>
#include <type_traits>

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

// Nodes up to this size (in bytes, a multiple of kNodeGranule) come from the pool.
constexpr size_t kNodeGranule = 16;
constexpr size_t kLargestPooledNode = 512;

// A node of `size` bytes (at most kLargestPooledNode, aligned as operator new aligns).
void* TakeNode(size_t size);
// Gives back a node TakeNode(size) returned, on any thread.
void GiveNode(void* node, size_t size) noexcept;

}  // namespace node_pool_detail

template <class T>
class NodePoolAllocator {
 public:
  using value_type = T;
  using is_always_equal = std::true_type;
  static constexpr bool kPooled = GLINT_NODE_POOL &&
                                  sizeof(T) <= node_pool_detail::kLargestPooledNode &&
                                  alignof(T) <= alignof(std::max_align_t);

  NodePoolAllocator() noexcept = default;
  template <class U>
  NodePoolAllocator(const NodePoolAllocator<U>&) noexcept {}

  T* allocate(size_t count) {
    if (kPooled && count == 1) return static_cast<T*>(node_pool_detail::TakeNode(sizeof(T)));
    return std::allocator<T>().allocate(count);
  }

  void deallocate(T* pointer, size_t count) noexcept {
    if (kPooled && count == 1) return node_pool_detail::GiveNode(pointer, sizeof(T));
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
