// Locals (full mode), through the value-flow view of Function variables (value_flow.h).
//
// Range: a load of a followed local (a scalar, or one element reached by constant
// indices) lies in the union of the ranges of every value that may have been stored
// where it reads: the stores and the initializer that reach it. This covers `?:`
// through a local, a local assigned on several paths, and while / do-while loops.
// Each stored value is ranged where it is stored (RangeAt at the OpStore): the guards
// that dominate the store hold for the value written there (`if (x < 8u) t = x;`).
// A loop-carried update (`i = i + 1` reaching the load of i) is widened
// (integer_range_loop_locals.cpp); other cycles (`i = i * 2`, two locals feeding each
// other) meet the evaluation driver as a cyclic definition and get no range, never a
// guess; a dominating guard on the loop's own test may then narrow it (the test's load
// and the body's load read the same version, see LocalVersion).
// What may reach a load, and why it may not be known, is local_definitions.h's (a
// sub-analysis that asks for no range): a local the value-flow view does not follow
// (its refusal names why), a load that may read the variable before any store ("may
// be read before it is assigned"), bits stored through a different component path
// than the load reads, more than kMaxLocalDefinitions reaching stores (a budget that
// names itself). This file ranges what it lists.
//
// Identity (LocalVersion): two loads that see the same version read the same bits, as
// two uses of one SSA value do; a version made by one whole store is that store's value.
// A load of one element of a vector stored whole reads that component of the stored
// value (ComponentKey; the scalar itself when the vector was built from scalars).
#include "SPIRV/analysis/range/integer_range_locals.h"

#include "SPIRV/analysis/range/integer_range_evaluator.h"

#include "SPIRV/ir/instruction_views.h"

