// CompareRerunEveryBlock (uniformity_rerun_check.h).
#include "support/uniformity_rerun_check.h"

#include <memory>

#include "SPIRV/analysis/analysis_context.h"
#include "SPIRV/analysis/uniformity/uniformity_internal.h"

namespace glint::test {
namespace {

using spirv::uniformity_detail::Cause;
using spirv::uniformity_detail::Fact;
using spirv::uniformity_detail::UniformitySolver;

std::string Describe(const Fact* fact) {
  if (!fact) return "none";
  return "level " + std::to_string(static_cast<int>(fact->level)) + " cause " +
         std::to_string(static_cast<int>(fact->cause.kind)) + "/" + std::to_string(fact->cause.id) +
         "/" + std::to_string(fact->cause.block ? fact->cause.block->id() : 0) + "/" +
         std::to_string(fact->cause.at ? fact->cause.at->result_id : 0) + "@" +
         std::to_string(reinterpret_cast<uintptr_t>(fact->cause.at));
}

bool Same(const Fact* a, const Fact* b) {
  // An absent fact and one that stayed uniform without a cause read the same.
  Fact none;
  const Fact& x = a ? *a : none;
  const Fact& y = b ? *b : none;
  if (x.level == spirv::Divergence::kUniform && y.level == spirv::Divergence::kUniform) return true;
  return x.level == y.level && x.cause.kind == y.cause.kind && x.cause.id == y.cause.id &&
         x.cause.block == y.cause.block && x.cause.at == y.cause.at;
}

// Every fact of two solvers of the same entry point; the first difference or "".
std::string CompareFacts(const spirv::Module& module, const UniformitySolver& tracked,
                         const UniformitySolver& every, uint64_t* compared) {
  auto compare = [&](const char* what, uint32_t id, const Fact* a, const Fact* b) {
    ++*compared;
    if (Same(a, b)) return std::string();
    return std::string(what) + " %" + std::to_string(id) + ": " + Describe(a) + " against " +
           Describe(b);
  };
  std::string difference;
  for (uint32_t id = 1; id < module.header.bound && difference.empty(); ++id)
    difference = compare("value", id, tracked.proven().ValueFact(id), every.proven().ValueFact(id));
  for (const spirv::Function* function : every.functions()) {
    if (!difference.empty()) break;
    const uint32_t f = function->id();
    difference =
        compare("return of", f, tracked.proven().ReturnFact(f), every.proven().ReturnFact(f));
    if (difference.empty())
      difference = compare("kill of", f, tracked.proven().KillFact(f), every.proven().KillFact(f));
    for (const spirv::Instruction& parameter : function->parameters) {
      if (!difference.empty()) break;
      Fact a = tracked.MemoryFact(parameter.result_id);
      Fact b = every.MemoryFact(parameter.result_id);
      difference = compare("memory of parameter", parameter.result_id, &a, &b);
    }
    for (const spirv::Block& block : function->blocks) {
      if (!difference.empty()) break;
      difference = compare("control of block", block.id(), tracked.proven().BlockFact(&block),
                           every.proven().BlockFact(&block));
      if (difference.empty())
        difference =
            compare("local control of block", block.id(), tracked.proven().LocalBlockFact(&block),
                    every.proven().LocalBlockFact(&block));
      for (const spirv::Instruction& inst : block.instructions) {
        if (!difference.empty()) break;
        if (inst.opcode == spv::OpLoad)
          difference =
              compare("followed load", inst.result_id, tracked.proven().LocalLoadFact(&inst),
                      every.proven().LocalLoadFact(&inst));
        if (difference.empty() && inst.opcode == spv::OpVariable) {
          Fact a = tracked.MemoryFact(inst.result_id);
          Fact b = every.MemoryFact(inst.result_id);
          difference = compare("memory of", inst.result_id, &a, &b);
        }
      }
    }
  }
  for (const spirv::Instruction& inst : module.types_values) {
    if (!difference.empty()) break;
    if (inst.opcode != spv::OpVariable) continue;
    Fact a = tracked.MemoryFact(inst.result_id);
    Fact b = every.MemoryFact(inst.result_id);
    difference = compare("memory of", inst.result_id, &a, &b);
  }
  return difference;
}

// One solver's outcome, with its lane analysis first where the entry point wants one
// (as the analysis runs them).
struct Solved {
  std::unique_ptr<UniformitySolver> lanes;
  std::unique_ptr<UniformitySolver> solver;
  std::string lanes_refusal, refusal;
  uint32_t lanes_rounds = 0, rounds = 0;
};

Solved SolveEntryPoint(spirv::uniformity_detail::ModuleFacts& facts,
                       const spirv::Instruction& entry_point,
                       const spirv::UniformityOptions& options) {
  Solved solved;
  solved.solver = std::make_unique<UniformitySolver>(facts, entry_point, options);
  if (spirv::uniformity_detail::WantsLaneAnalysis(solved.solver->model(),
                                                  solved.solver->functions())) {
    solved.lanes = std::make_unique<UniformitySolver>(facts, entry_point, options,
                                                      UniformitySolver::Partition::kLanes);
    solved.lanes_refusal = solved.lanes->Run(&solved.lanes_rounds);
    if (solved.lanes_refusal.empty()) solved.solver->UseLanes(solved.lanes.get());
  }
  solved.refusal = solved.solver->Run(&solved.rounds);
  return solved;
}

std::string CompareSolvers(const spirv::Module& module, const char* which,
                           const UniformitySolver& tracked, const std::string& tracked_refusal,
                           uint32_t tracked_rounds, const UniformitySolver& every,
                           const std::string& every_refusal, uint32_t every_rounds,
                           RerunComparison* out) {
  std::string prefix = std::string(which) + ": ";
  out->passes_tracked += tracked.block_passes();
  out->passes_every += every.block_passes();
  if (tracked_refusal != every_refusal)
    return prefix + "refusal \"" + tracked_refusal + "\" against \"" + every_refusal + "\"";
  if (tracked_rounds != every_rounds)
    return prefix + "rounds " + std::to_string(tracked_rounds) + " against " +
           std::to_string(every_rounds);
  if (tracked.contexts().runs() != every.contexts().runs())
    return prefix + "call-context runs " + std::to_string(tracked.contexts().runs()) + " against " +
           std::to_string(every.contexts().runs());
  if (tracked.contexts().most_rounds() != every.contexts().most_rounds())
    return prefix + "call-context rounds " + std::to_string(tracked.contexts().most_rounds()) +
           " against " + std::to_string(every.contexts().most_rounds());
  std::string difference = CompareFacts(module, tracked, every, &out->facts_compared);
  return difference.empty() ? "" : prefix + difference;
}

}  // namespace

RerunComparison CompareRerunEveryBlock(spirv::Module& module) {
  RerunComparison out;
  spirv::AnalysisContext analyses(module);
  const spirv::UniformityInputs& inputs = analyses.GetUniformityInputs();
  for (bool findings_only : {true, false}) {
    std::unique_ptr<spirv::uniformity_detail::ModuleFacts> facts =
        spirv::uniformity_detail::CollectModuleFacts(module, inputs, findings_only);
    if (!facts->classes.ok()) return out;  // refused before anything is solved
    spirv::UniformityOptions tracked_options;
    spirv::UniformityOptions every_options;
    every_options.rerun_every_block = true;
    for (const spirv::Instruction& entry_point : module.entry_points) {
      Solved tracked = SolveEntryPoint(*facts, entry_point, tracked_options);
      Solved every = SolveEntryPoint(*facts, entry_point, every_options);
      std::string where = std::string(findings_only ? "relevant facts" : "every fact") +
                          ", entry point " + tracked.solver->entry_name();
      if ((tracked.lanes != nullptr) != (every.lanes != nullptr)) {
        out.difference = where + ": lane analysis run in one only";
        return out;
      }
      if (tracked.lanes)
        out.difference = CompareSolvers(module, (where + ", lanes").c_str(), *tracked.lanes,
                                        tracked.lanes_refusal, tracked.lanes_rounds, *every.lanes,
                                        every.lanes_refusal, every.lanes_rounds, &out);
      if (out.difference.empty())
        out.difference =
            CompareSolvers(module, where.c_str(), *tracked.solver, tracked.refusal, tracked.rounds,
                           *every.solver, every.refusal, every.rounds, &out);
      if (!out.difference.empty()) return out;
    }
  }
  return out;
}

}  // namespace glint::test
