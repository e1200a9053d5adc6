// One-block helpers: the result of a call of a small helper (one block that returns a
// value, no variables, stores, calls or sources) from this call's own argument levels
// and the caller's memory at the call, evaluated directly without a fixed point, instead
// of the join over every call site's (parameters are context-insensitive in the
// solver's fixed point). The first of uniformity_call_sites.cpp's two rules for a
// call's result; a part of the uniformity solver that reads only what the solver has
// proven so far (its levels, its memory facts) and the barrier phases.
#ifndef GLINT_SPIRV_ANALYSIS_UNIFORMITY_ONE_BLOCK_HELPERS_H
#define GLINT_SPIRV_ANALYSIS_UNIFORMITY_ONE_BLOCK_HELPERS_H

#include <optional>

#include "SPIRV/analysis/uniformity/uniformity_internal.h"

namespace glint::spirv {
namespace uniformity_detail {

// The result of `call` of `callee` from `block`, evaluated from `solver`'s levels at the
// call; nullopt for a callee that is not such a helper, or that loads through a pointer
// computed inside it or from Workgroup memory (`phases`: the entry point's barrier
// phases, null outside stages with workgroups), which only a call context can judge.
std::optional<Fact> OneBlockHelperResult(const UniformitySolver& solver,
                                         const BarrierPhases* phases, const Function& callee,
                                         const Block& block, const Instruction& call);

}  // namespace uniformity_detail
}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_UNIFORMITY_ONE_BLOCK_HELPERS_H