namespace glint::spirv {

using namespace range_detail;

namespace {
const char kLoopCarried[] =
    "local is updated from its own value in a loop (no range without a guard)";
// CountedUpdates' refusals for shapes it does not try (the widening's reason stays).
const char kNotCounted[] = "(not counted)";
}  // namespace

IntegerRange LocalLoads::LocalUnion(const Instruction& load, bool is_signed) {
  const LocalDefinitions* local = local_definitions_.Of(load);
  if (!local) {
    IntegerRange indexed = rules_.indexed_locals.IndexedLocalLoad(
        load, is_signed);  // integer_range_indexed_locals.cpp
    if (indexed.valid || !indexed.reason.empty()) return indexed;
    const std::string* refusal = local_definitions_.RefusalOf(load);
    return IntegerRange::None(refusal ? *refusal : "local is not followed");
  }
  // General updates: the fixed point; where it refuses, the ordinary union below (a
  // stored value that reads the local without a real cycle still has its range).
  IntegerRange fixed_point = IntegerRange::None("");
  if (local->composite_parts.empty() && rules_.fixed_point.CycleDependent(load)) {
    fixed_point = rules_.fixed_point.FixedPointLocal(load, is_signed);
    if (fixed_point.valid) return fixed_point;
  }
  IntegerRange ordinary = OrdinaryUnion(load, *local, is_signed);
  if (ordinary.valid || fixed_point.reason.empty()) return ordinary;
  return fixed_point;
}

// The union of the stored values, carried updates widened (see the file comment).
IntegerRange LocalLoads::OrdinaryUnion(const Instruction& load, const LocalDefinitions& local_ref,
                                       bool is_signed) {
  const LocalDefinitions* local = &local_ref;
  // An update whose load reads values this load does not (`j--; t[j]` reads only the
  // update, whose operand reads the loop's join) is an ordinary stored value here; the
  // others are widened together (integer_range_loop_locals.cpp).
  std::vector<const CarriedUpdate*> widened, stored_updates;
  for (const CarriedUpdate& update : local->carried) {
    if (rules_.carried.ReadsOnlyFrom(*inputs_.def_use.Definition(update.loaded), *local))
      widened.push_back(&update);
    else
      stored_updates.push_back(&update);
  }
  // The stored values: the stores', then the ordinary updates'.
  const size_t stored_count = local->values.size() + stored_updates.size();
  auto value_at = [&](size_t i) {
    return i < local->values.size() ? local->values[i]
                                    : stored_updates[i - local->values.size()]->value;
  };
  auto store_at = [&](size_t i) {
    return i < local->values.size() ? local->stores[i]
                                    : stored_updates[i - local->values.size()]->store;
  };
  // Invalid (no reason yet) until a part or a stored value is met: kLoopCarried where
  // nothing is (written below only then, so that most loads make no reason text).
  IntegerRange result;
  for (const auto& [variable, component] : local->builtin_parts) {
    IntegerRange stored = rules_.builtins.BuiltinComponent(variable, component, is_signed);
    if (!stored.valid) return IntegerRange::None(kStoredPrefix + stored.reason);
    result = Hull(result, stored, is_signed);
  }
  for (const auto& [vector, component] : local->composite_parts) {
    IntegerRange stored = Convert(rules_.components.ComponentRange(vector, component), is_signed);
    if (!stored.valid) return IntegerRange::None(kStoredPrefix + stored.reason);
    result = Hull(result, stored, is_signed);
  }
  for (size_t i = 0; i < stored_count; ++i) {
    uint32_t value = value_at(i);
    IntegerRange stored = Convert(StoredRange(value, store_at(i)), is_signed);
    if (!stored.valid && stored.reason.rfind("cyclic definition", 0) == 0)
      return IntegerRange::None(kLoopCarried);
    if (!stored.valid && stored.reason.rfind(kStoredPrefix, 0) != 0 &&
        stored.reason != kLoopCarried)
      return IntegerRange::None(kStoredPrefix + stored.reason);
    if (!stored.valid) return stored;
    result = Hull(result, stored, is_signed);
  }
  if (!result.valid) result = IntegerRange::None(kLoopCarried);
  if (widened.empty()) return result;
  IntegerRange widened_range = rules_.carried.WidenCarried(*local, widened, result, is_signed);
  if (widened_range.valid || !result.valid) return widened_range;
  // No guard bounds the update: the counted loops around it may (trip counts).
  IntegerRange counted = rules_.trip_counts.CountedUpdates(load, *local, is_signed);
  if (!counted.valid) {  // a counted for-loop around the update, one iteration at a time
    IntegerRange iterated = rules_.counted.CountedIterationsLocal(load, is_signed);
    if (iterated.valid) return iterated;
    if (widened.size() == 1) {  // tested right after its update, not before
      IntegerRange tested = rules_.tested_after_update.Range(load, *widened[0], result, is_signed);
      if (tested.valid) return tested;
    }
  }
  if (counted.valid || counted.reason.find(kNotCounted) != std::string::npos)
    return counted.valid ? counted : widened_range;
  return counted;
}

// The range of `value` where `store` writes it: narrowed by the guards that dominate
// the store (they hold for the value stored there, so for every later read of it).
IntegerRange LocalLoads::StoredRange(uint32_t value, const Instruction* store) {
  if (!store) return Operand(value);
  IntegerRange range = rules_.at_uses.RangeAt(value, *store);
  range.guard = nullptr;  // a context-free range names no guard
  return range;
}

}  // namespace glint::spirv

namespace glint::spirv {

void LocalLoads::Register(Table& table) {
  table[size_t(ValueKind::kSingleStoreLoad)] = this;
  table[size_t(ValueKind::kLocalLoad)] = this;
}

// A local stored once reads the stored value; a followed local, what may reach it
// (none when its own fixed point evaluates the cycle: integer_range_fixed_point.cpp).
DependencyIds LocalLoads::Dependencies(const Instruction& load, ValueKind kind) {
  if (kind == ValueKind::kSingleStoreLoad)
    return {StoreView(*canonical_.DominatingSingleStore(load)).object()};
  const LocalDefinitions* local = local_definitions_.Of(load);
  if (!local || rules_.fixed_point.CycleDependent(load)) return {};
  return DependencyIds(local->dependencies.begin(), local->dependencies.end());
}

IntegerRange LocalLoads::Range(const Instruction& load, ValueKind kind, bool is_signed) {
  if (kind == ValueKind::kSingleStoreLoad)
    return Convert(Operand(StoreView(*canonical_.DominatingSingleStore(load)).object()), is_signed);
  return LocalUnion(load, is_signed);
}

}  // namespace glint::spirv
