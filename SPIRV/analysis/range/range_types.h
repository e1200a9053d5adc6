// The integer range analysis's shared types: a range (IntegerRange), the options an
// analysis is built with, and what it reads besides the module (RangeInputs). In a
// header of their own so that the parts the analysis asks (canonical values, the memo,
// local definitions, guard facts) name them without including the analysis they serve.
#ifndef GLINT_SPIRV_ANALYSIS_RANGE_TYPES_H
#define GLINT_SPIRV_ANALYSIS_RANGE_TYPES_H

#include <array>
#include <cstdint>
#include <string>
#include <tuple>

#include "SPIRV/analysis/facts/loop_shapes.h"
#include "SPIRV/analysis/memory/parameter_arguments.h"
#include "SPIRV/analysis/memory/value_flow.h"
#include "SPIRV/analysis/range/range_analysis_mode.h"
#include "SPIRV/analysis/range/range_reason.h"
#include "SPIRV/ir/block_positions.h"
#include "SPIRV/ir/builtin_index.h"
#include "SPIRV/ir/call_graph.h"
#include "SPIRV/ir/cfg.h"
#include "SPIRV/ir/def_use.h"
#include "SPIRV/ir/module.h"

namespace glint::spirv {

// A range of a scalar 32-bit integer value, in the value's own signedness: for u32
// min/max lie in [0, 4294967295], for i32 in [-2147483648, 2147483647].
struct IntegerRange {
  bool valid = false;
  bool is_signed = false;
  int64_t min = 0;
  int64_t max = 0;
  RangeReason reason;  // why there is no range (first reason); empty when valid
  // RangeAt only: the conditional branch whose test narrowed this range (the nearest
  // one, when several did); null when the range holds without any guard.
  const Instruction* guard = nullptr;

  static IntegerRange None(std::string why);
  static IntegerRange Of(bool is_signed, int64_t min, int64_t max);

  bool IsSingleValue() const { return valid && min == max; }
  // True when the range proves 0 <= value <= limit (an index into `limit + 1` elements).
  bool ProvesWithin(int64_t limit) const { return valid && min >= 0 && max <= limit; }
};

struct IntegerRangeOptions {
  RangeAnalysisMode mode = RangeAnalysisMode::kFull;
  uint32_t subgroup_size = 0;  // 0: unknown
  // The promised largest dispatch (Options::max_workgroups); {0, 0, 0}: unknown.
  std::array<uint32_t, 3> max_workgroups{};

  // Analyses built with equal keys give equal ranges (the analysis context's cache).
  auto Key() const { return std::make_tuple(mode, subgroup_size, max_workgroups); }
};

// What the range analysis reads besides the module: def-use, the built-in decorations,
// the calls and what parameters hold, loop shapes, and each function's CFG and value
// flow (built on those CFGs).
struct RangeInputs {
  const DefUse& def_use;
  const BuiltInIndex& builtins;
  const CallGraph& calls;
  ParameterArguments& arguments;
  LoopShapes& loops;
  BlockPositions& positions;
  CfgLookup cfgs;
  ValueFlowLookup value_flows;
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_RANGE_TYPES_H
