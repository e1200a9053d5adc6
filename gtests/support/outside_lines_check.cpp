// CompareOutsideLines (see outside_lines_check.h).
#include "support/outside_lines_check.h"

#include <memory>
#include <optional>

#include "SPIRV/analysis/analysis_context.h"
#include "SPIRV/ir/outside_lines.h"
#include "SPIRV/ir/parser.h"

namespace glint::test {
namespace {

// A source that hands out a table made beforehand.
class MadeLines : public spirv::OutsideLinesSource {
 public:
  explicit MadeLines(std::optional<spirv::OutsideLines> table) : table_(std::move(table)) {}

 protected:
  std::optional<spirv::OutsideLines> Make() override { return std::move(table_); }

 private:
  std::optional<spirv::OutsideLines> table_;
};

bool IsLine(const spirv::Instruction& inst) {
  return inst.opcode == spv::OpLine || inst.opcode == spv::OpNoLine;
}

std::string Where(const spirv::SourceLines::Located& at) {
  return at.location.file + ":" + std::to_string(at.location.line) + ":" +
         std::to_string(at.location.column) + (at.inherited ? " (inherited)" : "");
}

}  // namespace

std::string CompareOutsideLines(const std::vector<uint32_t>& plain,
                                const std::vector<uint32_t>& located, size_t* compared) {
  if (compared) *compared = 0;
  std::string why;
  std::optional<spirv::OutsideLines> table = spirv::AlignOutsideLines(plain, located, &why);
  if (!table) return "not aligned: " + why;
  std::string error;
  std::optional<spirv::Module> plain_module = spirv::ParseModule(plain, &error);
  std::optional<spirv::Module> located_module = spirv::ParseModule(located, &error);
  if (!plain_module || !located_module) return "parse: " + error;
  plain_module->outside_lines = std::make_shared<MadeLines>(std::move(table));
  spirv::AnalysisContext plain_analyses(*plain_module);
  spirv::AnalysisContext located_analyses(*located_module);
  spirv::SourceLines& outside = plain_analyses.GetSourceLines();
  spirv::SourceLines& own = located_analyses.GetSourceLines();
  if (plain_module->functions.size() != located_module->functions.size())
    return "different function counts";
  auto located_function = located_module->functions.begin();
  for (spirv::Function& function : plain_module->functions) {
    if (function.blocks.size() != located_function->blocks.size())
      return "different block counts in %" + std::to_string(function.id());
    auto located_block = located_function->blocks.begin();
    for (spirv::Block& block : function.blocks) {
      auto theirs = located_block->instructions.begin();
      size_t position = 0;
      for (spirv::Instruction& inst : block.instructions) {
        while (theirs != located_block->instructions.end() && IsLine(*theirs)) ++theirs;
        if (theirs == located_block->instructions.end() || theirs->opcode != inst.opcode)
          return "instructions differ in block %" + std::to_string(block.id());
        spirv::SourceLines::Located mine = outside.Locate(&inst);
        spirv::SourceLines::Located expected = own.Locate(&*theirs);
        if (Where(mine) != Where(expected))
          return "block %" + std::to_string(block.id()) + ", instruction " +
                 std::to_string(position) + ": outside lines say " + Where(mine) +
                 ", OpLine says " + Where(expected);
        if (compared) ++*compared;
        ++theirs;
        ++position;
      }
      ++located_block;
    }
    ++located_function;
  }
  return "";
}

}  // namespace glint::test
