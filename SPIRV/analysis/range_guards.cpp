// Guard facts (see range_guards.h for what is proven and why it holds).
#include "range_guards.h"
#include "range_guard_relations.h"

#include <algorithm>

#include "SPIRV/ir/instruction_views.h"

namespace glint::spirv {

using namespace guard_detail;

const std::vector<GuardFact>& GuardFacts::At(const Cfg& cfg, const Block* block) {
  // Walk up to the nearest dominator whose facts are known, then fill in downwards.
  std::vector<const Block*> chain;
  for (const Block* b = block; b && !memo_.count(b); b = cfg.ImmediateDominator(b)) {
    chain.push_back(b);
    if (!cfg.IsReachable(b)) break;
  }
  std::shared_ptr<const Facts> parent;
  if (!chain.empty() && cfg.ImmediateDominator(chain.back()))
    parent = memo_[cfg.ImmediateDominator(chain.back())];
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    if (memo_.count(*it)) {  // filled meanwhile by a nested query (a guard's own range)
      parent = memo_[*it];
      continue;
    }
    Facts own = cfg.IsReachable(*it) ? EdgeFacts(cfg, *it, 0) : Facts{};
    if (!own.empty()) {
      for (size_t i = 0; parent && i < parent->size() && own.size() < kMaxFacts; ++i)
        own.push_back((*parent)[i]);
      parent = std::make_shared<const Facts>(std::move(own));
    }
    memo_[*it] = parent;
  }
  const std::shared_ptr<const Facts>& found = memo_[block];
  return found ? *found : empty_;
}

// The facts of the edge into `block`, when it is the block's only way in.
GuardFacts::Facts GuardFacts::EdgeFacts(const Cfg& cfg, const Block* block, int depth) {
  Facts facts;
  const auto& predecessors = cfg.Predecessors(block);
  if (predecessors.size() != 1 || predecessors[0] == block) return facts;
  const Instruction* branch = predecessors[0]->Terminator();
  if (branch && branch->opcode == spv::OpSwitch) {
    SwitchFacts(block, *branch, &facts);
    return facts;
  }
  if (!branch || branch->opcode != spv::OpBranchConditional || branch->words.size() < 3)
    return facts;
  BranchConditionalView conditional(*branch);
  if (conditional.true_label() == conditional.false_label()) return facts;
  Decompose(cfg, conditional.condition(), conditional.true_label() == block->id(), branch, depth,
            &facts);
  return facts;
}

// Facts from "`condition` is `holds`".
void GuardFacts::Decompose(const Cfg& cfg, uint32_t condition, bool holds,
                           const Instruction* branch, int depth, Facts* out) {
  const Instruction* def = def_use_.Definition(condition);
  if (!def || depth > kMaxConditionDepth) return;
  switch (def->opcode) {
    case spv::OpLogicalNot:
      return Decompose(cfg, UnaryOpView(*def).operand(), !holds, branch, depth + 1, out);
    case spv::OpLogicalAnd:
    case spv::OpLogicalOr:
      if (holds != (def->opcode == spv::OpLogicalAnd)) return;  // one side is unknown
      Decompose(cfg, BinaryOpView(*def).left(), holds, branch, depth + 1, out);
      return Decompose(cfg, BinaryOpView(*def).right(), holds, branch, depth + 1, out);
    case spv::OpPhi:
      return PhiFacts(cfg, *def, holds, depth + 1, out);
    case spv::OpLoad: {  // a bool local: the value its reaching store wrote
      uint32_t stored = source_.Canonical(condition);
      if (stored != condition) Decompose(cfg, stored, holds, branch, depth + 1, out);
      return;
    }
    case spv::OpAll:  // every component holds
      if (holds) VectorFacts(UnaryOpView(*def).operand(), true, branch, out);
      return;
    case spv::OpAny:  // no component holds
      if (!holds) VectorFacts(UnaryOpView(*def).operand(), false, branch, out);
      return;
    default:
      return CompareFacts(*def, holds, branch, out);
  }
}

void GuardFacts::CompareFacts(const Instruction& compare, bool holds, const Instruction* branch,
                              Facts* out) {
  bool is_signed = false;
  Relation relation = RelationOf(compare.opcode, &is_signed);
  if (relation == Relation::kNone || compare.words.size() != 2) return;
  if (!holds) relation = Negate(relation);
  BinaryOpView operands(compare);
  SideFacts(operands.left(), relation, operands.right(), is_signed, branch, out);
  SideFacts(operands.right(), Mirror(relation), operands.left(), is_signed, branch, out);
}

