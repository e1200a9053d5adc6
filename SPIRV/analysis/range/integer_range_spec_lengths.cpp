// Indices below a specialized length (full mode): an index into an array whose length is a
// specialization constant L, proven within [0, L - 1] for every value the application may
// give L (and for L's default when it gives none). Robust access then leaves the index
// unclamped; the report keeps the limit "set by a specialization constant", so a reader
// tells these proofs from those against a fixed length. Compute kernels size their
// shared arrays and their workgroups by one constant (`layout(local_size_x_id = 0) in;
// layout(constant_id = 0) const uint BLOCK = 64; shared float tmp[BLOCK];`) and index
// them by the invocation or by a loop tested against the same constant.
//
// At most in every specialization (SpecAtMost(G, L)): G and L are one id (one value,
// whatever the application gives); or both are OpSpecConstant of a 32-bit integer type
// decorated with the same SpecId, and G's default is at most L's, both read as u32. An
// application that specializes that SpecId gives every constant decorated with it the
// same value (Vulkan's VkSpecializationMapEntry, OpenGL's glSpecializeShader: one value
// per constant ID), so then G = L; one that does not leaves both at their defaults. The
// values are read as u32 bits on both sides (the types may differ in signedness, not in
// width). glslang makes two such constants for `layout(local_size_x_id = 0) in;` beside
// `layout(constant_id = 0) const uint N`: the workgroup size's (default 1) and N.
//
// What it proves, at a use U of the index i (a scalar 32-bit integer):
//   1. By a guard: U is dominated by the edge of a test that orders G above i (guard fact
//      kNotBelow with a strict order: `i < G`, `G > i`, the false edge of `i >= G`; the
//      facts' own argument, range_guards.h, says why the order holds at U), i being the
//      test's operand or the same value at U (OrderedDifferences::SameValue: one
//      canonical value, one pure operator over such values, or two loads of one local
//      that read one version: a loop's counter tested at the top and read in the body),
//      and G at most L: SpecAtMost; or at most floor(L / 2) (as the b of rule 4, which
//      says when); or a parameter that every call gives a value at most L, judged at the
//      call (AtMostAt, through helpers that pass it on, kMaxCallDepth deep), such as
//      the rest of a run, `x - y` under tests y <= x and x < y + G (u32) with G at most
//      L: a wrapped y + G would be below y, so not above x; unwrapped, x - y < G.
//      In the test's u32 reading i < G <= L. In its i32 reading, i's own
//      range at U must be non-negative (and below 2^31 when i is a u32): then
//      0 <= i < G, so G is positive and its u32 reading is its i32 one.
//   2. By a remainder: i is `x % D` (OpUMod) with D at most L and D >= 1 in every
//      specialization (D is L itself, which a valid array type makes at least 1, or D's
//      default is at least 1: specialized, D = L). Then i <= D - 1 <= L - 1.
//   3. By the workgroup: i stands for (CanonicalValues) component k of LocalInvocationId,
//      read through an access chain with one constant index or by a one-index
//      OpCompositeExtract of a load of the whole vector, or a parameter that every call
//      gives such a component (parameter_arguments.h: what each call stores into it;
//      the one component of the one variable, through helpers that pass it on,
//      kMaxCallDepth deep; an invocation's id is the same in its callee), and in every
//      entry point whose interface lists that variable the workgroup's size in dimension
//      k is given by an id W (a constituent of the constant decorated BuiltIn
//      WorkgroupSize, which overrides the execution modes; else a LocalSizeId operand)
//      at most L. Component k of LocalInvocationId lies in [0, W - 1] (SPIR-V, BuiltIn
//      LocalInvocationId), so i <= W - 1 <= L - 1.
//   4. By a halved bound: i is `a + b` (OpIAdd) and U is dominated by the edge of a strict
//      test `a < b` (as in 1, each the test's operand or the same value at U), where b is
//      at most H = floor(L / 2) in every specialization: then a + b <= 2b - 1 <= L - 1,
//      with no wrap (2b <= 2^32 - 2). The tree reduction of compute kernels:
//      `for (s = BLOCK / 2; s > 0; s >>= 1) { if (tid < s) tmp[tid] += tmp[tid + s]; }`.
//      b is at most H when (HalfOfLength)
//        - b is OpSpecConstantOp UDiv by a constant >= 2 or ShiftRightLogical by 1..31 of
//          a value whose u32 reading is at most L's (BitsAtMost: L itself, SpecAtMost,
//          through glslang's signedness conversion `IAdd x 0` and a component of a
//          constant composite such as gl_WorkGroupSize): its u32 reading is at most H
//          (and so is its i32 one: H < 2^31). SDiv by 2..2^31-1 or ShiftRightArithmetic
//          by 1..31 of such a value: its i32 reading is at most H (a negative operand
//          gives a result <= 0; a non-negative one is its u32 reading);
//        - or b is a load of a whole scalar local whose every store that may supply it
//          (value flow definitions, followed back through the loads the updates read;
//          an undefined version refuses) stores such a constant, or updates the local by
//          `x >> c` (c in 0..31) or `x / d` (d >= 1, and below 2^31 for SDiv) of a load x
//          of the same local. By induction over the stores as they run (the greatest
//          fixpoint of the readings each store keeps): an update never raises a
//          non-negative value; an arithmetic shift or a signed division keeps a negative
//          i32 value negative or makes it 0, so it keeps "i32 <= H"; a logical shift or
//          unsigned division of a negative value keeps nothing but what its operand's
//          u32 reading gave.
//      Where only the i32 reading is at most H, b must be >= 0 at U (its range, or a
//      guard fact such as the loop's own `s > 0`) for an unsigned test; a signed test
//      needs a >= 0 at U (then b >= 1). A divisor, a test against anything else, or an
//      update by subtraction (which may wrap) refuses.
//
// Refuses (the clamp stays; the record keeps the index's own range and reason): a
// literal LocalSize or a plain constant in the size (the application may specialize L
// below it); a test against anything not at most L in every specialization, such as
// an OpSpecConstantOp other than L itself (an expression in constants is not compared);
// a signed test without i >= 0 at U; constants of another width, or without SpecId
// (never specialized: but then neither is anything compared); reference mode.
#include "SPIRV/analysis/range/integer_range_spec_lengths.h"

