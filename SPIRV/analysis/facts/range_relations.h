// Comparisons as the range analysis reads them: "x REL y" after moving x to the left,
// with its negation (the other edge of a branch) and its mirror ("y REL' x"). One
// vocabulary for the loop shapes of the evaluator and the guard facts.
#ifndef GLINT_SPIRV_ANALYSIS_RANGE_RELATIONS_H
#define GLINT_SPIRV_ANALYSIS_RANGE_RELATIONS_H

#include "SPIRV/ir/module.h"

namespace glint::spirv {

// "x REL y" after moving x to the left.
enum class Relation { kLess, kLessEqual, kGreater, kGreaterEqual, kEqual, kNotEqual, kNone };

inline Relation RelationOf(spv::Op opcode, bool* is_signed) {
  *is_signed = true;
  switch (opcode) {
    case spv::OpSLessThan:
      return Relation::kLess;
    case spv::OpSLessThanEqual:
      return Relation::kLessEqual;
    case spv::OpSGreaterThan:
      return Relation::kGreater;
    case spv::OpSGreaterThanEqual:
      return Relation::kGreaterEqual;
    case spv::OpIEqual:
      return Relation::kEqual;
    case spv::OpINotEqual:
      return Relation::kNotEqual;
    default:
      break;
  }
  *is_signed = false;
  switch (opcode) {
    case spv::OpULessThan:
      return Relation::kLess;
    case spv::OpULessThanEqual:
      return Relation::kLessEqual;
    case spv::OpUGreaterThan:
      return Relation::kGreater;
    case spv::OpUGreaterThanEqual:
      return Relation::kGreaterEqual;
    default:
      return Relation::kNone;
  }
}

inline Relation Negate(Relation relation) {  // !(x < y) is x >= y
  switch (relation) {
    case Relation::kLess:
      return Relation::kGreaterEqual;
    case Relation::kLessEqual:
      return Relation::kGreater;
    case Relation::kGreater:
      return Relation::kLessEqual;
    case Relation::kGreaterEqual:
      return Relation::kLess;
    case Relation::kEqual:
      return Relation::kNotEqual;
    case Relation::kNotEqual:
      return Relation::kEqual;
    default:
      return Relation::kNone;
  }
}

inline Relation Mirror(Relation relation) {  // x < y is y > x
  switch (relation) {
    case Relation::kLess:
      return Relation::kGreater;
    case Relation::kLessEqual:
      return Relation::kGreaterEqual;
    case Relation::kGreater:
      return Relation::kLess;
    case Relation::kGreaterEqual:
      return Relation::kLessEqual;
    default:
      return relation;
  }
}

// <, <=, > or >= (not == or !=).
inline bool IsOrdering(Relation relation) {
  return relation == Relation::kLess || relation == Relation::kLessEqual ||
         relation == Relation::kGreater || relation == Relation::kGreaterEqual;
}

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_RANGE_RELATIONS_H
