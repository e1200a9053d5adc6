// Locals read at run-time indices (full mode): `int m[3]; m[0] = a; m[1] = b; m[2] = c;
// t[m[k]]`, `int order[4] = int[](x, y, z, w); t[order[i]]`. Value flow follows only
// locals whose every index is a constant (value_flow.h refuses the rest as "indexed by a
// non-constant"); this rule covers the locals that are *read* at run-time indices but
// written only at constant ones.
//
// What it proves: let V be a Function variable whose every use in code is the pointer of
// an OpLoad, the base of an access chain (whose uses are the same, recursively), or the
// pointer of an OpStore through V itself or a chain of constant indices (so no store
// writes at a run-time index, and no call, copy or atomic touches V). Let L load a
// scalar through indices I, where a run-time index may select any element (an index
// past the end is clamped by robust access, or undefined behaviour without it).
//   - Every value L can read was put there by V's initializer or by one of V's stores
//     whose path agrees with I (each of its indices equals I's there, or I's is not a
//     constant), as the part of the stored value the rest of I selects: nothing else
//     writes V. So L lies in the hull of those parts' ranges (a part of a constant or of
//     an OpCompositeConstruct of one constituent per element is followed down to the
//     scalar; OpConstantNull is 0; a component of any other vector value is that
//     component's range, integer_range_components.cpp).
//   - L never reads an element no store has written (undefined bits): V has an
//     initializer, or, for every element the indices may select at the first run-time
//     index (the path itself for a constant path), a store whose path is a prefix of the
//     element's path, ending before any later run-time index, dominates L (its block dominates L's,
//     or it comes first in L's block). Every run of L then follows such a store for each element.
//
// Refuses, naming why: a store at a run-time index or another use that writes or escapes
// (value flow's reason stays), an element no dominating store covers ("... may read an
// element before it is assigned"), a stored part that is not a constant, a construct or
// a scalar (read from memory names its origin), a part without a range, more than
// kMaxIndexedElements elements to check or kMaxLocalDefinitions stores (budgets that name
// themselves).
#include "SPIRV/analysis/range/integer_range_indexed_locals.h"

#include "SPIRV/analysis/range/integer_range_evaluator.h"

#include "SPIRV/ir/instruction_views.h"

