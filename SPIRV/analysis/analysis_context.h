// The analysis context: one object per module run that owns every analysis of the
// module and builds each one only when a pass first asks for it:
//   def-use            DefUse (ir/def_use.h)
//   built-ins          BuiltInIndex (ir/builtin_index.h); kept and dropped with def-use
//   calls              CallGraph (ir/call_graph.h); kept and dropped with def-use
//   block positions    BlockPositions (ir/block_positions.h): instruction order within
//                      a block, numbered as asked; kept and dropped with def-use
//   parameter arguments  ParameterArguments (analysis/memory/parameter_arguments.h): what
//                      each parameter holds at its call sites; on def-use, calls and
//                      block positions, dropped with def-use
//   CFG                Cfg per function, with dominator and post-dominator trees
//                      (ir/cfg.h)
//   loop shapes        LoopShapes (analysis/facts/loop_shapes.h): for-loops around variables
//                      and natural loops; on def-use and the CFGs, dropped with either
//   source lines       SourceLines (ir/source_lines.h), the one OpLine reader; built
//                      on def-use and the CFGs, dropped with either
//   index sites        IndexSites (analysis/access/index_sites.h): every index operand with
//                      its bound and location; built on def-use and source lines,
//                      dropped with either
//   integer ranges     IntegerRangeAnalysis, one per (mode, subgroup size)
//                      (analysis/range/integer_range_analysis.h); shares the context's
//                      def-use, built-ins, calls, parameter arguments, loop shapes,
//                      block positions, CFGs and value flow
//   convergence        ConvergenceClasses (analysis/convergence/convergence_classes.h)
//   uniformity         the UniformityResult of AnalyzeUniformity, per round budget and
//                      assume-uniform promises
//                      (analysis/uniformity/uniformity.h); shares def-use, calls, convergence,
//                      CFGs, value flow and loop shapes, and asks the full-mode integer
//                      ranges (no promises) for bounds where a loop rule needs them
//   value flow         ValueFlow per function, default options (analysis/memory/value_flow.h);
//                      shares the function's CFG
//
// What it promises: an analysis it hands out describes the module as it was when the
// analysis was built. It does not watch the module; whoever changes the module says
// which analyses survived (Invalidate with the set the change preserved; the pass
// manager does this after every pass from PassResult::preserved) and the rest are
// dropped and rebuilt on the next request. Analyses that depend on another are dropped
// with it (ranges with def-use, the CFGs or value flow; value flow with the CFGs).
// Uniformity results are answers, not structures: they are dropped unless the change
// preserves Analysis::kUniformity, which a pass says only when every result still holds
// for the changed module (robust access: its clamps change no finding).
//
// References it returns stay valid until the next Invalidate that drops that analysis.
// Builds are counted (builds()) so that tests and benches can prove reuse.
#ifndef GLINT_SPIRV_ANALYSIS_ANALYSIS_CONTEXT_H
#define GLINT_SPIRV_ANALYSIS_ANALYSIS_CONTEXT_H

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "SPIRV/analysis/convergence/convergence_classes.h"
#include "SPIRV/analysis/access/index_sites.h"
#include "SPIRV/analysis/range/integer_range_analysis.h"
#include "SPIRV/analysis/facts/loop_shapes.h"
#include "SPIRV/analysis/memory/parameter_arguments.h"
#include "SPIRV/analysis/uniformity/uniformity.h"
#include "SPIRV/analysis/memory/value_flow.h"
#include "SPIRV/ir/block_positions.h"
#include "SPIRV/ir/builtin_index.h"
#include "SPIRV/ir/call_graph.h"
#include "SPIRV/ir/cfg.h"
#include "SPIRV/ir/def_use.h"
#include "SPIRV/ir/module.h"
#include "SPIRV/ir/source_lines.h"

namespace glint::spirv {

// The analyses a context owns, as bits of a PreservedAnalyses set.
enum class Analysis : uint32_t {
  kDefUse = 1u << 0,
  kCfg = 1u << 1,
  kIntegerRanges = 1u << 2,
  kConvergence = 1u << 3,
  kUniformity = 1u << 4,
  kValueFlow = 1u << 5,
};

// Which analyses are still valid after a change to the module.
class PreservedAnalyses {
 public:
  static PreservedAnalyses None() { return PreservedAnalyses(0); }
  static PreservedAnalyses All() { return PreservedAnalyses(~0u); }

  PreservedAnalyses& Preserve(Analysis analysis) {
    bits_ |= static_cast<uint32_t>(analysis);
    return *this;
  }
  bool Preserves(Analysis analysis) const { return bits_ & static_cast<uint32_t>(analysis); }
  bool PreservesAll() const { return bits_ == ~0u; }
  bool operator==(const PreservedAnalyses& other) const { return bits_ == other.bits_; }

