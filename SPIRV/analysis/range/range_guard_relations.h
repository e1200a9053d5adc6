// Internal to the guard facts (range_guards.cpp and its rule files): the interval a
// relation (range_relations.h) allows.
#ifndef GLINT_SPIRV_ANALYSIS_RANGE_GUARD_RELATIONS_H
#define GLINT_SPIRV_ANALYSIS_RANGE_GUARD_RELATIONS_H

#include "SPIRV/analysis/facts/range_math.h"
#include "SPIRV/analysis/facts/range_relations.h"
#include "SPIRV/ir/module.h"

namespace glint::spirv::guard_detail {

using range_math::Interval;
using range_math::TypeMax;
using range_math::TypeMin;

// The interval x lies in when "x REL y" holds and y lies in `y`; false when the
// relation says nothing (or the edge cannot be taken).
inline bool IntervalFor(Relation relation, const Interval& y, Interval* x) {
  bool s = y.is_signed;
  *x = Interval{s, TypeMin(s), TypeMax(s)};
  switch (relation) {
    case Relation::kLess:
      if (y.max == TypeMin(s)) return false;
      x->max = y.max - 1;
      break;
    case Relation::kLessEqual:
      x->max = y.max;
      break;
    case Relation::kGreater:
      if (y.min == TypeMax(s)) return false;
      x->min = y.min + 1;
      break;
    case Relation::kGreaterEqual:
      x->min = y.min;
      break;
    case Relation::kEqual:
      *x = y;
      break;
    default:
      return false;
  }
  return x->min != TypeMin(s) || x->max != TypeMax(s);
}

}  // namespace glint::spirv::guard_detail

#endif  // GLINT_SPIRV_ANALYSIS_RANGE_GUARD_RELATIONS_H
