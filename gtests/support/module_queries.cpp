// The module queries the analysis tests share (module_queries.h).
#include "support/module_queries.h"

#include <gtest/gtest.h>

#include <optional>

#include "SPIRV/ir/parser.h"
#include "support/test_support.h"

namespace glint::test {

spirv::Module CompileModule(const std::string& source, const std::string& stage,
                            const std::string& env) {
  std::string error;
  std::optional<spirv::Module> module = spirv::ParseModule(CompileGlsl(source, stage, env), &error);
  EXPECT_TRUE(module) << error;
  return module ? std::move(*module) : spirv::Module();
}

uint32_t VariableNamed(const spirv::Module& module, const std::string& name) {
  for (const spirv::Instruction& inst : module.types_values)
    if (inst.opcode == spv::OpVariable && module.NameOf(inst.result_id) == name)
      return inst.result_id;
  for (const spirv::Function& function : module.functions)
    if (!function.blocks.empty())
      for (const spirv::Instruction& inst : function.blocks.front().instructions)
        if (inst.opcode == spv::OpVariable && module.NameOf(inst.result_id) == name)
          return inst.result_id;
  ADD_FAILURE() << "no variable named " << name;
  return 0;
}

uint32_t FirstLoadOf(const spirv::Module& module, const std::string& name) {
  const uint32_t variable = VariableNamed(module, name);
  for (const spirv::Function& function : module.functions)
    for (const spirv::Block& block : function.blocks)
      for (const spirv::Instruction& inst : block.instructions)
        if (inst.opcode == spv::OpLoad && !inst.words.empty() && inst.words[0] == variable)
          return inst.result_id;
  ADD_FAILURE() << "no load of " << name;
  return 0;
}

std::vector<const spirv::Instruction*> LoadsOf(const spirv::Module& module,
                                               const std::string& name) {
  const uint32_t variable = VariableNamed(module, name);
  std::vector<const spirv::Instruction*> loads;
  for (const spirv::Function& function : module.functions)
    for (const spirv::Block& block : function.blocks)
      for (const spirv::Instruction& inst : block.instructions)
        if (inst.opcode == spv::OpLoad && !inst.words.empty() && inst.words[0] == variable)
          loads.push_back(&inst);
  return loads;
}

}  // namespace glint::test