// Facts about x from "x REL y" in the given reading.
void GuardFacts::SideFacts(uint32_t x, Relation relation, uint32_t y, bool is_signed,
                           const Instruction* branch, Facts* out) {
  bool x_signed = false;
  if (!source_.IsScalarInt(x, &x_signed)) return;
  GuardFact fact;
  fact.value = source_.Canonical(x);
  fact.branch = branch;
  fact.interval = Interval{is_signed, 0, 0};
  const Instruction* length = def_use_.Definition(source_.Canonical(y));
  if (relation == Relation::kLess && length && length->opcode == spv::OpArrayLength) {
    fact.kind = GuardFact::Kind::kBelowLength;
    fact.length_base = source_.Canonical(ArrayLengthView(*length).structure());
    fact.length_member = ArrayLengthView(*length).member();
    out->push_back(fact);
  }
  // A constant's range is exact already; not asking for y's range then also keeps a
  // fixed point from being asked for a value it is computing (`1u < n` in its loop).
  const Instruction* x_def = def_use_.Definition(x);
  if (x_def && x_def->opcode == spv::OpConstant) return;
  OrderFact(x, relation, y, is_signed, branch, out);
  Interval y_range;
  if (!source_.RangeOf(y, &y_range)) {
    if (relation != Relation::kLess && relation != Relation::kGreater) return;
    fact.kind = GuardFact::Kind::kStrict;
    fact.interval = Interval{is_signed, TypeMin(is_signed), TypeMax(is_signed)};
    (relation == Relation::kLess ? fact.interval.max : fact.interval.min) += relation == Relation::kLess ? -1 : 1;
    out->push_back(fact);
    return;
  }
  if (!range_math::Reinterpret(y_range, is_signed, &y_range)) return;
  if (relation == Relation::kNotEqual && y_range.min == y_range.max) {
    fact.kind = GuardFact::Kind::kNotEqual;
    fact.interval = y_range;
    out->push_back(fact);
  } else if (IntervalFor(relation, y_range, &fact.interval)) {
    fact.kind = GuardFact::Kind::kInterval;
    out->push_back(fact);
    OperandFacts(x, fact, 0, out);
  }
}

// `x >= y` or `x > y` between two values that are not constants, as an order (an
// interval fact covers a constant side exactly already).
void GuardFacts::OrderFact(uint32_t x, Relation relation, uint32_t y, bool is_signed,
                           const Instruction* branch, Facts* out) {
  if (relation != Relation::kGreaterEqual && relation != Relation::kGreater) return;
  bool y_signed = false;
  const Instruction* y_def = def_use_.Definition(y);
  if (!y_def || y_def->opcode == spv::OpConstant || !source_.IsScalarInt(y, &y_signed)) return;
  GuardFact fact;
  fact.kind = GuardFact::Kind::kNotBelow;
  fact.value = source_.Canonical(x);
  fact.other = source_.Canonical(y);
  int64_t least = relation == Relation::kGreater ? 1 : 0;
  fact.interval = Interval{is_signed, least, least};
  fact.branch = branch;
  out->push_back(fact);
}

// The value of constant `id` in the given reading.
bool GuardFacts::ConstantIn(uint32_t id, bool is_signed, int64_t* value) const {
  uint64_t bits = 0;
  uint32_t width = 0;
  bool constant_signed = false;
  if (!def_use_.IntConstant(id, &bits, &constant_signed, &width) || width != 32) return false;
  *value = is_signed ? int64_t(int32_t(uint32_t(bits))) : int64_t(uint32_t(bits));
  return true;
}

namespace {
int64_t FloorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && (a < 0)); }
int64_t CeilDiv(int64_t a, int64_t b) { return a / b + ((a % b != 0) && (a > 0)); }
}  // namespace

