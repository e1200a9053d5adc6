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

#include <algorithm>
#include <cstdint>
#include <memory>
#include <unordered_set>
#include <utility>
#include <vector>

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
    if (id >= value_in_progress_.size())
      value_in_progress_.resize(std::max<size_t>(size_t(id) + 1, value_in_progress_.size() * 2));
    Refusal refusal = value_in_progress_[id] ? Refusal::kAlreadyInProgress : Refusal::kNone;
    if (refusal == Refusal::kNone) {
      value_in_progress_[id] = true;
      ++values_in_progress_;
    }
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
    return values_in_progress_ == 0 && fixed_points_.empty() && callees_.empty() &&
           widening_depth_ == 0 && call_depth_ == 0;
  }

 private:
  void Leave(Scope::Kind kind, uintptr_t key) {
    switch (kind) {
      case Scope::Kind::kValue:
        value_in_progress_[uint32_t(key)] = false;
        --values_in_progress_;
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
  // Values in progress, by id (every value computed enters and leaves: a set's node
  // apiece cost more than the rest of the bookkeeping).
  std::vector<bool> value_in_progress_;
  size_t values_in_progress_ = 0;
  std::unordered_set<uint32_t> fixed_points_;  // variables
  std::unordered_set<const Function*> callees_;
  int widening_depth_ = 0;
  int call_depth_ = 0;
};

template <typename Range>
class OperandSubstitutions {
 public:
  // One re-evaluation's operands: at most one expression's values at a use
  // (kMaxContextNodes) or one operator's operands, so a search in place beats hashing.
  class Set {
   public:
    Range& operator[](uint32_t id) {
      if (Range* found = Find(id)) return *found;
      entries_.emplace_back(id, Range{});
      return entries_.back().second;
    }
    size_t count(uint32_t id) const { return Find(id) ? 1 : 0; }
    Range* Find(uint32_t id) {
      for (auto& [key, range] : entries_)
        if (key == id) return &range;
      return nullptr;
    }
    const Range* Find(uint32_t id) const { return const_cast<Set*>(this)->Find(id); }
    void clear() { entries_.clear(); }

   private:
    std::vector<std::pair<uint32_t, Range>> entries_;
  };

  // The innermost set while it lives.
  class [[nodiscard]] Scope {
   public:
    explicit Scope(OperandSubstitutions& owner) : owner_(owner) { owner_.Push(); }
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;
    ~Scope() { owner_.Pop(); }
    Set& set() { return *owner_.sets_[owner_.depth_ - 1]; }

   private:
    OperandSubstitutions& owner_;
  };
  Scope Open() { return Scope(*this); }

  // The innermost set's range for `id`; null when none is open or it has none.
  const Range* Find(uint32_t id) const {
    return depth_ == 0 ? nullptr : sets_[depth_ - 1]->Find(id);
  }
  bool Idle() const { return depth_ == 0; }

 private:
  // Sets are kept when their scope ends, emptied, for the next one to reuse (each set
  // is its own allocation: an outer scope's set stays where it is).
  void Push() {
    if (depth_ == sets_.size()) sets_.push_back(std::make_unique<Set>());
    ++depth_;
  }
  void Pop() { sets_[--depth_]->clear(); }

  std::vector<std::unique_ptr<Set>> sets_;
  size_t depth_ = 0;  // open scopes: sets_[0 .. depth_)
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_NESTING_H