#include <algorithm>

#include "SPIRV/analysis/range/integer_range_evaluator.h"
#include "SPIRV/ir/instruction_views.h"

namespace glint::spirv {

using namespace range_detail;

bool SpecializedLengths::ProvenBelow(uint32_t index, const Instruction& use, uint32_t length,
                                     const Instruction** guard) {
  bool is_signed = false;
  if (!Full() || !IsScalarInt(index, &is_signed)) return false;
  return BelowByWorkgroupSize(index, length) || BelowByModulo(index, length) ||
         BelowByGuard(index, use, length, guard) || BelowByHalvedBound(index, use, length, guard);
}

// Memoized: the guard rule asks it of every order fact at every spec-length site.
std::optional<SpecializedLengths::SpecConstant> SpecializedLengths::SpecConstantOf(uint32_t id) {
  auto [known, inserted] = spec_constants_.try_emplace(id);
  if (!inserted) return known->second;
  const Instruction* def = inputs_.def_use.Definition(id);
  bool is_signed = false;
  if (!def || def->opcode != spv::OpSpecConstant || def->words.size() != 1 ||
      !inputs_.def_use.IsInt32Type(def->type_id, &is_signed))
    return std::nullopt;
  if (std::optional<uint32_t> spec_id = module_.DecorationLiteral(id, spv::DecorationSpecId))
    known->second = SpecConstant{*spec_id, def->words[0]};
  return known->second;
}

bool SpecializedLengths::SpecAtMost(uint32_t at_most, uint32_t length) {
  if (at_most == length) return true;
  std::optional<SpecConstant> small = SpecConstantOf(at_most), large = SpecConstantOf(length);
  return small && large && small->spec_id == large->spec_id &&
         small->default_bits <= large->default_bits;
}

bool SpecializedLengths::BelowByGuard(uint32_t index, const Instruction& use, uint32_t length,
                                      const Instruction** guard) {
  const std::vector<GuardFact>* facts = rules_.facts.FactsAt(use);
  if (!facts) return false;
  const uint32_t value = Canonical(index);
  for (const GuardFact& fact : *facts) {
    if (fact.kind != GuardFact::Kind::kNotBelow || fact.component != GuardFact::kWhole ||
        fact.interval.min < 1 || !rules_.ordered_differences.SameValue(fact.other, value, 0))
      continue;
    if (fact.interval.is_signed) {
      bool index_signed = false;
      IsScalarInt(index, &index_signed);
      IntegerRange range = rules_.at_uses.RangeAt(index, use);
      if (!range.valid || range.min < 0 || (!index_signed && range.max > kI32Max)) continue;
    }
    if (!SpecAtMost(fact.value, length) && !HalvedTestBound(fact, use, length) &&
        !AtMostAt(fact.value, length, 0))
      continue;
    if (guard) *guard = fact.branch;
    return true;
  }
  return false;
}

// The bound G of the strict test `fact` (i < G, i >= 0 at U in a signed test) is at
// most floor(L / 2), so i < G <= L - 1 (HalfOfLength: read through the test's own
// operand, whose canonical value may be a join without an instruction). An unsigned
// test needs G's u32 reading at most H: given, or from its i32 one with G >= 0 at U.
bool SpecializedLengths::HalvedTestBound(const GuardFact& fact, const Instruction& use,
                                         uint32_t length) {
  const uint32_t bound = fact.branch ? TestedOperand(*fact.branch, fact.value) : 0;
  if (!bound) return false;
  const int half = HalfOfLength(bound, length);
  if (half == 0) return false;
  return fact.interval.is_signed || (half & kHalfU32) != 0 || NonNegativeAt(bound, fact.value, use);
}

// The canonical value `value` is at most L (both u32) wherever it is read, in every
// specialization: SpecAtMost; or a parameter that every call gives such a value, judged
// at the call (kMaxCallDepth deep); or `x - y` (OpISub) where the facts at `at` hold
// y <= x and x < y + G (u32) with G at most L: then y + G cannot wrap (a wrapped sum is
// below y, so not above x), and x - y < G <= L.
bool SpecializedLengths::AtMostAt(uint32_t value, uint32_t length, int depth,
                                  const Instruction* at) {
  if (SpecAtMost(value, length)) return true;
  const Instruction* def = inputs_.def_use.Definition(value);
  if (!def || depth >= kMaxCallDepth) return false;
  if (def->opcode == spv::OpFunctionParameter) {
    // Memoized per parameter and length: a helper called from many places, through
    // helpers called from many places, is judged once (the answer does not depend on
    // where it is read; an answer cut short by the depth is not kept).
    const uint64_t key = uint64_t(value) << 32 | length;
    if (auto known = parameters_at_most_.find(key); known != parameters_at_most_.end())
      return known->second;
    std::vector<uint32_t> values;
    std::vector<const Instruction*> sites;
    bool at_most =
        ArgumentsOf(*def, &values, &sites) && !values.empty() && sites.size() == values.size();
    for (size_t call = 0; at_most && call < values.size(); ++call)
      at_most = AtMostAt(Canonical(values[call]), length, depth + 1, sites[call]);
    if (at_most || depth == 0) parameters_at_most_.emplace(key, at_most);
    return at_most;
  }
  if (def->opcode != spv::OpISub || def->words.size() != 2 || !at) return false;
  const std::vector<GuardFact>* facts = rules_.facts.FactsAt(*at);
  if (!facts) return false;
  const uint32_t x = Canonical(BinaryOpView(*def).left());
  const uint32_t y = Canonical(BinaryOpView(*def).right());
  bool ordered = false, bounded = false;
  for (const GuardFact& fact : *facts) {
    if (fact.kind != GuardFact::Kind::kNotBelow || fact.component != GuardFact::kWhole ||
        fact.interval.is_signed)
      continue;
    // y <= x (x >= y + 0 or + 1).
    if (!ordered && SameValue(fact.value, x) && SameValue(fact.other, y)) ordered = true;
    // y + G >= x + 1.
    const Instruction* sum = inputs_.def_use.Definition(fact.value);
    if (!bounded && fact.interval.min >= 1 && SameValue(fact.other, x) && sum &&
        sum->opcode == spv::OpIAdd && sum->words.size() == 2) {
      const uint32_t left = Canonical(BinaryOpView(*sum).left());
      const uint32_t right = Canonical(BinaryOpView(*sum).right());
      bounded = (SameValue(left, y) && SpecAtMost(right, length)) ||
                (SameValue(right, y) && SpecAtMost(left, length));
    }
  }
  return ordered && bounded;
}

// The operand of a comparison in `branch`'s condition (through logical and, or, not)
// whose canonical value is `canonical`; 0 when none is found within a few steps.
uint32_t SpecializedLengths::TestedOperand(const Instruction& branch, uint32_t canonical) {
  if (branch.opcode != spv::OpBranchConditional) return 0;
  std::vector<uint32_t> pending{BranchConditionalView(branch).condition()};
  for (int steps = 0; steps < 8 && !pending.empty(); ++steps) {
    const Instruction* def = inputs_.def_use.Definition(pending.back());
    pending.pop_back();
    if (!def) continue;
    switch (def->opcode) {
      case spv::OpLogicalAnd:
      case spv::OpLogicalOr:
        pending.push_back(BinaryOpView(*def).left());
        pending.push_back(BinaryOpView(*def).right());
        break;
      case spv::OpLogicalNot:
        pending.push_back(UnaryOpView(*def).operand());
        break;
      default:
        if (def->words.size() != 2) break;
        for (uint32_t operand : def->words)
          if (Canonical(operand) == canonical) return operand;
        break;
    }
  }
  return 0;
}

bool SpecializedLengths::BelowByModulo(uint32_t index, uint32_t length) {
  const Instruction* def = inputs_.def_use.Definition(Canonical(index));
  if (!def || def->opcode != spv::OpUMod || def->words.size() != 2) return false;
  const uint32_t divisor = BinaryOpView(*def).right();
  if (!SpecAtMost(divisor, length)) return false;
  if (divisor == length) return true;  // a valid array is at least one element long
  std::optional<SpecConstant> constant = SpecConstantOf(divisor);
  return constant && constant->default_bits >= 1;
}

bool SpecializedLengths::BelowByWorkgroupSize(uint32_t index, uint32_t length) {
  uint32_t variable = 0;
  const int component = LocalInvocationIdComponent(Canonical(index), &variable, 0);
  if (component < 0) return false;
  bool listed = false;
  for (const Instruction& entry : module_.entry_points) {
    EntryPointInterfaceView view(entry);
    if (!view.lists(variable)) continue;
    listed = true;
    const uint32_t size = WorkgroupSizeIdOf(view.function(), component);
    if (!size || !SpecAtMost(size, length)) return false;
  }
  return listed;
}

bool SpecializedLengths::BelowByHalvedBound(uint32_t index, const Instruction& use, uint32_t length,
                                            const Instruction** guard) {
  const Instruction* sum = inputs_.def_use.Definition(Canonical(index));
  if (!sum || sum->opcode != spv::OpIAdd || sum->words.size() != 2) return false;
  const std::vector<GuardFact>* facts = rules_.facts.FactsAt(use);
  if (!facts) return false;
  BinaryOpView add(*sum);
  const uint32_t written[2] = {add.left(), add.right()};
  const uint32_t operands[2] = {Canonical(written[0]), Canonical(written[1])};
  for (int first = 0; first < 2; ++first) {
    const uint32_t below = operands[first], bound = operands[1 - first];
    int half = -1;  // asked once, at the first test that orders the two
    for (const GuardFact& fact : *facts) {
      if (fact.kind != GuardFact::Kind::kNotBelow || fact.component != GuardFact::kWhole ||
          fact.interval.min < 1 || !SameValue(fact.value, bound) || !SameValue(fact.other, below))
        continue;
      if (half < 0) half = HalfOfLength(written[1 - first], length);
      if (half == 0) break;
      // A signed test with a >= 0 makes b >= 1, so b's readings agree; an unsigned one
      // needs b's u32 reading at most H.
      const bool holds =
          fact.interval.is_signed
              ? NonNegativeAt(written[first], below, use)
              : (half & kHalfU32) != 0 || NonNegativeAt(written[1 - first], bound, use);
      if (!holds) continue;
      if (guard) *guard = fact.branch;
      return true;
    }
  }
  return false;
}

// OrderedDifferences::SameValue, or two OpSpecConstantOp of one operation on the same
// operands (glslang writes `BLOCK / 2u` anew at each use).
bool SpecializedLengths::SameValue(uint32_t first, uint32_t second) {
  if (rules_.ordered_differences.SameValue(first, second, 0)) return true;
  const Instruction* a = inputs_.def_use.Definition(first);
  const Instruction* b = inputs_.def_use.Definition(second);
  return a && b && a->opcode == spv::OpSpecConstantOp && b->opcode == spv::OpSpecConstantOp &&
         a->type_id == b->type_id && a->words == b->words;
}

// `value` as the sum reads it: a load of a local it was copied or reinterpreted from
// (whose canonical value may be a join of the local's versions, which has no
// instruction), else its canonical value.
int SpecializedLengths::HalfOfLength(uint32_t value, uint32_t length) {
  for (int hops = 0; hops < 4; ++hops) {
    const Instruction* def = inputs_.def_use.Definition(value);
    if (!def) break;
    if (def->opcode == spv::OpLoad) return HalvedLocal(*def, length);
    if (def->opcode != spv::OpCopyObject && def->opcode != spv::OpBitcast) break;
    value = UnaryOpView(*def).operand();
  }
  return HalfConstant(Canonical(value), length);
}

namespace {

// The shift amount or divisor of a halving operator, when it keeps a non-negative value
// from growing: a shift by 0..31, a divisor 1..2^31-1 (at least `least_divisor`).
bool HalvingAmount(spv::Op opcode, int64_t amount, int64_t least_divisor) {
  switch (opcode) {
    case spv::OpShiftRightLogical:
    case spv::OpShiftRightArithmetic:
      return amount >= 0 && amount <= 31;
    case spv::OpUDiv:
    case spv::OpSDiv:
      return amount >= least_divisor && amount <= kI32Max;
    default:
      return false;
  }
}

bool KeepsUnsigned(spv::Op opcode) {
  return opcode == spv::OpShiftRightLogical || opcode == spv::OpUDiv;
}

}  // namespace

int SpecializedLengths::HalfConstant(uint32_t id, uint32_t length) {
  const Instruction* def = inputs_.def_use.Definition(id);
  int64_t amount = 0;
  if (!def || def->opcode != spv::OpSpecConstantOp || def->words.size() != 3 ||
      !canonical_.ConstantValue(def->words[2], &amount))
    return 0;
  const auto opcode = static_cast<spv::Op>(def->words[0]);
  // At least halving: a shift by one or more, a divisor of two or more.
  const bool shift = opcode == spv::OpShiftRightLogical || opcode == spv::OpShiftRightArithmetic;
  if (!HalvingAmount(opcode, amount, 2) || (shift && amount < 1) ||
      !BitsAtMost(def->words[1], length, 0))
    return 0;
  return KeepsUnsigned(opcode) ? kHalfU32 | kHalfI32 : kHalfI32;
}

int SpecializedLengths::HalvedLocal(const Instruction& load, uint32_t length) {
  const ValueFlow* flow = canonical_.FlowOf(load);
  uint32_t variable = 0;
  std::vector<uint32_t> path;
  if (!flow || LoadView(load).is_volatile() || !flow->LoadTarget(&load, &variable, &path) ||
      !path.empty())
    return 0;
  // Every definition that may supply a load followed here: a constant (its readings) or
  // an update of the local by a halving operator of one of its loads.
  struct Definition {
    uint32_t node = 0;
    int half = kHalfU32 | kHalfI32;
    spv::Op update = spv::OpNop;          // OpNop: a constant
    const Instruction* source = nullptr;  // the update's load of the local
  };
  std::vector<Definition> definitions;
  std::vector<const Instruction*> loads{&load};
  std::vector<std::vector<size_t>> supplies;  // per load: its definitions
  constexpr size_t kMaxDefinitions = 16;
  for (size_t next = 0; next < loads.size(); ++next) {
    const Instruction* read = loads[next];
    uint32_t read_variable = 0;
    std::vector<uint32_t> read_path;
    if (!flow->LoadTarget(read, &read_variable, &read_path) || read_variable != variable ||
        !read_path.empty() || LoadView(*read).is_volatile())
      return 0;
    std::vector<uint32_t> nodes = flow->Definitions(read);
    if (nodes.empty()) return 0;
    supplies.emplace_back();
    for (uint32_t node_id : nodes) {
      size_t at = 0;
      while (at < definitions.size() && definitions[at].node != node_id) ++at;
      supplies.back().push_back(at);
      if (at < definitions.size()) continue;
      if (definitions.size() == kMaxDefinitions) return 0;
      const ValueFlowNode& node = flow->Node(node_id);
      Definition definition;
      definition.node = node_id;
      if (node.kind == ValueFlowNode::Kind::kInitializer) {
        definition.half = HalfConstant(node.value, length);
      } else if (node.kind == ValueFlowNode::Kind::kStore && node.path.empty()) {
        definition.half = HalfConstant(node.value, length);
        const Instruction* op = definition.half ? nullptr : inputs_.def_use.Definition(node.value);
        int64_t amount = 0;
        if (op && op->words.size() == 2 &&
            canonical_.ConstantValue(BinaryOpView(*op).right(), &amount) &&
            HalvingAmount(op->opcode, amount, 1)) {
          const Instruction* source = inputs_.def_use.Definition(BinaryOpView(*op).left());
          if (source && source->opcode == spv::OpLoad) {
            definition.half = kHalfU32 | kHalfI32;
            definition.update = op->opcode;
            definition.source = source;
            if (std::find(loads.begin(), loads.end(), source) == loads.end())
              loads.push_back(source);
          }
        }
      } else {
        return 0;  // undefined, or a store of a part
      }
      if (definition.half == 0) return 0;
      definitions.push_back(definition);
    }
  }
  auto readings_of = [&](const Instruction* read) {
    const size_t at = size_t(std::find(loads.begin(), loads.end(), read) - loads.begin());
    int half = kHalfU32 | kHalfI32;
    for (size_t definition : supplies[at]) half &= definitions[definition].half;
    return half;
  };
  // The greatest fixpoint: updates start at both readings and keep what their source's
  // definitions all give.
  for (bool changed = true; changed;) {
    changed = false;
    for (Definition& definition : definitions) {
      if (definition.update == spv::OpNop) continue;
      const int from = readings_of(definition.source);
      int now = (from & kHalfU32) ? kHalfU32 | kHalfI32
                                  : (KeepsUnsigned(definition.update) ? 0 : from & kHalfI32);
      now &= definition.half;
      if (now != definition.half) {
        definition.half = now;
        changed = true;
      }
    }
  }
  return readings_of(&load);
}

bool SpecializedLengths::BitsAtMost(uint32_t id, uint32_t length, int depth) {
  if (SpecAtMost(id, length)) return true;
  const Instruction* def = inputs_.def_use.Definition(id);
  if (depth >= 4 || !def || def->opcode != spv::OpSpecConstantOp || def->words.size() != 3)
    return false;
  const auto opcode = static_cast<spv::Op>(def->words[0]);
  int64_t zero = -1;
  if ((opcode == spv::OpIAdd || opcode == spv::OpISub) &&
      canonical_.ConstantValue(def->words[2], &zero) && zero == 0)
    return BitsAtMost(def->words[1], length, depth + 1);
  if (opcode == spv::OpCompositeExtract) {
    const Instruction* composite = inputs_.def_use.Definition(def->words[1]);
    if (composite &&
        (composite->opcode == spv::OpSpecConstantComposite ||
         composite->opcode == spv::OpConstantComposite) &&
        def->words[2] < composite->words.size())
      return BitsAtMost(composite->words[def->words[2]], length, depth + 1);
  }
  return false;
}

bool SpecializedLengths::NonNegativeAt(uint32_t value, uint32_t canonical, const Instruction& use) {
  IntegerRange range = rules_.at_uses.RangeAt(value, use);
  if (range.valid && (range.is_signed ? range.min >= 0 : range.max <= kI32Max)) return true;
  const std::vector<GuardFact>* facts = rules_.facts.FactsAt(use);
  if (!facts) return false;
  for (const GuardFact& fact : *facts) {
    if (fact.kind == GuardFact::Kind::kInterval && fact.component == GuardFact::kWhole &&
        (fact.interval.is_signed ? fact.interval.min >= 0 : fact.interval.max <= kI32Max) &&
        rules_.ordered_differences.SameValue(fact.value, canonical, 0))
      return true;
  }
  return false;
}

int SpecializedLengths::LocalInvocationIdComponent(uint32_t id, uint32_t* variable, int depth) {
  const Instruction* def = inputs_.def_use.Definition(id);
  if (!def) return -1;
  if (def->opcode == spv::OpFunctionParameter) {
    // The same component of the same variable at every call (through helpers that pass
    // it on, kMaxCallDepth deep): an invocation constant, so the callee reads it too.
    std::vector<uint32_t> values;
    if (depth >= kMaxCallDepth || !ArgumentsOf(*def, &values) || values.empty()) return -1;
    int found = -1;
    for (uint32_t value : values) {
      uint32_t at_call = 0;
      int component = LocalInvocationIdComponent(Canonical(value), &at_call, depth + 1);
      if (component < 0 || (found >= 0 && (component != found || at_call != *variable))) return -1;
      found = component;
      *variable = at_call;
    }
    return found;
  }
  uint32_t pointer = 0;
  int64_t component = -1;
  if (def->opcode == spv::OpLoad) {
    const Instruction* chain = inputs_.def_use.Definition(LoadView(*def).pointer());
    if (!chain || !IsChain(*chain) || AccessChainView(*chain).index_count() != 1 ||
        !canonical_.ConstantValue(AccessChainView(*chain).index(0), &component))
      return -1;
    pointer = AccessChainView(*chain).base();
  } else if (def->opcode == spv::OpCompositeExtract) {
    CompositeExtractView extract(*def);
    const Instruction* load = inputs_.def_use.Definition(extract.composite());
    if (extract.indices().size() != 1 || !load || load->opcode != spv::OpLoad) return -1;
    component = extract.index(0);
    pointer = LoadView(*load).pointer();
  } else {
    return -1;
  }
  std::optional<uint32_t> builtin = inputs_.builtins.Of(pointer);
  const Instruction* base = inputs_.def_use.Definition(pointer);
  if (!builtin || *builtin != spv::BuiltInLocalInvocationId || !base ||
      base->opcode != spv::OpVariable || component < 0 || component > 2)
    return -1;
  *variable = pointer;
  return static_cast<int>(component);
}

// What every call gives `parameter`: the operand itself for a value parameter, the value
// stored into the argument variable for a pointer one that its function only loads
// (parameter_arguments.h, which Canonical follows such loads through).
bool SpecializedLengths::ArgumentsOf(const Instruction& parameter, std::vector<uint32_t>* values,
                                     std::vector<const Instruction*>* sites) {
  const Instruction* type = inputs_.def_use.Definition(parameter.type_id);
  if (type && type->opcode == spv::OpTypePointer) {
    const CallArguments& arguments = inputs_.arguments.Of(parameter);
    *values = arguments.values;
    if (sites) *sites = arguments.stores;
    return arguments.reason.empty();
  }
  return inputs_.calls.OperandsOf(parameter, values, sites);
}

uint32_t SpecializedLengths::WorkgroupSizeIdOf(uint32_t entry_function, int dimension) {
  if (uint32_t workgroup_size = inputs_.builtins.WorkgroupSizeId()) {  // overrides the modes
    const Instruction* def = inputs_.def_use.Definition(workgroup_size);
    if (!def ||
        (def->opcode != spv::OpSpecConstantComposite && def->opcode != spv::OpConstantComposite) ||
        def->words.size() != 3)
      return 0;
    return def->words[size_t(dimension)];
  }
  for (const Instruction& inst : module_.execution_modes) {
    auto mode = ViewIf<ExecutionModeView>(inst);
    if (!mode || inst.opcode != spv::OpExecutionModeId || mode->entry_point() != entry_function ||
        mode->mode() != spv::ExecutionModeLocalSizeId || mode->operands().size() != 3)
      continue;
    return mode->operand(size_t(dimension));
  }
  return 0;
}

}  // namespace glint::spirv
