// GLSL helpers that broadcast through shared memory, shared by the test that proves
// their results uniform (uniformity_levels_test) and the one that runs them on lavapipe
// (uniformity_execution_test), so both judge the same text. They need
// `shared uint tmp[N];` (N >= 1) and `shared uint anyFlag;` declared before them.
#ifndef GLINT_GTESTS_BROADCAST_HELPERS_H
#define GLINT_GTESTS_BROADCAST_HELPERS_H

namespace glint::test {

// One invocation's value (the one whose local index is `idx`) read back by all.
inline constexpr const char* kBroadcastHelper = R"(uint broadcast(uint v, uint idx) {
  if (gl_LocalInvocationIndex == idx) tmp[0] = v;
  barrier();
  v = tmp[0];
  barrier();
  return v;
}
)";

// Whether any invocation's `c` holds: an OR through an atomic, read after a barrier.
inline constexpr const char* kAnyInvocationHelper = R"(bool anyInvocation(bool c) {
  if (gl_LocalInvocationIndex == 0u) anyFlag = 0u;
  barrier();
  if (c) atomicOr(anyFlag, 1u);
  barrier();
  bool r = anyFlag != 0u;
  barrier();
  return r;
}
)";

}  // namespace glint::test

#endif  // GLINT_GTESTS_BROADCAST_HELPERS_H
