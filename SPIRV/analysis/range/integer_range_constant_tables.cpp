// Constant tables (full mode): a load from a variable that nothing writes and whose
// initializer is a constant, at any index: `const int kFace[6] = ...; a[kFace[i]]`
// (Glint's constant-table pass gives such arrays a Private variable with the constant
// as its initializer), lookup tables of offsets, the index lists of quads and cubes.
//
// What it proves: let V be a Private or Function variable with an initializer C whose
// every use in code is the pointer of an OpLoad or the base of an OpAccessChain /
// OpInBoundsAccessChain whose own uses are the same, recursively (so no store, copy,
// atomic or call can change it, and no pointer to it escapes). Then V holds C for as
// long as the invocation runs, and a load through a chain with indices i1..ik reads the
// part of C that those indices select. A constant index selects one constituent; any
// other index may select any of them (an index past the end is clamped by robust
// access, or undefined behaviour without it: either way no other value is read in a
// program that runs). So the loaded scalar lies in the hull of the ranges of the
// constituents the indices may select (OpConstantNull: 0; each scalar's own range, so a
// specialization constant counts as the application may set it).
//
// Refuses, naming why: a constituent that is OpUndef or not a constant, a part without
// a range, a constant index past the end, more than kMaxTableScalars scalars to visit
// (a budget that names itself). A variable without an initializer, or one that some
// use may write (a store, a copy, an atomic, a call, a pointer that escapes), is not a
// table: it keeps the reasons of its storage class or of value flow
// (integer_range_locals.cpp).
#include "SPIRV/analysis/range/integer_range_constant_tables.h"

#include "SPIRV/analysis/range/integer_range_evaluator.h"

#include "SPIRV/ir/grammar.h"
#include "SPIRV/ir/instruction_views.h"

namespace glint::spirv {

using namespace range_detail;

// The first use in code of `pointer` (or of a chain derived from it) that is not a
// load or an access chain's base; null when there is none.
const Instruction* ConstantTables::TableWriter(uint32_t pointer, int depth) const {
  for (const Use& use : inputs_.def_use.Uses(pointer)) {
    const Instruction& user = *use.user;
    if (!inputs_.def_use.BlockOf(&user)) continue;  // names, decorations, interfaces
    if (user.opcode == spv::OpLoad && use.word == 0) continue;
    if (IsChain(user) && use.word == 0 && depth < 8) {
      if (const Instruction* writer = TableWriter(user.result_id, depth + 1)) return writer;
      continue;
    }
    return &user;
  }
  return nullptr;
}

// The variable at the root of `pointer` (through access chains) when it is a constant
// table, with the chains' indices from the variable outwards in `indices`; null when
// it is not one.
const Instruction* ConstantTables::ConstantTableOf(uint32_t pointer,
                                                   std::vector<uint32_t>* indices) {
  std::vector<uint32_t> index_ids;
  const Instruction* root = canonical_.PathFromVariable(pointer, &index_ids);
  if (!root || root->opcode != spv::OpVariable || !VariableView(*root).has_initializer())
    return nullptr;
  spv::StorageClass storage = VariableView(*root).storage_class();
  if (storage != spv::StorageClassPrivate && storage != spv::StorageClassFunction) return nullptr;
  auto known = constant_tables_.find(root->result_id);
  if (known == constant_tables_.end())
    known = constant_tables_.emplace(root->result_id, !TableWriter(root->result_id, 0)).first;
  if (!known->second) return nullptr;
  indices->insert(indices->end(), index_ids.begin(), index_ids.end());
  return root;
}

// The hull of the scalars of `table`'s initializer that `indices` (ids) may select,
// then, when `component` is not negative, that component of each selected vector.
IntegerRange ConstantTables::TableLoad(const Instruction& table,
                                       const std::vector<uint32_t>& indices, bool is_signed,
                                       int64_t component) {
  size_t levels = indices.size() + (component >= 0 ? 1 : 0);
  IntegerRange hull = IntegerRange::None("constant table has no scalar at the loaded part");
  size_t visited = 0;
  std::string refusal;
  // Depth-first over the constituents the indices may select.
  std::vector<std::pair<uint32_t, size_t>> work{{VariableView(table).initializer(), 0}};
  while (!work.empty() && refusal.empty()) {
    auto [id, depth] = work.back();
    work.pop_back();
    if (++visited > kMaxTableScalars) {
      refusal = "constant table has more than 4096 parts to read (budget kMaxTableScalars)";
      break;
    }
    const Instruction* part = inputs_.def_use.Definition(id);
    if (part && part->opcode == spv::OpConstantNull) {
      hull = Hull(hull, IntegerRange::Of(is_signed, 0, 0), is_signed);
      continue;
    }
    if (depth == levels) {
      IntegerRange range = Convert(RangeOf(id), is_signed);
      if (!range.valid) refusal = "a part of the constant table has no range: " + range.reason;
      hull = Hull(hull, range, is_signed);
      continue;
    }
    if (!part || !ConstantCompositeView<const Instruction>::Accepts(part->opcode)) {
      refusal = std::string("a part of the constant table is ") +
                (part ? grammar::OpcodeName(part->opcode) : "unknown");
      break;
    }
    ConstantCompositeView constants(*part);
    std::vector<uint32_t> constituents(constants.constituents().begin(),
                                       constants.constituents().end());
    int64_t selected = component;
    if (depth == indices.size() || canonical_.ConstantValue(indices[depth], &selected)) {
      if (selected < 0 || uint64_t(selected) >= constituents.size()) {
        refusal = "constant index past the end of the constant table";
        break;
      }
      work.push_back({constituents[size_t(selected)], depth + 1});
      continue;
    }
    for (uint32_t constituent : constituents) work.push_back({constituent, depth + 1});
  }
  return refusal.empty() ? hull : IntegerRange::None(refusal);
}

void ConstantTables::Register(Table& table) { table[size_t(ValueKind::kTableLoad)] = this; }

// A table's scalars are constants: their ranges are asked as the table is read.
DependencyIds ConstantTables::Dependencies(const Instruction&, ValueKind) { return {}; }

IntegerRange ConstantTables::Range(const Instruction& load, ValueKind, bool is_signed) {
  std::vector<uint32_t> indices;
  const Instruction* table = ConstantTableOf(LoadView(load).pointer(), &indices);
  return TableLoad(*table, indices, is_signed);
}

}  // namespace glint::spirv