namespace glint::spirv {

using namespace range_detail;

// V's stores (with their constant paths) into `stores`; false when a use may write V
// otherwise, or a chain a store goes through has a run-time index.
bool IndexedLocals::IndexedLocalStores(uint32_t pointer, const std::vector<uint32_t>& path,
                                       std::vector<IndexedStore>* stores, int depth) {
  for (const Use& use : inputs_.def_use.Uses(pointer)) {
    const Instruction& user = *use.user;
    if (!inputs_.def_use.BlockOf(&user)) continue;  // names, decorations
    if (user.opcode == spv::OpLoad && use.word == 0) continue;
    if (user.opcode == spv::OpStore && use.word == 0) {
      if (std::find(path.begin(), path.end(), kRuntimeIndex) != path.end()) return false;
      stores->push_back({&user, path});
      continue;
    }
    bool is_chain = user.opcode == spv::OpAccessChain || user.opcode == spv::OpInBoundsAccessChain;
    if (!is_chain || use.word != 0 || depth >= 8) return false;
    std::vector<uint32_t> longer = path;
    int64_t value = 0;
    for (uint32_t index : AccessChainView(user).indices())
      longer.push_back(canonical_.ConstantValue(index, &value) && value >= 0 ? uint32_t(value)
                                                                             : kRuntimeIndex);
    if (!IndexedLocalStores(user.result_id, longer, stores, depth + 1)) return false;
  }
  return true;
}

IntegerRange IndexedLocals::IndexedLocalLoad(const Instruction& load, bool is_signed) {
  // The variable and the load's path (kRuntimeIndex where an index is not a constant).
  std::vector<uint32_t> index_ids;
  const Instruction* root = canonical_.PathFromVariable(LoadView(load).pointer(), &index_ids);
  const ValueFlow* flow = canonical_.FlowOf(load);
  const ValueFlowVariableRefusal* refusal = root && flow ? flow->Refusal(root->result_id) : nullptr;
  if (!refusal || refusal->reason != ValueFlowRefusal::kDynamicIndex)
    return IntegerRange::None("");  // not this rule's
  std::vector<uint32_t> path;
  int64_t value = 0;
  for (uint32_t index : index_ids)
    path.push_back(canonical_.ConstantValue(index, &value) && value >= 0 ? uint32_t(value)
                                                                         : kRuntimeIndex);
  std::vector<IndexedStore> stores;
  if (!IndexedLocalStores(root->result_id, {}, &stores, 0))
    return IntegerRange::None("");  // value flow's reason names the write
  if (stores.size() > LocalDefinitionsAnalysis::kMaxLocalDefinitions)
    return IntegerRange::None("local has more than 64 stores (budget kMaxLocalDefinitions)");
  bool has_initializer = VariableView(*root).has_initializer();
  if (!has_initializer) {
    std::string why = UncoveredElement(load, *root, path, stores);
    if (!why.empty()) return IntegerRange::None(why);
  }
  // The hull of every part that may be read.
  IntegerRange hull;
  auto add = [&](uint32_t stored, size_t written, const Instruction* store) {
    IntegerRange part = PartsOf(stored, path, written, store, is_signed);
    if (!part.valid) return part;
    hull = Hull(hull, part, is_signed);
    return part;
  };
  if (has_initializer) {
    IntegerRange part = add(VariableView(*root).initializer(), 0, nullptr);
    if (!part.valid) return part;
  }
  for (const IndexedStore& store : stores) {
    bool agrees = store.path.size() <= path.size();
    for (size_t k = 0; agrees && k < store.path.size(); ++k)
      agrees = path[k] == kRuntimeIndex || path[k] == store.path[k];
    if (!agrees) continue;
    IntegerRange part = add(StoreView(*store.store).object(), store.path.size(), store.store);
    if (!part.valid) return part;
  }
  if (!hull.valid) return IntegerRange::None("local read at a run-time index has no store");
  return hull;
}

// Empty when every element `path` may select is written by a store that dominates
// `load`; else why not.
std::string IndexedLocals::UncoveredElement(const Instruction& load, const Instruction& variable,
                                            const std::vector<uint32_t>& path,
                                            const std::vector<IndexedStore>& stores) {
  const char* kUncovered =
      "local read at a run-time index may read an element before it is "
      "assigned";
  Function* function = inputs_.def_use.FunctionOf(&load);
  if (!function) return kUncovered;
  const Cfg& cfg = canonical_.CfgOf(*function);
  const Block* load_block = inputs_.def_use.BlockOf(&load);
  auto dominates = [&](const Instruction* store) {
    const Block* block = inputs_.def_use.BlockOf(store);
    if (block == load_block) return inputs_.positions.Of(store) < inputs_.positions.Of(&load);
    return cfg.Dominates(block, load_block);
  };
  // The elements to cover: the path with its first run-time index replaced by each
  // element of the dimension it indexes (the path itself when it has none).
  size_t first = std::find(path.begin(), path.end(), kRuntimeIndex) - path.begin();
  uint32_t count = 1;
  if (first < path.size()) {
    count = ElementCount(variable, path, first);
    if (count == 0)
      return "local read at a run-time index of a dimension without a constant length";
    if (count > kMaxIndexedElements)
      return "local read at a run-time index has more than 64 elements to check (budget "
             "kMaxIndexedElements)";
  }
  for (uint32_t element = 0; element < count; ++element) {
    bool covered = false;
    for (const IndexedStore& store : stores) {
      // A prefix of the element's path, up to the next run-time index.
      bool prefix = store.path.size() <= path.size();
      for (size_t k = 0; prefix && k < store.path.size(); ++k)
        prefix = k == first ? store.path[k] == element
                            : path[k] != kRuntimeIndex && store.path[k] == path[k];
      if (prefix && dominates(store.store)) {
        covered = true;
        break;
      }
    }
    if (!covered) return kUncovered;
  }
  return "";
}

// The number of elements of the array the index at `position` of `path` selects in
// `variable`'s type; 0 when that is not an array or vector of constant length.
uint32_t IndexedLocals::ElementCount(const Instruction& variable, const std::vector<uint32_t>& path,
                                     size_t position) const {
  const Instruction* pointer_type = inputs_.def_use.Definition(variable.type_id);
  if (!pointer_type || pointer_type->opcode != spv::OpTypePointer) return 0;
  const Instruction* type = inputs_.def_use.Definition(TypePointerView(*pointer_type).pointee());
  for (size_t k = 0; type && k < position; ++k) {
    uint32_t next = 0;
    if (type->opcode == spv::OpTypeArray || type->opcode == spv::OpTypeVector ||
        type->opcode == spv::OpTypeMatrix)
      next = type->words[0];
    else if (type->opcode == spv::OpTypeStruct && path[k] < type->words.size())
      next = type->words[path[k]];
    type = next ? inputs_.def_use.Definition(next) : nullptr;
  }
  // A run-time index selects an array, vector or matrix element, never a struct member.
  return type && type->opcode != spv::OpTypeStruct ? ElementsOfType(type->result_id) : 0;
}

// The hull of the parts of `stored` (written at `path`'s first `written` indices) that
// the rest of `path` may select.
IntegerRange IndexedLocals::PartsOf(uint32_t stored, const std::vector<uint32_t>& path,
                                    size_t written, const Instruction* store, bool is_signed) {
  IntegerRange hull;
  size_t visited = 0;
  std::vector<std::pair<uint32_t, size_t>> work{{stored, written}};
  while (!work.empty()) {
    auto [id, level] = work.back();
    work.pop_back();
    if (++visited > kMaxIndexedElements * 4)
      return IntegerRange::None(
          "local read at a run-time index has more than 256 parts to read (budget "
          "kMaxIndexedElements)");
    const Instruction* part = inputs_.def_use.Definition(id);
    if (part && part->opcode == spv::OpConstantNull) {
      hull = Hull(hull, IntegerRange::Of(is_signed, 0, 0), is_signed);
      continue;
    }
    if (level == path.size()) {
      IntegerRange range = Convert(
          store && id == stored ? rules_.locals.StoredRange(id, store) : RangeOf(id), is_signed);
      if (!range.valid)
        return IntegerRange::None("a value stored to the local has no range: " + range.reason);
      hull = Hull(hull, range, is_signed);
      continue;
    }
    const Instruction* type = part ? inputs_.def_use.Definition(part->type_id) : nullptr;
    bool computed_vector = type && type->opcode == spv::OpTypeVector && level + 1 == path.size() &&
                           part->opcode != spv::OpCompositeConstruct &&
                           !ConstantCompositeView<const Instruction>::Accepts(part->opcode);
    if (computed_vector) {  // components of a computed vector: integer_range_components.cpp
      for (uint32_t k = 0; k < type->words[1]; ++k) {
        if (path[level] != kRuntimeIndex && path[level] != k) continue;
        IntegerRange component = Convert(rules_.components.ComponentRange(id, k), is_signed);
        if (!component.valid)
          return IntegerRange::None("a value stored to the local has no range: " +
                                    component.reason);
        hull = Hull(hull, component, is_signed);
      }
      continue;
    }
    std::vector<uint32_t> constituents;
    if (part && ConstantCompositeView<const Instruction>::Accepts(part->opcode)) {
      ConstantCompositeView constants(*part);
      constituents.assign(constants.constituents().begin(), constants.constituents().end());
    } else if (part && part->opcode == spv::OpCompositeConstruct) {
      constituents.assign(part->words.begin(), part->words.end());
    }
    uint32_t expected = part ? ElementsOfType(part->type_id) : 0;
    if (constituents.empty() || constituents.size() != expected) {
      std::string origin = origins_.MemoryOrigin(id);  // integer_range_origins.cpp
      return IntegerRange::None(
          "a value stored to the local has no range: " +
          (!origin.empty() ? origin
                           : std::string("a part of it is not a constant or a construct")));
    }
    if (path[level] != kRuntimeIndex) {
      if (path[level] >= constituents.size())
        return IntegerRange::None("constant index past the end of a local");
      work.push_back({constituents[path[level]], level + 1});
      continue;
    }
    for (uint32_t constituent : constituents) work.push_back({constituent, level + 1});
  }
  return hull;
}

// The number of elements of a composite type (array, vector, matrix, struct); 0 for
// other types or an array without a constant length.
uint32_t IndexedLocals::ElementsOfType(uint32_t type_id) const {
  const Instruction* type = inputs_.def_use.Definition(type_id);
  if (!type) return 0;
  switch (type->opcode) {
    case spv::OpTypeVector:
    case spv::OpTypeMatrix:
      return type->words[1];
    case spv::OpTypeStruct:
      return uint32_t(type->words.size());
    case spv::OpTypeArray: {
      int64_t length = 0;
      return canonical_.ConstantValue(type->words[1], &length) && length > 0 ? uint32_t(length) : 0;
    }
    default:
      return 0;
  }
}

}  // namespace glint::spirv
