// Internal to the guard facts (range_guards.cpp and its rule files): comparisons as
// relations "x REL y", and the interval a relation allows.
#ifndef GLINT_SPIRV_ANALYSIS_RANGE_GUARD_RELATIONS_H
#define GLINT_SPIRV_ANALYSIS_RANGE_GUARD_RELATIONS_H

#include "SPIRV/analysis/range_math.h"
#include "SPIRV/ir/module.h"

namespace glint::spirv::guard_detail {

using range_math::Interval;
using range_math::TypeMax;
using range_math::TypeMin;

// "x REL y" after moving x to the left.
enum Relation { kLess, kLessEqual, kGreater, kGreaterEqual, kEqual, kNotEqual, kNone };

inline Relation RelationOf(spv::Op opcode, bool* is_signed) {
  *is_signed = true;
  switch (opcode) {
    case spv::OpSLessThan:
      return kLess;
    case spv::OpSLessThanEqual:
      return kLessEqual;
    case spv::OpSGreaterThan:
      return kGreater;
    case spv::OpSGreaterThanEqual:
      return kGreaterEqual;
    case spv::OpIEqual:
      return kEqual;
    case spv::OpINotEqual:
      return kNotEqual;
    default:
      break;
  }
  *is_signed = false;
  switch (opcode) {
    case spv::OpULessThan:
      return kLess;
    case spv::OpULessThanEqual:
      return kLessEqual;
    case spv::OpUGreaterThan:
      return kGreater;
    case spv::OpUGreaterThanEqual:
      return kGreaterEqual;
    default:
      return kNone;
  }
}

inline Relation Negate(Relation relation) {  // !(x < y) is x >= y
  switch (relation) {
    case kLess:
      return kGreaterEqual;
    case kLessEqual:
      return kGreater;
    case kGreater:
      return kLessEqual;
    case kGreaterEqual:
      return kLess;
    case kEqual:
      return kNotEqual;
    case kNotEqual:
      return kEqual;
    default:
      return kNone;
  }
}

inline Relation Mirror(Relation relation) {  // x < y is y > x
  switch (relation) {
    case kLess:
      return kGreater;
    case kLessEqual:
      return kGreaterEqual;
    case kGreater:
      return kLess;
    case kGreaterEqual:
      return kLessEqual;
    default:
      return relation;
  }
}

// The interval x lies in when "x REL y" holds and y lies in `y`; false when the
// relation says nothing (or the edge cannot be taken).
inline bool IntervalFor(Relation relation, const Interval& y, Interval* x) {
  bool s = y.is_signed;
  *x = Interval{s, TypeMin(s), TypeMax(s)};
  switch (relation) {
    case kLess:
      if (y.max == TypeMin(s)) return false;
      x->max = y.max - 1;
      break;
    case kLessEqual:
      x->max = y.max;
      break;
    case kGreater:
      if (y.min == TypeMax(s)) return false;
      x->min = y.min + 1;
      break;
    case kGreaterEqual:
      x->min = y.min;
      break;
    case kEqual:
      *x = y;
      break;
    default:
      return false;
  }
  return x->min != TypeMin(s) || x->max != TypeMax(s);
}

}  // namespace glint::spirv::guard_detail

#endif  // GLINT_SPIRV_ANALYSIS_RANGE_GUARD_RELATIONS_H
