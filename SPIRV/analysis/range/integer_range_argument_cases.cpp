// Argument cases (full mode): a call's result where the callee's returns have no range
// over the whole of the ranges the call gives its parameters, but do over parts of them.
//
// What it proves: the union, over cases that together cover the given ranges, of what
// the callee returns in each case (each evaluated as the call results rule evaluates one
// call: integer_range_call_results.cpp, with the case's ranges given). Granite's
// `extract_bits(payload, offset, bits)` joins two 32-bit words when the field crosses one
// (`((offset + bits - 1) >> 5) != (offset >> 5)`); called with offset in [82, 126] and
// bits in [2, 3], neither branch is decided and the joining branch's bit count may be
// negative, but for offset in [82, 93] the field lies in one word, for offset 95 and bits
// 3 in two, and so on: each case decides the branch (integer_range_locals_in_call.cpp),
// and the result is below 2^3 in every case.
//
// How the cases are made: the parameter with the widest range is split in halves, and a
// half whose returns still have no range is split again, until every case has a range.
//
// Why it holds: during the call each parameter holds one value, inside the range given
// for it; the two halves of a split cover that range, so the cases at the leaves of the
// splits cover every combination of values the call may pass, and in each case the
// evaluation is sound for the calls whose values lie in it. The union over the cases
// therefore holds for the call.
//
// Refuses (no range, the reason says why): a case that cannot be split (every range one
// value) whose returns have no range; more than kMaxArgumentValues combinations of values
// (no case is tried); more than kMaxCasesPerCall cases for one call, or
// kMaxCasesPerAnalysis for the whole analysis (budgets that name themselves).
#include "SPIRV/analysis/range/integer_range_argument_cases.h"

#include <string>

#include "SPIRV/analysis/range/integer_range_evaluator.h"
#include "SPIRV/ir/instruction_views.h"

namespace glint::spirv {

using namespace range_detail;

IntegerRange ArgumentCases::ReturnedOverCases(const std::vector<const Instruction*>& returns,
                                              const Given& given, const IntegerRange& unsplit,
                                              bool is_signed, bool* budget_reached) {
  if (unsplit.valid) return unsplit;
  int64_t combinations = 1;
  for (const UseRanges::GivenParameter& parameter : given) {
    combinations *= parameter.range.max - parameter.range.min + 1;
    if (combinations > kMaxArgumentValues)
      return IntegerRange::None("the arguments have more than " +
                                std::to_string(kMaxArgumentValues) +
                                " combinations of values (budget kMaxArgumentValues)");
  }
  int budget = kMaxCasesPerCall;
  return Split(returns, given, unsplit, is_signed, &budget, budget_reached);
}

// What `returns` return during a call that gives `given`, unsplit.
IntegerRange ArgumentCases::Returned(const std::vector<const Instruction*>& returns,
                                     const Given& given, bool is_signed) {
  IntegerRange result;
  for (const Instruction* ret : returns) {
    IntegerRange returned =
        Convert(rules_.at_uses.RangeAt(ReturnValueView(*ret).value(), *ret, &given), is_signed);
    if (!returned.valid) return returned;
    result = Hull(result, returned, is_signed);
  }
  result.guard = nullptr;
  return result;
}

// `whole`, what `given` gives unsplit, or the union of its halves' (split again where
// they have no range).
IntegerRange ArgumentCases::Split(const std::vector<const Instruction*>& returns,
                                  const Given& given, const IntegerRange& whole, bool is_signed,
                                  int* budget, bool* budget_reached) {
  if (whole.valid) return whole;
  size_t widest = given.size();
  for (size_t i = 0; i < given.size(); ++i) {
    const IntegerRange& range = given[i].range;
    if (range.min < range.max &&
        (widest == given.size() ||
         range.max - range.min > given[widest].range.max - given[widest].range.min))
      widest = i;
  }
  if (widest == given.size()) return whole;  // one value each: nothing left to split
  const IntegerRange& range = given[widest].range;
  const int64_t middle = range.min + (range.max - range.min) / 2;
  const IntegerRange halves[2] = {IntegerRange::Of(range.is_signed, range.min, middle),
                                  IntegerRange::Of(range.is_signed, middle + 1, range.max)};
  IntegerRange result;
  for (const IntegerRange& half : halves) {
    *budget_reached = *budget <= 0 || cases_evaluated_ >= kMaxCasesPerAnalysis;
    if (*budget <= 0)
      return IntegerRange::None("more than " + std::to_string(kMaxCasesPerCall) +
                                " argument cases for one call (budget kMaxCasesPerCall)");
    if (cases_evaluated_ >= kMaxCasesPerAnalysis)
      return IntegerRange::None("more than " + std::to_string(kMaxCasesPerAnalysis) +
                                " argument cases in the module (budget kMaxCasesPerAnalysis)");
    --*budget;
    ++cases_evaluated_;
    Given part = given;
    part[widest].range = half;
    IntegerRange returned =
        Split(returns, part, Returned(returns, part, is_signed), is_signed, budget, budget_reached);
    if (!returned.valid) return returned;
    result = Hull(result, returned, is_signed);
  }
  return result;
}

}  // namespace glint::spirv
