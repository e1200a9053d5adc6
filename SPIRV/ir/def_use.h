// Def-use index over a Module: for every id its defining instruction (and the block and
// function it sits in), and every use as (instruction, operand word). Built in one walk;
// it does not follow edits: it goes stale when a pass changes the module. Passes get it
// from the analysis context (analysis/analysis_context.h), which the pass manager
// invalidates after a pass that did not preserve it.
#ifndef GLINT_SPIRV_IR_DEF_USE_H
#define GLINT_SPIRV_IR_DEF_USE_H

#include <unordered_map>
#include <vector>

#include "module.h"

namespace glint::spirv {

struct Use {
  Instruction* user;
  uint32_t word;  // index into user->words; kTypeWord when the use is the result type
  static constexpr uint32_t kTypeWord = 0xffffffffu;
};

class DefUse {
 public:
  explicit DefUse(Module& module);

  Instruction* Definition(uint32_t id) const;
  const std::vector<Use>& Uses(uint32_t id) const;
  // Block and function containing `inst` (null for module-scope instructions).
  Block* BlockOf(const Instruction* inst) const;
  Function* FunctionOf(const Instruction* inst) const;
  // The type instruction of a value id (null when unknown or untyped).
  Instruction* TypeOf(uint32_t id) const;
  // For a 32-bit OpConstant of integer type: its value; false otherwise.
  bool IntConstant(uint32_t id, uint64_t* value, bool* is_signed = nullptr,
                   uint32_t* width = nullptr) const;

  Module& module() const { return module_; }

 private:
  void Index(Instruction& inst, Block* block, Function* function);

  Module& module_;
  std::unordered_map<uint32_t, Instruction*> definitions_;
  std::unordered_map<uint32_t, std::vector<Use>> uses_;
  std::unordered_map<const Instruction*, Block*> blocks_;
  std::unordered_map<const Instruction*, Function*> functions_;
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_IR_DEF_USE_H
