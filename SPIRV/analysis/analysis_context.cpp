// The analysis context (see analysis_context.h).
#include "SPIRV/analysis/analysis_context.h"
#include "SPIRV/analysis/uniformity/uniformity_screen.h"
#include "SPIRV/analysis/uniformity/uniformity_coarse_proof.h"

namespace glint::spirv {

AnalysisContext::AnalysisContext(Module& module) : module_(module) {}

AnalysisContext::~AnalysisContext() = default;

const DefUse& AnalysisContext::GetDefUse() {
  if (!def_use_) {
    def_use_ = std::make_unique<DefUse>(module_);
    ++builds_.def_use;
  }
  return *def_use_;
}

const BuiltInIndex& AnalysisContext::GetBuiltIns() {
  if (!builtins_) {
    builtins_ = std::make_unique<BuiltInIndex>(module_);
    ++builds_.builtins;
  }
  return *builtins_;
}

const CallGraph& AnalysisContext::GetCallGraph() {
  if (!call_graph_) {
    call_graph_ = std::make_unique<CallGraph>(module_);
    ++builds_.call_graph;
  }
  return *call_graph_;
}

BlockPositions& AnalysisContext::GetBlockPositions() {
  if (!block_positions_) {
    block_positions_ = std::make_unique<BlockPositions>(GetDefUse());
    ++builds_.block_positions;
  }
  return *block_positions_;
}

ParameterArguments& AnalysisContext::GetParameterArguments() {
  if (!parameter_arguments_) {
    parameter_arguments_ =
        std::make_unique<ParameterArguments>(GetDefUse(), GetCallGraph(), GetBlockPositions());
    ++builds_.parameter_arguments;
  }
  return *parameter_arguments_;
}

LoopShapes& AnalysisContext::GetLoopShapes() {
  if (!loop_shapes_) {
    loop_shapes_ = std::make_unique<LoopShapes>(
        GetDefUse(), [this](Function& function) -> const Cfg& { return GetCfg(function); });
    ++builds_.loop_shapes;
  }
  return *loop_shapes_;
}

const Cfg& AnalysisContext::GetCfg(Function& function) {
  std::unique_ptr<Cfg>& cfg = cfgs_[&function];
  if (!cfg) {
    cfg = std::make_unique<Cfg>(function);
    ++builds_.cfg;
  }
  return *cfg;
}

SourceLines& AnalysisContext::GetSourceLines() {
  if (!source_lines_) {
    source_lines_ = std::make_unique<SourceLines>(
        GetDefUse(), [this](Function& function) -> const Cfg& { return GetCfg(function); },
        module_.outside_lines.get());
    ++builds_.source_lines;
  }
  return *source_lines_;
}

const IndexSites& AnalysisContext::GetIndexSites() {
  if (!index_sites_) {
    index_sites_ = std::make_unique<IndexSites>(module_, GetDefUse(), GetSourceLines());
    ++builds_.index_sites;
  }
  return *index_sites_;
}

RangeInputs AnalysisContext::GetRangeInputs() {
  return RangeInputs{
      GetDefUse(),
      GetBuiltIns(),
      GetCallGraph(),
      GetParameterArguments(),
      GetLoopShapes(),
      GetBlockPositions(),
      [this](Function& function) -> const Cfg& { return GetCfg(function); },
      [this](Function& function) -> const ValueFlow& { return GetValueFlow(function); }};
}

IntegerRangeAnalysis& AnalysisContext::GetIntegerRanges(const IntegerRangeOptions& options) {
  std::unique_ptr<IntegerRangeAnalysis>& ranges = ranges_[options.Key()];
  if (!ranges) {
    ranges = std::make_unique<IntegerRangeAnalysis>(module_, GetRangeInputs(), options);
    ++builds_.integer_ranges;
  }
  return *ranges;
}

const ConvergenceClasses& AnalysisContext::GetConvergenceClasses() {
  if (!convergence_) {
    convergence_ = std::make_unique<ConvergenceClasses>(module_);
    ++builds_.convergence;
  }
  return *convergence_;
}

const UniformityResult& AnalysisContext::GetUniformity(const UniformityOptions& options) {
  std::unique_ptr<UniformityResult>& result = uniformity_[{
      options.round_budget, options.every_fact, options.rerun_every_block, options.assume_uniform}];
  if (!result) {
    // A module none of whose functions holds a uniform-control instruction (derivatives,
    // implicit-LOD samples, barriers, group operations: convergence_classes.h) has
    // nothing the check could report: the solver and its inputs are not built. Every
    // vertex shader, most compute shaders without barriers. An unclassified instruction
    // still goes to the analysis, which refuses by name.
    const ConvergenceClasses& classes = GetConvergenceClasses();
    bool needs_uniform_control = !classes.ok();
    for (const Function& function : module_.functions)
      needs_uniform_control =
          needs_uniform_control || (classes.OfFunction(function.id()) & kUniformControl) != 0;
    // Nor does one whose uniform-control instructions all run where no branch decides
    // whether they run (uniformity_screen.h): most fragment shaders' samples in `main`.
    // Every fact asked for (tests, the corpus suite's comparison) still runs the analysis.
    CfgLookup cfgs = [this](Function& function) -> const Cfg& { return GetCfg(function); };
    if (needs_uniform_control && !options.every_fact &&
        NeedsOnlyUnconditionalControl(module_, classes, cfgs))
      needs_uniform_control = false;
    // Nor does one where a coarse fixed point (one bit per id, no causes) finds every
    // such instruction in uniform control (uniformity_coarse_proof.h): engines' compute
    // kernels with barriers in loops bounded by push and specialization constants.
    if (needs_uniform_control && !options.every_fact && classes.ok()) {
      CoarseProofResult proof = ProveNothingToReport(
          {module_, classes, GetCallGraph(), GetBuiltIns(), cfgs, options.round_budget});
      ++builds_.coarse_uniformity_proofs;
      if (proof.proven) needs_uniform_control = false;
    }
    result = std::make_unique<UniformityResult>(
        needs_uniform_control ? AnalyzeUniformity(module_, GetUniformityInputs(), options)
                              : UniformityResult{});
    ++builds_.uniformity;
  }
  return *result;
}

UniformityInputs AnalysisContext::GetUniformityInputs() {
  return UniformityInputs{
      GetDefUse(),
      GetBuiltIns(),
      GetCallGraph(),
      GetConvergenceClasses(),
      GetSourceLines(),
      [this](Function& function) -> const Cfg& { return GetCfg(function); },
      [this](Function& function) -> const ValueFlow& { return GetValueFlow(function); },
      [this](Function& function) -> const ValueFlow* {
        auto built = value_flows_.find(&function);
        return built == value_flows_.end() ? nullptr : built->second.get();
      },
      [this]() -> LoopShapes& { return GetLoopShapes(); },
      // Full mode with no promises: what holds for every dispatch and subgroup size.
      [this](uint32_t value, const Instruction& reader) -> std::optional<ValueBounds> {
        IntegerRange range = GetIntegerRanges(IntegerRangeOptions{}).RangeAt(value, reader);
        if (!range.valid) return std::nullopt;
        return ValueBounds{range.min, range.max};
      }};
}

const ValueFlow& AnalysisContext::GetValueFlow(Function& function) {
  std::unique_ptr<ValueFlow>& flow = value_flows_[&function];
  if (!flow) {
    if (!value_flow_module_index_) {
      value_flow_module_index_.emplace(module_);
      ++builds_.value_flow_module_index;
    }
    ValueFlowOptions options;
    options.module_index = &*value_flow_module_index_;
    flow = std::make_unique<ValueFlow>(module_, function, GetCfg(function), options);
    ++builds_.value_flow;
  }
  return *flow;
}

void AnalysisContext::Invalidate(const PreservedAnalyses& preserved) {
  if (preserved.PreservesAll()) return;
  // A change anywhere may add constants: the next view indexes the module again (the
  // views built so far read their index only while they were built).
  value_flow_module_index_.reset();
  bool def_use = preserved.Preserves(Analysis::kDefUse);
  bool cfg = preserved.Preserves(Analysis::kCfg);
  bool convergence = preserved.Preserves(Analysis::kConvergence);
  // Dependents first: they hold references into what they were built on.
  bool value_flow = preserved.Preserves(Analysis::kValueFlow) && cfg;
  // Uniformity results hold nothing built on another analysis (their instructions are
  // the module's): they stay when the change says they still hold.
  if (!preserved.Preserves(Analysis::kUniformity)) uniformity_.clear();
  if (!preserved.Preserves(Analysis::kIntegerRanges) || !def_use || !cfg || !value_flow)
    ranges_.clear();
  if (!value_flow) value_flows_.clear();
  if (!cfg || !def_use) {
    index_sites_.reset();
    source_lines_.reset();
    loop_shapes_.reset();
  }
  if (!convergence) convergence_.reset();
  if (!cfg) cfgs_.clear();
  if (!def_use) {
    parameter_arguments_.reset();
    block_positions_.reset();
    def_use_.reset();
    builtins_.reset();
    call_graph_.reset();
  }
}

UniformityResult AnalyzeUniformity(Module& module, const UniformityOptions& options) {
  AnalysisContext analyses(module);
  return analyses.GetUniformity(options);
}

UniformityLevels AnalyzeUniformityLevels(Module& module, const std::string& entry_point,
                                         const UniformityOptions& options) {
  AnalysisContext analyses(module);
  return AnalyzeUniformityLevels(module, analyses.GetUniformityInputs(), entry_point, options);
}

}  // namespace glint::spirv
