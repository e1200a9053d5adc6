// Internal to the integer range analysis (not a public header): every rule of the range
// analysis, owned together by the evaluator. A rule asks another by name through this
// struct (`rules_.tables.ConstantTableOf(...)`); the rules that range a kind of value
// register it in the evaluator's dispatch table (Rules()).
#ifndef GLINT_SPIRV_ANALYSIS_RANGE_RULES_H
#define GLINT_SPIRV_ANALYSIS_RANGE_RULES_H

#include <vector>

#include "SPIRV/analysis/range/integer_range_argument_cases.h"
#include "SPIRV/analysis/range/integer_range_arithmetic.h"
#include "SPIRV/analysis/range/integer_range_bit_counts.h"
#include "SPIRV/analysis/range/integer_range_bitwise.h"
#include "SPIRV/analysis/range/integer_range_builtins.h"
#include "SPIRV/analysis/range/integer_range_call_results.h"
#include "SPIRV/analysis/range/integer_range_caller_facts.h"
#include "SPIRV/analysis/range/integer_range_calls.h"
#include "SPIRV/analysis/range/integer_range_components.h"
#include "SPIRV/analysis/range/integer_range_constant_tables.h"
#include "SPIRV/analysis/range/integer_range_counted_iterations.h"
#include "SPIRV/analysis/range/integer_range_exit_differences.h"
#include "SPIRV/analysis/range/integer_range_fixed_point.h"
#include "SPIRV/analysis/range/integer_range_glsl_std450.h"
#include "SPIRV/analysis/range/integer_range_guarded.h"
#include "SPIRV/analysis/range/integer_range_indexed_locals.h"
#include "SPIRV/analysis/range/integer_range_locals.h"
#include "SPIRV/analysis/range/integer_range_locals_in_call.h"
#include "SPIRV/analysis/range/integer_range_loop_locals.h"
#include "SPIRV/analysis/range/integer_range_loop_variables.h"
#include "SPIRV/analysis/range/integer_range_memory_loads.h"
#include "SPIRV/analysis/range/integer_range_merges.h"
#include "SPIRV/analysis/range/integer_range_ordered_differences.h"
#include "SPIRV/analysis/range/integer_range_remainder_differences.h"
#include "SPIRV/analysis/range/integer_range_spec_lengths.h"
#include "SPIRV/analysis/range/integer_range_tested_after_update.h"
#include "SPIRV/analysis/range/integer_range_trip_counts.h"
#include "SPIRV/analysis/range/integer_range_value_kinds.h"
#include "SPIRV/analysis/range/integer_range_widths.h"

namespace glint::spirv {

struct RangeRules {
  RangeRules(RangeShared& shared, RangeEvaluator& evaluator)
      : kinds(shared, evaluator, *this),
        arithmetic(shared, evaluator, *this),
        bitwise(shared, evaluator, *this),
        glsl_std450(shared, evaluator, *this),
        bit_counts(shared, evaluator, *this),
        merges(shared, evaluator, *this),
        widths(shared, evaluator, *this),
        components(shared, evaluator, *this),
        call_results(shared, evaluator, *this),
        argument_cases(shared, evaluator, *this),
        builtins(shared, evaluator, *this),
        tables(shared, evaluator, *this),
        loop_variables(shared, evaluator, *this),
        locals(shared, evaluator, *this),
        locals_in_call(shared, evaluator, *this),
        parameters(shared, evaluator, *this),
        memory(shared, evaluator, *this),
        indexed_locals(shared, evaluator, *this),
        carried(shared, evaluator, *this),
        fixed_point(shared, evaluator, *this),
        counted(shared, evaluator, *this),
        tested_after_update(shared, evaluator, *this),
        trip_counts(shared, evaluator, *this),
        at_uses(shared, evaluator, *this),
        facts(shared, evaluator, *this),
        ordered_differences(shared, evaluator, *this),
        remainder_differences(shared, evaluator, *this),
        exit_differences(shared, evaluator, *this),
        spec_lengths(shared, evaluator, *this) {}

  // The rules that range the kinds of value (each registers its kinds).
  std::vector<RangeRule*> Rules() {
    return {&arithmetic,     &bitwise,    &glsl_std450,  &bit_counts, &merges,
            &widths,         &components, &call_results, &builtins,   &tables,
            &loop_variables, &locals,     &parameters,   &memory};
  }

  ValueKinds kinds;  // which kind each value is
  // Operators.
  ArithmeticRule arithmetic;
  BitwiseRule bitwise;
  GlslStd450Rule glsl_std450;
  BitCountRule bit_counts;
  MergeRule merges;
  IntegerWidths widths;
  VectorComponents components;
  CallResults call_results;
  ArgumentCases argument_cases;  // a call's result over cases of its arguments
  // Loads.
  BuiltinRule builtins;
  ConstantTables tables;
  LoopVariableRule loop_variables;
  LocalLoads locals;
  // A local assigned on several paths, during one call with given parameters.
  LocalsInCall locals_in_call;
  ParameterLoads parameters;
  MemoryLoadRule memory;
  // Parts the load rules ask: locals at run-time indices, loop-carried locals (widened,
  // solved as a fixed point, counted per iteration, tested after their update, bounded
  // by trip counts).
  IndexedLocals indexed_locals;
  CarriedLocals carried;
  LocalFixedPoint fixed_point;
  CountedIterations counted;
  TestedAfterUpdate tested_after_update;
  TripCounts trip_counts;
  // Ranges at a use: the guard facts there, and what they narrow.
  UseRanges at_uses;
  FactsAtUses facts;
  OrderedDifferences ordered_differences;
  // Differences that are remainders written out by hand: x - k * (x / k).
  RemainderDifferences remainder_differences;
  // A loop's bound minus its counter after the loop.
  ExitDifferences exit_differences;
  // Indices below an array length that is a specialization constant, for every value.
  SpecializedLengths spec_lengths;
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_RANGE_RULES_H