 private:
  explicit PreservedAnalyses(uint32_t bits) : bits_(bits) {}
  uint32_t bits_;
};

// How many times each analysis was built in one context.
struct AnalysisBuilds {
  uint32_t def_use = 0;
  uint32_t builtins = 0;
  uint32_t call_graph = 0;
  uint32_t block_positions = 0;
  uint32_t parameter_arguments = 0;
  uint32_t loop_shapes = 0;
  uint32_t cfg = 0;  // one per function CFG
  uint32_t source_lines = 0;
  uint32_t index_sites = 0;
  uint32_t integer_ranges = 0;
  uint32_t convergence = 0;
  uint32_t uniformity = 0;
  uint32_t coarse_uniformity_proofs = 0;  // tried (uniformity_coarse_proof.h)
  uint32_t value_flow = 0;  // one per function
  uint32_t value_flow_module_index = 0;  // one for every function's value flow
};

class AnalysisContext {
 public:
  explicit AnalysisContext(Module& module);
  ~AnalysisContext();
  AnalysisContext(const AnalysisContext&) = delete;
  AnalysisContext& operator=(const AnalysisContext&) = delete;

  Module& module() const { return module_; }

  const DefUse& GetDefUse();
  const BuiltInIndex& GetBuiltIns();
  const CallGraph& GetCallGraph();
  // Memoized per block as asked (hence not const).
  BlockPositions& GetBlockPositions();
  // Memoized per parameter as asked (hence not const).
  ParameterArguments& GetParameterArguments();
  // Memoized per variable and function as asked (hence not const).
  LoopShapes& GetLoopShapes();
  // The CFG of `function`, a function of this context's module.
  const Cfg& GetCfg(Function& function);
  // Locations of instructions (memoized as asked, hence not const).
  SourceLines& GetSourceLines();
  // Every index operand of the module (sites hold iterators: valid until it changes).
  const IndexSites& GetIndexSites();
  IntegerRangeAnalysis& GetIntegerRanges(const IntegerRangeOptions& options);
  // What the range analysis and its sub-analyses (canonical values, local definitions)
  // read, lent from this context (valid while it is).
  RangeInputs GetRangeInputs();
  const ConvergenceClasses& GetConvergenceClasses();
  const UniformityResult& GetUniformity(const UniformityOptions& options = {});
  // What the uniformity analysis reads, lent from this context (valid while it is).
  UniformityInputs GetUniformityInputs();
  // The value flow of `function`'s Function variables.
  const ValueFlow& GetValueFlow(Function& function);

  // Drops every analysis `preserved` does not keep, and those built on a dropped one.
  void Invalidate(const PreservedAnalyses& preserved);

  const AnalysisBuilds& builds() const { return builds_; }

 private:
  Module& module_;
  AnalysisBuilds builds_;
  std::unique_ptr<DefUse> def_use_;
  std::unique_ptr<BuiltInIndex> builtins_;
  std::unique_ptr<CallGraph> call_graph_;
  std::unique_ptr<BlockPositions> block_positions_;
  std::unique_ptr<ParameterArguments> parameter_arguments_;
  std::unique_ptr<LoopShapes> loop_shapes_;
  std::unordered_map<const Function*, std::unique_ptr<Cfg>> cfgs_;
  std::unique_ptr<SourceLines> source_lines_;
  std::unique_ptr<IndexSites> index_sites_;
  std::map<decltype(IntegerRangeOptions().Key()), std::unique_ptr<IntegerRangeAnalysis>> ranges_;
  std::unique_ptr<ConvergenceClasses> convergence_;
  // By round budget, every_fact, rerun_every_block and promises.
  std::map<std::tuple<uint32_t, bool, bool, std::vector<std::string>>,
           std::unique_ptr<UniformityResult>>
      uniformity_;
  std::unordered_map<const Function*, std::unique_ptr<ValueFlow>> value_flows_;
  // What every function's value flow reads of the module (its integer constants and
  // non-semantic sets), indexed once for all of them: indexed per view, a module of n
  // functions was read n times (quadratic in the number of helpers).
  std::optional<ValueFlowModuleIndex> value_flow_module_index_;
};

// The uniformity analysis on a module alone, through a context of its own (for tools
// and tests): as AnalysisContext::GetUniformity, and the levels of one entry point
// (uniformity.h).
UniformityResult AnalyzeUniformity(Module& module, const UniformityOptions& options = {});
UniformityLevels AnalyzeUniformityLevels(Module& module, const std::string& entry_point,
                                         const UniformityOptions& options = {});

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_ANALYSIS_CONTEXT_H