// `fact` holds for y; when y is x + c, c + x, x - c, x * c, c * x (c > 0) or x << c
// and no value of x makes it wrap in the fact's reading, y's r-reading is exactly that
// arithmetic on x's, so the inverse gives a fact about x.
void GuardFacts::OperandFacts(uint32_t y, const GuardFact& fact, int depth, Facts* out) {
  const Instruction* def = def_use_.Definition(source_.Canonical(y));
  if (depth >= kMaxOperandDepth || !def) return;
  spv::Op op = def->opcode;
  if (op == spv::OpUDiv || op == spv::OpShiftRightLogical)
    return QuotientFacts(*def, fact, depth, out);
  bool commutes = op == spv::OpIAdd || op == spv::OpIMul;
  if (!commutes && op != spv::OpISub && op != spv::OpShiftLeftLogical) return;
  bool s = fact.interval.is_signed;
  BinaryOpView operation(*def);
  uint32_t x = operation.left();
  int64_t c = 0;
  if (!ConstantIn(operation.right(), s, &c)) {
    if (!commutes || !ConstantIn(operation.left(), s, &c))
      return RangedOffsetFacts(*def, fact, depth, out);
    x = operation.right();
  }
  Interval xr;
  bool x_signed = false;
  if (!source_.IsScalarInt(x, &x_signed) || !source_.RangeOf(x, &xr) ||
      !range_math::Reinterpret(xr, s, &xr))
    return;
  if (op == spv::OpShiftLeftLogical) {
    if (c < 0 || c > 30) return;
    c = int64_t(1) << c;
    op = spv::OpIMul;
  }
  if (op == spv::OpIMul && c <= 0) return;
  int64_t lo = op == spv::OpIAdd ? xr.min + c : op == spv::OpISub ? xr.min - c : xr.min * c;
  int64_t hi = op == spv::OpIAdd ? xr.max + c : op == spv::OpISub ? xr.max - c : xr.max * c;
  if (lo < TypeMin(s) || hi > TypeMax(s)) return;  // may wrap: y says nothing exact about x
  GuardFact derived = fact;
  derived.value = source_.Canonical(x);
  const Interval& in = fact.interval;
  derived.interval = op == spv::OpIAdd   ? Interval{s, in.min - c, in.max - c}
                     : op == spv::OpISub ? Interval{s, in.min + c, in.max + c}
                                         : Interval{s, CeilDiv(in.min, c), FloorDiv(in.max, c)};
  if (!range_math::Meet(derived.interval, xr, &derived.interval)) return;  // edge not taken
  out->push_back(derived);
  OperandFacts(x, derived, depth + 1, out);
}

// `fact` holds for y = x / c or y = x >> k (unsigned, c > 0, k < 32: c = 2^k) in the
// unsigned reading: y is floor(x / c), which never wraps, so y in [lo, hi] exactly when
// x is in [lo * c, hi * c + c - 1] (`x / 3u < 4u` gives x <= 11).
void GuardFacts::QuotientFacts(const Instruction& def, const GuardFact& fact, int depth,
                               Facts* out) {
  if (fact.interval.is_signed) return;  // the operation reads its operands unsigned
  BinaryOpView operation(def);
  int64_t c = 0;
  if (!ConstantIn(operation.right(), false, &c)) return;
  if (def.opcode == spv::OpShiftRightLogical) {
    if (c < 0 || c > 31) return;
    c = int64_t(1) << c;
  }
  Interval xr{false, 0, TypeMax(false)};  // x needs no range: the quotient never wraps
  bool x_signed = false;
  uint32_t x = operation.left();
  if (c <= 0 || !source_.IsScalarInt(x, &x_signed)) return;
  Interval own, unsigned_own;
  if (source_.RangeOf(x, &own) && range_math::Reinterpret(own, false, &unsigned_own))
    xr = unsigned_own;
  GuardFact derived = fact;
  derived.value = source_.Canonical(x);
  derived.interval = Interval{false, fact.interval.min * c,
                              std::min<int64_t>(fact.interval.max * c + c - 1, TypeMax(false))};
  if (!range_math::Meet(derived.interval, xr, &derived.interval)) return;  // edge not taken
  out->push_back(derived);
  OperandFacts(x, derived, depth + 1, out);
}

// `fact` holds for y = a + b or y = a - b where neither operand is a constant but both
// have ranges: when no values in those ranges make the operation wrap in the fact's
// reading, y's reading is the exact sum (difference), so a = y - b and b = y - a
// (a = y + b and b = a - y) bound each operand by the fact and the other's range:
// `x + n < B` gives x <= B.max - 1 - n.min.
void GuardFacts::RangedOffsetFacts(const Instruction& def, const GuardFact& fact, int depth,
                                   Facts* out) {
  bool add = def.opcode == spv::OpIAdd;
  if (!add && def.opcode != spv::OpISub) return;
  bool s = fact.interval.is_signed;
  BinaryOpView operation(def);
  Interval a, b;
  bool a_signed = false, b_signed = false;
  if (!source_.IsScalarInt(operation.left(), &a_signed) ||
      !source_.IsScalarInt(operation.right(), &b_signed) ||
      !source_.RangeOf(operation.left(), &a) || !source_.RangeOf(operation.right(), &b) ||
      !range_math::Reinterpret(a, s, &a) || !range_math::Reinterpret(b, s, &b))
    return;
  int64_t lo = add ? a.min + b.min : a.min - b.max;
  int64_t hi = add ? a.max + b.max : a.max - b.min;
  if (lo < TypeMin(s) || hi > TypeMax(s)) return;  // may wrap: y says nothing exact
  const Interval& y = fact.interval;
  Interval left =
      add ? Interval{s, y.min - b.max, y.max - b.min} : Interval{s, y.min + b.min, y.max + b.max};
  Interval right =
      add ? Interval{s, y.min - a.max, y.max - a.min} : Interval{s, a.min - y.max, a.max - y.min};
  const uint32_t operands[2] = {operation.left(), operation.right()};
  Interval derived_intervals[2] = {left, right};
  const Interval own[2] = {a, b};
  for (int side = 0; side < 2; ++side) {
    GuardFact derived = fact;
    derived.value = source_.Canonical(operands[side]);
    if (!range_math::Meet(derived_intervals[side], own[side], &derived.interval)) return;
    if (derived.interval.min == own[side].min && derived.interval.max == own[side].max) continue;
    out->push_back(derived);
    OperandFacts(operands[side], derived, depth + 1, out);
  }
}

