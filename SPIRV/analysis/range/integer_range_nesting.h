// What the range evaluator has in progress, so that it never starts what it is already
// doing and never nests deeper than its budgets.
//
// The evaluator is demand-driven: a guard fact, a widening or a call result asks for
// more ranges while another is being computed, and some of those questions lead back to
// a value, a local's fixed point or a callee already under way. Each kind of nested
// evaluation is entered through a scope that refuses when its subject is already in
// progress or when its depth budget is spent, and leaves when the scope ends (on every
// return path). The refusal says which of the two happened; each caller words its own
// reason (integer_range_*.cpp), so the budgets still name themselves where users read
// them.
//
//   value         a value whose range is being computed (RangeOf)
//   fixed point   a local's fixed point or counted iterations, per variable; shares the
//                 widening depth (kMaxWideningDepth)
//   widening      a loop-carried local's widening (kMaxWideningDepth)
//   callee        a function whose returned values are being ranged (kMaxCallDepth)
//
// OperandSubstitutions: an expression re-evaluated with other ranges for its operands
// than the memo's (at a use, narrowed by guard facts: RangeAt; under a fixed point's
// iterate: OperatorUnder). Each re-evaluation opens its own set, which the operand
// reader consults before the memo, and the enclosing one's set returns when it ends (a
// stored value's range asked at its store may start a RangeAt inside another).
#ifndef GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_NESTING_H
#define GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_NESTING_H

#include <cstdint>
#include <deque>
#include <unordered_map>
#include <unordered_set>

#include "SPIRV/ir/module.h"

namespace glint::spirv {

class NestedEvaluations {
 public:
  struct Budgets {
    int widening_depth;
    int call_depth;
  };
  explicit NestedEvaluations(const Budgets& budgets) : budgets_(budgets) {}
  NestedEvaluations(const NestedEvaluations&) = delete;
  NestedEvaluations& operator=(const NestedEvaluations&) = delete;

  enum class Refusal { kNone, kAlreadyInProgress, kTooDeep };

  // Holds one entry while it lives (when entered).
  class [[nodiscard]] Scope {
   public:
    Scope(Scope&& other) noexcept
        : owner_(other.owner_), kind_(other.kind_), key_(other.key_), refusal_(other.refusal_) {
      other.owner_ = nullptr;
    }
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;
    Scope& operator=(Scope&&) = delete;
    ~Scope() {
      if (owner_) owner_->Leave(kind_, key_);
    }
    bool entered() const { return refusal_ == Refusal::kNone; }
    Refusal refusal() const { return refusal_; }

   private:
    friend class NestedEvaluations;
    enum class Kind { kValue, kFixedPoint, kWidening, kCallee };
    Scope(NestedEvaluations* owner, Kind kind, uintptr_t key, Refusal refusal)
        : owner_(refusal == Refusal::kNone ? owner : nullptr),
          kind_(kind),
          key_(key),
          refusal_(refusal) {}
    NestedEvaluations* owner_;  // null: nothing to leave
    Kind kind_;
    uintptr_t key_;
    Refusal refusal_;
  };

  Scope Value(uint32_t id) {
    Refusal refusal = values_.count(id) ? Refusal::kAlreadyInProgress : Refusal::kNone;
    if (refusal == Refusal::kNone) values_.insert(id);
    return Scope(this, Scope::Kind::kValue, id, refusal);
  }
  Scope FixedPoint(uint32_t variable) {
    Refusal refusal = fixed_points_.count(variable)                ? Refusal::kAlreadyInProgress
                      : widening_depth_ >= budgets_.widening_depth ? Refusal::kTooDeep
                                                                   : Refusal::kNone;
    if (refusal == Refusal::kNone) {
      fixed_points_.insert(variable);
      ++widening_depth_;
    }
    return Scope(this, Scope::Kind::kFixedPoint, variable, refusal);
  }
  Scope Widening() {
    Refusal refusal =
        widening_depth_ >= budgets_.widening_depth ? Refusal::kTooDeep : Refusal::kNone;
    if (refusal == Refusal::kNone) ++widening_depth_;
    return Scope(this, Scope::Kind::kWidening, 0, refusal);
  }
  Scope Callee(const Function* callee) {
    Refusal refusal = callees_.count(callee)               ? Refusal::kAlreadyInProgress
                      : call_depth_ >= budgets_.call_depth ? Refusal::kTooDeep
                                                           : Refusal::kNone;
    if (refusal == Refusal::kNone) {
      callees_.insert(callee);
      ++call_depth_;
    }
    return Scope(this, Scope::Kind::kCallee, reinterpret_cast<uintptr_t>(callee), refusal);
  }

  bool Following(const Function* callee) const { return callees_.count(callee) != 0; }
  // Nothing in progress (every scope has ended).
  bool Idle() const {
    return values_.empty() && fixed_points_.empty() && callees_.empty() && widening_depth_ == 0 &&
           call_depth_ == 0;
  }

 private:
  void Leave(Scope::Kind kind, uintptr_t key) {
    switch (kind) {
      case Scope::Kind::kValue:
        values_.erase(uint32_t(key));
        break;
      case Scope::Kind::kFixedPoint:
        fixed_points_.erase(uint32_t(key));
        --widening_depth_;
        break;
      case Scope::Kind::kWidening:
        --widening_depth_;
        break;
      case Scope::Kind::kCallee:
        callees_.erase(reinterpret_cast<const Function*>(key));
        --call_depth_;
        break;
    }
  }

  Budgets budgets_;
  std::unordered_set<uint32_t> values_;
  std::unordered_set<uint32_t> fixed_points_;  // variables
  std::unordered_set<const Function*> callees_;
  int widening_depth_ = 0;
  int call_depth_ = 0;
};

template <typename Range>
class OperandSubstitutions {
 public:
  using Set = std::unordered_map<uint32_t, Range>;

  // The innermost set while it lives.
  class [[nodiscard]] Scope {
   public:
    explicit Scope(OperandSubstitutions& owner) : owner_(owner) { owner_.sets_.emplace_back(); }
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;
    ~Scope() { owner_.sets_.pop_back(); }
    Set& set() { return owner_.sets_.back(); }

   private:
    OperandSubstitutions& owner_;
  };
  Scope Open() { return Scope(*this); }

  // The innermost set's range for `id`; null when none is open or it has none.
  const Range* Find(uint32_t id) const {
    if (sets_.empty()) return nullptr;
    auto found = sets_.back().find(id);
    return found == sets_.back().end() ? nullptr : &found->second;
  }
  bool Idle() const { return sets_.empty(); }

 private:
  std::deque<Set> sets_;  // a deque: an outer scope's set stays where it is
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_NESTING_H
