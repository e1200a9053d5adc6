// What the tests of the range analysis's parts build them from: a compute shader
// compiled into Glint's IR, its analysis context, the range inputs (block positions
// among them) and the canonical values over them (each part's own object is the test's), with
// finders for what those tests ask about.
#ifndef GLINT_GTESTS_RANGE_PARTS_H
#define GLINT_GTESTS_RANGE_PARTS_H

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "SPIRV/analysis/analysis_context.h"
#include "SPIRV/analysis/range/canonical_values.h"

namespace glint::test {

class RangeParts {
 public:
  // `full`: the range analysis's full mode (false: reference mode).
  explicit RangeParts(const std::string& source, bool full = true);
  // A module written by hand (test::AssembleModule), for shapes glslang does not emit.
  explicit RangeParts(spirv::Module module, bool full = true);
  RangeParts(const RangeParts&) = delete;
  RangeParts& operator=(const RangeParts&) = delete;

  spirv::Module& module() { return module_; }
  spirv::AnalysisContext& analyses() { return analyses_; }
  const spirv::DefUse& def_use() { return analyses_.GetDefUse(); }
  const spirv::RangeInputs& inputs() const { return inputs_; }
  spirv::CanonicalValues& canonical() { return canonical_; }
  // The CFG of the module's first function (main, in these tests' shaders).
  const spirv::Cfg& MainCfg() { return canonical_.CfgOf(module_.functions.front()); }

  // Every instruction of `opcode` in the module's functions, in module order.
  std::vector<const spirv::Instruction*> All(spv::Op opcode) const;
  // The two operands of the first instruction of `opcode`; fails the test when none.
  std::pair<uint32_t, uint32_t> OperandsOf(spv::Op opcode) const;
  // The first block of main ending in a conditional branch on a value of opcode
  // `test`, and that branch's target on the `true_edge` or false edge; fail when none.
  const spirv::Block* Branching(spv::Op test);
  const spirv::Block* Target(spv::Op test, bool true_edge);
  std::vector<const spirv::Instruction*> LoadsOf(const std::string& name) const;
  // The value of the integer constant `id`; fails the test when it is none.
  uint64_t ConstantOf(uint32_t id);

 private:
  spirv::Module module_;
  spirv::AnalysisContext analyses_;
  spirv::RangeInputs inputs_;
  spirv::CanonicalValues canonical_;
};

}  // namespace glint::test

#endif  // GLINT_GTESTS_RANGE_PARTS_H
