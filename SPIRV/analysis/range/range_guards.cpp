// Guard facts (see range_guards.h for what is proven and why it holds).
#include "SPIRV/analysis/range/range_guards.h"
#include "SPIRV/analysis/range/range_guard_relations.h"

#include <algorithm>

#include "SPIRV/ir/instruction_views.h"

namespace glint::spirv {

using namespace guard_detail;

bool GuardRanges::Get(uint32_t id, range_math::Interval* range) {
  for (const Entry& entry : entries_)
    if (entry.id == id) {
      if (entry.known) *range = entry.range;
      return entry.known;
    }
  if (!missing_) missing_ = id;
  return false;
}

void GuardRanges::Add(uint32_t id, bool known, const range_math::Interval& range) {
  entries_.push_back({id, known, range});
  if (missing_ == id) missing_ = 0;
}

bool GuardFacts::Draw(const Cfg& cfg, const GuardCondition& condition, GuardRanges* ranges,
                      Facts* out) {
  drawn_.clear();
  switch (condition.kind) {
    case GuardCondition::Kind::kCompare:
      CompareFacts(*ranges, condition, &drawn_);
      break;
    case GuardCondition::Kind::kComponentCompare:
      ComponentFacts(*ranges, condition, &drawn_);
      break;
    case GuardCondition::Kind::kSwitchEdge:
      SwitchFacts(*ranges, condition, &drawn_);
      break;
  }
  if (ranges->missing()) return false;
  for (const GuardFact& fact : drawn_) {
    bool above = true;
    for (const Block* first_test : condition.defined_above)
      above = above && conditions_.DefinedAbove(cfg, fact.value, first_test) &&
              (!fact.length_base || conditions_.DefinedAbove(cfg, fact.length_base, first_test)) &&
              (!fact.other || conditions_.DefinedAbove(cfg, fact.other, first_test));
    if (above) out->push_back(fact);
  }
  return true;
}

// Facts about x from "x REL y" in the given reading.
void GuardFacts::CompareFacts(GuardRanges& ranges, const GuardCondition& condition, Facts* out) {
  uint32_t x = condition.x, y = condition.y;
  Relation relation = condition.relation;
  bool is_signed = condition.is_signed;
  GuardFact fact;
  fact.value = canonical_.Canonical(x);
  fact.branch = condition.branch;
  fact.interval = Interval{is_signed, 0, 0};
  const Instruction* length = def_use_.Definition(canonical_.Canonical(y));
  if (relation == Relation::kLess && length && length->opcode == spv::OpArrayLength) {
    fact.kind = GuardFact::Kind::kBelowLength;
    fact.length_base = canonical_.Canonical(ArrayLengthView(*length).structure());
    fact.length_member = ArrayLengthView(*length).member();
    out->push_back(fact);
  }
  // A constant's range is exact already; not asking for y's range then also keeps a
  // fixed point from being asked for a value it is computing (`1u < n` in its loop).
  const Instruction* x_def = def_use_.Definition(x);
  if (x_def && x_def->opcode == spv::OpConstant) return;
  OrderFact(x, relation, y, is_signed, condition.branch, out);
  Interval y_range;
  if (!ranges.Get(y, &y_range)) {
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
    OperandFacts(ranges, x, fact, 0, out);
  }
}

// `x >= y` or `x > y` between two values that are not constants, as an order (an
// interval fact covers a constant side exactly already).
void GuardFacts::OrderFact(uint32_t x, Relation relation, uint32_t y, bool is_signed,
                           const Instruction* branch, Facts* out) {
  if (relation != Relation::kGreaterEqual && relation != Relation::kGreater) return;
  bool y_signed = false;
  const Instruction* y_def = def_use_.Definition(y);
  if (!y_def || y_def->opcode == spv::OpConstant || !canonical_.IsScalarInt(y, &y_signed)) return;
  GuardFact fact;
  fact.kind = GuardFact::Kind::kNotBelow;
  fact.value = canonical_.Canonical(x);
  fact.other = canonical_.Canonical(y);
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
void GuardFacts::OperandFacts(GuardRanges& ranges, uint32_t y, const GuardFact& fact, int depth,
                              Facts* out) {
  const Instruction* def = def_use_.Definition(canonical_.Canonical(y));
  if (depth >= kMaxOperandDepth || !def) return;
  spv::Op op = def->opcode;
  if (op == spv::OpUDiv || op == spv::OpShiftRightLogical)
    return QuotientFacts(ranges, *def, fact, depth, out);
  bool commutes = op == spv::OpIAdd || op == spv::OpIMul;
  if (!commutes && op != spv::OpISub && op != spv::OpShiftLeftLogical) return;
  bool s = fact.interval.is_signed;
  BinaryOpView operation(*def);
  uint32_t x = operation.left();
  int64_t c = 0;
  if (!ConstantIn(operation.right(), s, &c)) {
    if (!commutes || !ConstantIn(operation.left(), s, &c))
      return RangedOffsetFacts(ranges, *def, fact, depth, out);
    x = operation.right();
  }
  Interval xr;
  bool x_signed = false;
  if (!canonical_.IsScalarInt(x, &x_signed) || !ranges.Get(x, &xr) ||
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
  derived.value = canonical_.Canonical(x);
  const Interval& in = fact.interval;
  derived.interval = op == spv::OpIAdd   ? Interval{s, in.min - c, in.max - c}
                     : op == spv::OpISub ? Interval{s, in.min + c, in.max + c}
                                         : Interval{s, CeilDiv(in.min, c), FloorDiv(in.max, c)};
  if (!range_math::Meet(derived.interval, xr, &derived.interval)) return;  // edge not taken
  out->push_back(derived);
  OperandFacts(ranges, x, derived, depth + 1, out);
}

// `fact` holds for y = x / c or y = x >> k (unsigned, c > 0, k < 32: c = 2^k) in the
// unsigned reading: y is floor(x / c), which never wraps, so y in [lo, hi] exactly when
// x is in [lo * c, hi * c + c - 1] (`x / 3u < 4u` gives x <= 11).
void GuardFacts::QuotientFacts(GuardRanges& ranges, const Instruction& def, const GuardFact& fact,
                               int depth, Facts* out) {
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
  if (c <= 0 || !canonical_.IsScalarInt(x, &x_signed)) return;
  Interval own, unsigned_own;
  if (ranges.Get(x, &own) && range_math::Reinterpret(own, false, &unsigned_own)) xr = unsigned_own;
  GuardFact derived = fact;
  derived.value = canonical_.Canonical(x);
  derived.interval = Interval{false, fact.interval.min * c,
                              std::min<int64_t>(fact.interval.max * c + c - 1, TypeMax(false))};
  if (!range_math::Meet(derived.interval, xr, &derived.interval)) return;  // edge not taken
  out->push_back(derived);
  OperandFacts(ranges, x, derived, depth + 1, out);
}

// `fact` holds for y = a + b or y = a - b where neither operand is a constant but both
// have ranges: when no values in those ranges make the operation wrap in the fact's
// reading, y's reading is the exact sum (difference), so a = y - b and b = y - a
// (a = y + b and b = a - y) bound each operand by the fact and the other's range:
// `x + n < B` gives x <= B.max - 1 - n.min.
void GuardFacts::RangedOffsetFacts(GuardRanges& ranges, const Instruction& def,
                                   const GuardFact& fact, int depth, Facts* out) {
  bool add = def.opcode == spv::OpIAdd;
  if (!add && def.opcode != spv::OpISub) return;
  bool s = fact.interval.is_signed;
  BinaryOpView operation(def);
  Interval a, b;
  bool a_signed = false, b_signed = false;
  if (!canonical_.IsScalarInt(operation.left(), &a_signed) ||
      !canonical_.IsScalarInt(operation.right(), &b_signed) || !ranges.Get(operation.left(), &a) ||
      !ranges.Get(operation.right(), &b) || !range_math::Reinterpret(a, s, &a) ||
      !range_math::Reinterpret(b, s, &b))
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
    derived.value = canonical_.Canonical(operands[side]);
    if (!range_math::Meet(derived_intervals[side], own[side], &derived.interval)) return;
    if (derived.interval.min == own[side].min && derived.interval.max == own[side].max) continue;
    out->push_back(derived);
    OperandFacts(ranges, operands[side], derived, depth + 1, out);
  }
}

const GuardFacts::Facts& GuardFactMemo::FactsIn(const Cfg& cfg, const Block* block,
                                                const DrawOwn& draw) {
  std::vector<const Block*> chain;
  for (const Block* b = block; b && !by_block_.count(b); b = cfg.ImmediateDominator(b)) {
    chain.push_back(b);
    if (!cfg.IsReachable(b)) break;
  }
  std::shared_ptr<const GuardFacts::Facts> parent;
  if (!chain.empty() && cfg.ImmediateDominator(chain.back()))
    parent = by_block_[cfg.ImmediateDominator(chain.back())];
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    auto drawn = by_block_.find(*it);
    if (drawn != by_block_.end()) {  // drawn meanwhile by a nested query (a guard's own range)
      parent = drawn->second;
      continue;
    }
    GuardFacts::Facts own = cfg.IsReachable(*it) ? draw(*it) : GuardFacts::Facts{};
    if (!own.empty()) {
      for (size_t i = 0; parent && i < parent->size() && own.size() < GuardFacts::kMaxFacts; ++i)
        own.push_back((*parent)[i]);
      parent = std::make_shared<const GuardFacts::Facts>(std::move(own));
    }
    by_block_[*it] = parent;
  }
  const std::shared_ptr<const GuardFacts::Facts>& found = by_block_.find(block)->second;
  return found ? *found : empty_;  // `block` is in the memo: walked or known before
}

}  // namespace glint::spirv
