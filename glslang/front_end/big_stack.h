// Running glslang on a thread with a big stack.
//
// glslang's parser, its AST traversals and GlslangToSpv recurse once per nesting level
// of the source: 100,000 chained additions, a long swizzle chain or deeply nested HLSL
// overflow an ordinary 8 MB stack (SIGSEGV). RunOnBigStack runs a task on a worker
// thread whose stack is kBigStackBytes, reserved but not committed (the kernel maps
// pages only as the recursion touches them), so such inputs end in a result or in
// glslang's own error instead.
//
// One worker per calling thread, started on first use and reused by every later call
// from that thread (so compiles on different threads still run in parallel), joined
// when the calling thread exits. The hand-off costs a mutex and two condition-variable
// wake-ups per call (measured in bench/isolation_bench.cpp, see docs/EMBEDDING.md).
//
// glslang's pool allocator is per thread: each task runs with a fresh pool installed
// as the worker thread's current one (restored afterwards), so TShader / TProgram may
// be created, used and destroyed inside the task as on any thread. Objects that keep
// pool memory must not outlive the task.
//
// A call made from inside a task runs inline (already on the big stack). Exceptions
// thrown by the task are rethrown in the caller. When the worker cannot be started
// (no memory for its stack) the task runs inline on the caller's stack.
#ifndef GLINT_GLSLANG_FRONT_END_BIG_STACK_H
#define GLINT_GLSLANG_FRONT_END_BIG_STACK_H

#include <cstddef>
#include <functional>

namespace glint {

constexpr size_t kBigStackBytes = size_t{256} << 20;

void RunOnBigStack(const std::function<void()>& task);

// Runs `task` on this thread with a fresh pool installed as its glslang pool (as
// RunOnBigStack gives every task it starts; a call nested in a task gets none): for a
// task that runs several compiles one after the other and wants each to start afresh.
void RunWithFreshPool(const std::function<void()>& task);

// RunOnBigStack for a task with a result.
template <typename Task>
auto OnBigStack(Task task) -> decltype(task()) {
  decltype(task()) result{};
  RunOnBigStack([&] { result = task(); });
  return result;
}

}  // namespace glint

#endif  // GLINT_GLSLANG_FRONT_END_BIG_STACK_H