// A boolean phi is one of its incoming values. Incoming values that contradict `holds`
// on their edge (a constant, or the very condition the predecessor branched on) are
// dropped; when one incoming (v from T) remains, v holds and so does the edge into T.
// glslang's `a && b`: phi(a from P0 [false edge], b from T [P0's true edge]). Only facts
// about values defined above P0 are kept: they cannot change between the test and the
// merge (T is straight-line code between them).
void GuardFacts::PhiFacts(const Cfg& cfg, const Instruction& phi, bool holds, int depth,
                          Facts* out) {
  uint32_t merge = def_use_.BlockOf(&phi) ? def_use_.BlockOf(&phi)->id() : 0;
  uint32_t value = 0, from = 0, possible = 0;
  PhiView incoming(phi);
  for (size_t i = 0; i < incoming.pair_count(); ++i) {
    const Instruction* v = def_use_.Definition(incoming.value(i));
    const Block* pred = cfg.BlockById(incoming.parent(i));
    const Instruction* branch = pred ? pred->Terminator() : nullptr;
    bool constant = v && (v->opcode == spv::OpConstantTrue || v->opcode == spv::OpConstantFalse);
    if (constant && (v->opcode == spv::OpConstantTrue) != holds) continue;
    std::optional<BranchConditionalView<const Instruction>> conditional;
    if (branch) conditional = ViewIf<BranchConditionalView>(*branch);
    if (conditional && conditional->true_label() != conditional->false_label()) {
      // On the edge to the merge the branch's condition is known, and so is `v` when it
      // is that condition or its negation (glslang's ||: branch on !a, phi takes a).
      bool on_edge = conditional->true_label() == merge;
      const Instruction* tested = def_use_.Definition(conditional->condition());
      bool negated = tested && tested->opcode == spv::OpLogicalNot &&
                     UnaryOpView(*tested).operand() == incoming.value(i);
      if ((conditional->condition() == incoming.value(i) && on_edge != holds) ||
          (negated && on_edge == holds))
        continue;
    }
    ++possible;
    value = incoming.value(i);
    from = incoming.parent(i);
  }
  const Block* through = cfg.BlockById(from);
  const Instruction* last = through ? through->Terminator() : nullptr;
  const Instruction* v = def_use_.Definition(value);
  if (possible != 1 || !last || last->opcode != spv::OpBranch || !v ||
      def_use_.BlockOf(v) != through || cfg.Predecessors(through).size() != 1)
    return;
  const Block* first_test = cfg.Predecessors(through)[0];
  Facts facts = EdgeFacts(cfg, through, depth);
  Decompose(cfg, value, holds, last, depth, &facts);
  for (const GuardFact& fact : facts)
    if (DefinedAbove(cfg, fact.value, first_test) &&
        (!fact.length_base || DefinedAbove(cfg, fact.length_base, first_test)) &&
        (!fact.other || DefinedAbove(cfg, fact.other, first_test)))
      out->push_back(fact);
}

// True when `value` is defined outside any block or in one dominating `block`, or is
// one value for the whole invocation.
bool GuardFacts::DefinedAbove(const Cfg& cfg, uint32_t value, const Block* block) const {
  if (source_.IsInvocationConstant(value)) return true;
  const Instruction* def = def_use_.Definition(value);
  if (!def) {
    const Block* join = source_.VersionBlock(value);
    return join && cfg.Dominates(join, block);
  }
  const Block* home = def_use_.BlockOf(def);
  return !home || cfg.Dominates(home, block);
}

}  // namespace glint::spirv
