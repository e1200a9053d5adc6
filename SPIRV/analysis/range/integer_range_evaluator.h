// Internal to the integer range analysis (not a public header): the evaluator class
// shared by its source files and the small helpers they use. The rules are documented
// in integer_range_analysis.h and in each file's header comment; each .cpp file that
// defines Evaluator methods holds one concern:
//   integer_range_analysis.cpp   evaluation driver, sources (constants, built-ins),
//                                loop control variables, reference operators
//   integer_range_operators.cpp  full-mode operators (abs, |, ^, %, shifts, composites)
//   integer_range_components.cpp  components of vectors computed componentwise
//   integer_range_guarded.cpp    ranges at a use, narrowed by dominating guards
//   integer_range_ordered_differences.cpp  x - y where a guard proves x >= y
//   integer_range_caller_facts.cpp  tests on built-ins / push constants around every call
//   integer_range_locals.cpp, integer_range_loop_locals.cpp  locals (value flow)
//   integer_range_indexed_locals.cpp  locals read at run-time indices, written at constant ones
//   integer_range_constant_tables.cpp  loads from constant tables
//   integer_range_calls.cpp      parameters across calls
//   integer_range_call_results.cpp  call results
//   integer_range_widths.cpp     8- and 16-bit integers, width conversions
//   integer_range_fixed_point.cpp  loop-carried locals with general updates
//   integer_range_tested_after_update.cpp  locals tested right after their update
//   integer_range_trip_counts.cpp  counters bounded by the trip counts around them
//   integer_range_counted_iterations.cpp  one update per iteration of a counted loop
//   integer_range_bit_counts.cpp  bitCount, findLSB / findMSB, ballot bit counts
// Parts with state of their own, which the evaluator asks and which never ask for
// ranges themselves: canonical_values.cpp (what values stand for), local_definitions.cpp
// (the stores a load reads), integer_range_origins.cpp (where values come from, for
// reasons), range_guards.cpp with range_guard_switch.cpp and range_guard_vectors.cpp
// (guard facts), loop_exit_counters.cpp and loop_shapes.cpp (loop shapes).
#ifndef GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_EVALUATOR_H
#define GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_EVALUATOR_H

#include <algorithm>
#include <limits>
#include <list>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "SPIRV/analysis/range/canonical_values.h"
#include "SPIRV/analysis/range/integer_range_analysis.h"
#include "SPIRV/analysis/range/integer_range_memo.h"
#include "SPIRV/analysis/range/integer_range_nesting.h"
#include "SPIRV/analysis/range/integer_range_origins.h"
#include "SPIRV/analysis/range/local_definitions.h"
#include "SPIRV/analysis/facts/loop_shapes.h"
#include "SPIRV/analysis/memory/parameter_arguments.h"
#include "SPIRV/analysis/range/range_guards.h"
#include "SPIRV/analysis/facts/range_math.h"
#include "SPIRV/analysis/facts/range_relations.h"
#include "SPIRV/analysis/memory/value_flow.h"
#include "SPIRV/ir/block_positions.h"
#include "SPIRV/ir/cfg.h"

namespace glint::spirv {

namespace range_detail {

using range_math::kI32Max;
using range_math::kI32Min;
using range_math::kU32Max;
using range_math::TypeMax;
using range_math::TypeMin;

inline bool Fits(int64_t value, bool is_signed) {
  return value >= TypeMin(is_signed) && value <= TypeMax(is_signed);
}
inline const char* TypeName(bool is_signed) { return is_signed ? "i32" : "u32"; }

// [lo, hi] in the given type, or no range naming the operation that overflowed.
inline IntegerRange Checked(bool is_signed, int64_t lo, int64_t hi, const std::string& operation) {
  if (!Fits(lo, is_signed) || !Fits(hi, is_signed))
    return IntegerRange::None(std::string(TypeName(is_signed)) + " " + operation + " may overflow");
  return IntegerRange::Of(is_signed, lo, hi);
}

// The reference conversion rules: u32(x) needs x.min >= 0, i32(x) needs x.max <= 2^31-1.
inline IntegerRange Convert(const IntegerRange& range, bool to_signed) {
  if (!range.valid || range.is_signed == to_signed) return range;
  if (to_signed && range.max > kI32Max)
    return IntegerRange::None("conversion to i32 of a u32 value that may exceed 2147483647");
  if (!to_signed && range.min < 0)
    return IntegerRange::None("conversion to u32 of a possibly negative i32 value");
  return IntegerRange::Of(to_signed, range.min, range.max);
}

inline IntegerRange FullDomain(bool is_signed) {
  return IntegerRange::Of(is_signed, TypeMin(is_signed), TypeMax(is_signed));
}

// The same bits in the other reading, exactly: a range within one half of the type keeps
// its values or moves by 2^32 (u32 4294967292 is i32 -4); one across the half's edge
// reads as two pieces, whose hull is the whole domain. For values whose bits are what
// matters (a counter compared through a reinterpretation), not for the reference rules.
inline IntegerRange Reinterpret(const IntegerRange& range, bool to_signed) {
  if (!range.valid || range.is_signed == to_signed) return range;
  const int64_t half = kI32Max + 1, wrap = kU32Max + 1;
  if (range.min >= 0 && range.max < half) return IntegerRange::Of(to_signed, range.min, range.max);
  if (to_signed && range.min >= half)
    return IntegerRange::Of(true, range.min - wrap, range.max - wrap);
  if (!to_signed && range.max < 0)
    return IntegerRange::Of(false, range.min + wrap, range.max + wrap);
  return FullDomain(to_signed);
}

// a * b for 0 <= a, b <= 2^32, or -1 when the product leaves the u32 range.
inline int64_t BoundedProduct(int64_t a, int64_t b) {
  if (a != 0 && b > (kU32Max + 1) / a) return -1;
  return a * b;
}

// The smallest range holding `so_far` (when valid) and `next` (valid), both in
// `is_signed`'s reading: the union of the values a load, a call or a phi may give.
inline IntegerRange Hull(const IntegerRange& so_far, const IntegerRange& next, bool is_signed) {
  if (!so_far.valid) return next;
  return IntegerRange::Of(is_signed, std::min(so_far.min, next.min),
                          std::max(so_far.max, next.max));
}

// The largest value init + k*step <= bound over init in [lo, hi] (lo <= hi <= bound).
inline int64_t LastIncreasingValue(int64_t lo, int64_t hi, int64_t bound, int64_t step) {
  int64_t remainder = (bound - hi) % step;
  if (remainder == 0 || hi - lo >= step - remainder) return bound;
  return bound - remainder;
}

// The integer binary opcodes the analysis has a rule for, and which rule: the one
// table both the evaluation driver's dependencies and its range switch read.
enum class BinaryRule { kNone, kArithmetic, kAnd, kOrXor };

inline BinaryRule BinaryRuleOf(spv::Op opcode) {
  switch (opcode) {
    case spv::OpIAdd:
    case spv::OpISub:
    case spv::OpIMul:
    case spv::OpSDiv:
    case spv::OpUDiv:
    case spv::OpShiftLeftLogical:
    case spv::OpShiftRightLogical:
    case spv::OpShiftRightArithmetic:
    case spv::OpSMod:
    case spv::OpSRem:
    case spv::OpUMod:
      return BinaryRule::kArithmetic;
    case spv::OpBitwiseAnd:
      return BinaryRule::kAnd;
    case spv::OpBitwiseOr:
    case spv::OpBitwiseXor:
      return BinaryRule::kOrXor;
    default:
      return BinaryRule::kNone;
  }
}

// What reference mode says about opcodes it has no rule for.
inline std::string UnsupportedOpcode(spv::Op opcode) {
  switch (opcode) {
    case spv::OpBitwiseAnd:
      return "bitwise AND is not supported";
    case spv::OpBitwiseOr:
      return "bitwise OR is not supported";
    case spv::OpBitwiseXor:
      return "bitwise XOR is not supported";
    case spv::OpNot:
      return "bitwise NOT is not supported";
    case spv::OpSNegate:
      return "unary minus is not supported";
    case spv::OpSelect:
      return "select is not supported";
    case spv::OpBitFieldUExtract:
      return "unsigned bitfieldExtract is not supported";
    case spv::OpPhi:
      return "OpPhi (a value merged from several blocks) is not supported";
    case spv::OpFunctionCall:
      return "function call results have no range";
    case spv::OpFunctionParameter:
      return "function parameters have no range";
    case spv::OpUndef:
      return "undefined value";
    case spv::OpCompositeExtract:
      return "component of a composite value is not supported";
    default:
      return std::string(grammar::OpcodeName(opcode)) + " is not supported";
  }
}

// clamp(x, lo, hi) whose bound `lo` or `hi` has no range: the first such bound's reason.
inline IntegerRange ClampBoundsWithoutRange(const IntegerRange& lo, const IntegerRange& hi) {
  return IntegerRange::None("clamp bounds have no range: " + (lo.valid ? hi : lo).reason);
}

}  // namespace range_detail

using range_detail::BinaryRule;
using range_detail::BinaryRuleOf;
using range_detail::UnsupportedOpcode;

// The local a fixed point is solved for (integer_range_fixed_point.cpp): the element a
// load reads, what reaches it, and the walk's state.
struct FixedPointTarget {
  uint32_t variable = 0;
  std::vector<uint32_t> path;
  const LocalDefinitions* local = nullptr;
  std::vector<std::pair<uint32_t, const Instruction*>> updates;  // (value, its store)
  std::unordered_map<uint32_t, bool> reaches;                    // value -> reaches a cycle load
  std::unordered_set<const Instruction*> visiting;  // loads of other locals being evaluated
  size_t reach_work = 0;
  size_t work = 0;
  // Counted iterations (integer_range_counted_iterations.cpp): loads of `counter` in
  // `loop` read `counter_value`; cycle loads and other locals' stores are checked there.
  uint32_t counter = 0;
  int64_t counter_value = 0;
  const NaturalLoop* loop = nullptr;
  const Instruction* counter_latch_store = nullptr;
  // At a use in the loop: what a load of the local that precedes the update in every
  // iteration reads (the local at the iteration's start); others read `x`.
  std::optional<IntegerRange> x_before;
  const Instruction* update = nullptr;
};

// A counter's one update and its resets (integer_range_trip_counts.cpp).
// The fixed point's helpers (integer_range_fixed_point.cpp), shared with counted
// iterations: the operators an update may pass on its way to a cycle load, and the
// values stored where a load of a local reads (values and updates).
bool FixedPointOp(const Instruction& def);
std::vector<std::pair<uint32_t, const Instruction*>> StoredValues(const LocalDefinitions& local);

struct CountedLocal {
  int64_t step = 0;                        // added per run of the update
  std::vector<const Instruction*> resets;  // every other store of the local
};

// The value a guard fact must name to be about a use's value (integer_range_guarded.cpp).
struct FactTarget {
  uint32_t canonical = 0;  // Canonical(id)
  bool keyed = false;      // id reads component `index` of the canonical vector `vector`
  uint32_t vector = 0;
  uint32_t index = 0;
  bool About(const GuardFact& fact) const;
};

class IntegerRangeAnalysis::Evaluator {
 public:
  Evaluator(Module& module, const RangeInputs& inputs, const IntegerRangeOptions& options)
      : module_(module), inputs_(inputs), options_(options) {}

  IntegerRange RangeOf(uint32_t id);
  IntegerRange RangeAt(uint32_t id, const Instruction& use);
  // A value at a use inside the counted loop of a local solved by counted iterations:
  // the hull over the iterations of its value there; None when not such a use
  // (integer_range_counted_iterations.cpp).
  IntegerRange CountedAtUse(uint32_t id, const Instruction& use);
  bool ProvenBelowArrayLength(uint32_t index, const Instruction& use, uint32_t block_pointer,
                              uint32_t member, const Instruction** guard);

  uint32_t Canonical(uint32_t id) { return canonical_.Canonical(id); }
  bool IsScalarInt(uint32_t id, bool* is_signed) { return canonical_.IsScalarInt(id, is_signed); }

 private:
  // Evaluation driver.
  std::vector<uint32_t> Dependencies(const Instruction& def);
  IntegerRange Compute(uint32_t id);
  IntegerRange ComputeScalar(const Instruction& def, bool is_signed);
  IntegerRange Operand(uint32_t id) const;
  bool Full() const { return options_.mode == RangeAnalysisMode::kFull; }
  std::string NotInReference(spv::Op opcode) const {
    return UnsupportedOpcode(opcode) + " in reference mode";
  }

  // Sources.
  IntegerRange ConstantRange(const Instruction& def, bool is_signed) const;
  IntegerRange LoadRange(const Instruction& load, bool is_signed);
  IntegerRange BuiltinScalar(uint32_t variable, bool is_signed);
  IntegerRange BuiltinComponent(uint32_t variable, uint32_t component, bool is_signed);
  IntegerRange DispatchComponent(uint32_t variable, uint32_t builtin, uint32_t component,
                                 bool is_signed);
  bool WorkgroupSize(uint32_t variable, int64_t size[3], std::string* why);
  bool InvocationCount(uint32_t variable, int64_t* count, std::string* why) const;

  // Loops.
  IntegerRange LoopVariableLoad(const Instruction& load, uint32_t variable);
  IntegerRange LoopRange(const LoopShape& shape, const IntegerRange& init) const;

  // Derived.
  IntegerRange Bitcast(const Instruction& def, bool is_signed) const;
  IntegerRange Binary(const Instruction& def, bool is_signed) const;
  IntegerRange BinaryOfRanges(spv::Op opcode, const IntegerRange& a, const IntegerRange& b,
                              bool is_signed) const;
  IntegerRange Arithmetic(spv::Op opcode, const IntegerRange& a, const IntegerRange& b,
                          bool is_signed) const;
  IntegerRange Divide(const IntegerRange& a, const IntegerRange& b, bool is_signed) const;
  IntegerRange Shift(spv::Op opcode, const IntegerRange& a, const IntegerRange& b,
                     bool is_signed) const;
  IntegerRange Modulo(const IntegerRange& a, const IntegerRange& b, bool is_signed) const;
  IntegerRange ExtInst(const Instruction& def, bool is_signed) const;
  IntegerRange MinMax(uint32_t instruction, uint32_t a_id, uint32_t b_id) const;
  IntegerRange Clamp(uint32_t instruction, const Instruction& def) const;
  IntegerRange BitwiseAnd(const Instruction& def, bool is_signed) const;
  IntegerRange Select(const Instruction& def, bool is_signed) const;
  IntegerRange UnsignedBitField(const Instruction& def, bool is_signed) const;
  IntegerRange BitFieldInsert(const Instruction& def, bool is_signed) const;
  IntegerRange Phi(const Instruction& def, bool is_signed) const;
  IntegerRange ExtractBuiltinComponent(const Instruction& def, bool is_signed);
  bool ComponentwiseBitcast(const Instruction& def) const;

  // Bit counts and bit positions (integer_range_bit_counts.cpp).
  IntegerRange BitCount(const Instruction& def, bool is_signed) const;
  IntegerRange BitPosition(uint32_t instruction, uint32_t x_id, bool is_signed) const;
  IntegerRange BallotBitCount(const Instruction& def, bool is_signed) const;

  // Loads from variables that only hold their constant initializer
  // (integer_range_constant_tables.cpp).
  static constexpr size_t kMaxTableScalars = 4096;
  const Instruction* TableWriter(uint32_t pointer, int depth) const;
  const Instruction* ConstantTableOf(uint32_t pointer, std::vector<uint32_t>* indices);
  IntegerRange TableLoad(const Instruction& table, const std::vector<uint32_t>& indices,
                         bool is_signed, int64_t component = -1);

  // Locals read at run-time indices and written at constant ones
  // (integer_range_indexed_locals.cpp).
  static constexpr uint32_t kRuntimeIndex = ~0u;  // a path index that is not a constant
  static constexpr uint32_t kMaxIndexedElements = 64;
  struct IndexedStore {
    const Instruction* store;
    std::vector<uint32_t> path;  // constant indices from the variable
  };
  bool IndexedLocalStores(uint32_t pointer, const std::vector<uint32_t>& path,
                          std::vector<IndexedStore>* stores, int depth);
  IntegerRange IndexedLocalLoad(const Instruction& load, bool is_signed);
  std::string UncoveredElement(const Instruction& load, const Instruction& variable,
                               const std::vector<uint32_t>& path,
                               const std::vector<IndexedStore>& stores);
  uint32_t ElementCount(const Instruction& variable, const std::vector<uint32_t>& path,
                        size_t position) const;
  IntegerRange PartsOf(uint32_t stored, const std::vector<uint32_t>& path, size_t written,
                       const Instruction* store, bool is_signed);
  uint32_t ElementsOfType(uint32_t type_id) const;

  // An Input built-in's element at a non-constant index, without a range of its own.
  IntegerRange DynamicBuiltinElement(const Instruction& variable);

  // Full-mode operators (integer_range_operators.cpp).
  IntegerRange AbsoluteValue(uint32_t x_id, bool is_signed) const;
  IntegerRange BitwiseOrXor(const Instruction& def, bool is_signed) const;
  IntegerRange WideModulo(spv::Op opcode, const IntegerRange& a, const IntegerRange& b) const;

  // Components of computed vectors (integer_range_components.cpp).
  static constexpr int kMaxComponentDepth = 16;
  IntegerRange ComponentRange(uint32_t vector, uint32_t component, int depth = 0);
  IntegerRange ComputeComponent(uint32_t vector, uint32_t component, int depth);
  IntegerRange ComponentOfGlsl(const Instruction& def, uint32_t component, int depth,
                               bool is_signed);
  IntegerRange ComponentOfLoad(const Instruction& load, uint32_t component, int depth,
                               bool is_signed);
  IntegerRange ComponentOfLocal(const Instruction& load, uint32_t component, int depth,
                                bool is_signed);

  // Locals through the value-flow view (integer_range_locals.cpp).
  IntegerRange LocalUnion(const Instruction& load, bool is_signed);
  IntegerRange OrdinaryUnion(const Instruction& load, const LocalDefinitions& local,
                             bool is_signed);
  IntegerRange StoredRange(uint32_t value, const Instruction* store);

  // Parameters across calls (integer_range_calls.cpp).
  static constexpr size_t kMaxGuardedCallSites = 64;
  IntegerRange ParameterLoad(const Instruction& parameter, bool is_signed);
  struct ArgumentPartList {
    std::vector<uint32_t> parts;             // scalars, one per call that shows its part
    std::vector<const Instruction*> stores;  // parts[i]'s store
    std::vector<std::pair<uint32_t, uint32_t>> components;  // (computed vector, index)
    std::string why;                                        // non-empty: no range
  };
  ArgumentPartList ArgumentParts(const Instruction& chain, const CallArguments& arguments) const;
  void CollectArgumentParts(const CallArguments& arguments, const std::vector<uint32_t>& path,
                            int depth, ArgumentPartList* list) const;
  IntegerRange ParameterPartLoad(const Instruction& chain, const Instruction& parameter,
                                 bool is_signed);
  IntegerRange ArgumentUnion(const std::vector<uint32_t>& values,
                             const std::vector<const Instruction*>& stores, bool is_signed);

  // Call results (integer_range_call_results.cpp).
  static constexpr size_t kMaxReturns = 64;
  static constexpr int kMaxCallDepth = 8;
  std::vector<const Instruction*> ReturnsOf(const Function& function) const;
  std::vector<uint32_t> ReturnedValues(const Instruction& call);
  IntegerRange CallResult(const Instruction& call, bool is_signed);

  // Integers of other widths (integer_range_widths.cpp).
  bool IntWidth(uint32_t type_id, bool* is_signed, uint32_t* width) const;
  uint32_t WidthConversionSource(const Instruction& def) const;
  IntegerRange NarrowValue(const Instruction& def, bool is_signed, uint32_t width);
  IntegerRange WidthConversion(const Instruction& def, bool is_signed, uint32_t width);

  // Loop-carried locals (integer_range_loop_locals.cpp).
  static constexpr int kMaxWideningDepth = 8;
  IntegerRange WidenCarried(const LocalDefinitions& local,
                            const std::vector<const CarriedUpdate*>& widened, IntegerRange initial,
                            bool is_signed);
  bool CarriedStep(const CarriedUpdate& update, bool is_signed, range_math::Interval* step,
                   std::string* why);
  range_math::Interval GuardBound(uint32_t value, const Instruction& use, bool is_signed);
  bool ReadsOnlyFrom(const Instruction& loaded, const LocalDefinitions& local);

  // Loop-carried locals with general updates (integer_range_fixed_point.cpp).
  static constexpr int kMaxFixedPointRounds = 8;
  static constexpr int kMaxNarrowings = 2;
  static constexpr size_t kMaxFixedPointNodes = 256;
  using RangeCache = std::unordered_map<uint32_t, std::optional<IntegerRange>>;
  bool CycleDependent(const Instruction& load);
  bool StoresInALoop(const Instruction& load, const LocalDefinitions& local);
  bool FixedPointTargetOf(const Instruction& load, FixedPointTarget* target);
  bool IsCycleLoad(const Instruction& load, const FixedPointTarget& target);
  bool ReachesCycle(uint32_t id, FixedPointTarget* target);
  IntegerRange FixedPointLocal(const Instruction& load, bool is_signed);
  IntegerRange SolveFixedPoint(FixedPointTarget* target, bool is_signed);
  // Counted iterations (integer_range_counted_iterations.cpp).
  static constexpr int64_t kMaxCountedIterations = 64;
  std::optional<IntegerRange> CountedIterations(FixedPointTarget* target,
                                                const std::optional<IntegerRange>& initial,
                                                bool is_signed, std::string* why);
  bool IsIterationCounterLoad(const Instruction& load, const FixedPointTarget& target);
  bool PrecedesUpdate(const Instruction& load, const FixedPointTarget& target);
  IntegerRange CountedIterationsLocal(const Instruction& load, bool is_signed);
  // integer_range_tested_after_update.cpp
  IntegerRange TestedAfterUpdate(const Instruction& load, const CarriedUpdate& update,
                                 const IntegerRange& initial, bool is_signed);
  IntegerRange EnteringValues(const CarriedUpdate& update, bool is_signed);
  struct CountedSequence {
    FixedPointTarget target;          // counter, loop and latch store set
    std::vector<int64_t> values;      // the counter's value in each iteration
    IntegerRange initial;             // the local's values before the first iteration
    std::vector<IntegerRange> after;  // the local's values up to the end of each iteration
  };
  std::unordered_map<uint32_t, CountedSequence> counted_sequences_;  // variable ->
  bool RunsBefore(const Instruction& first, const Instruction& second);
  IntegerRange Narrowed(FixedPointTarget* target, const std::optional<IntegerRange>& initial,
                        std::optional<IntegerRange> x, bool is_signed);
  std::optional<IntegerRange> BuiltinParts(const LocalDefinitions& local, bool is_signed);
  std::optional<IntegerRange> InitialValues(FixedPointTarget* target, bool is_signed);
  std::optional<IntegerRange> FixedPointStep(FixedPointTarget* target,
                                             const std::optional<IntegerRange>& initial,
                                             const std::optional<IntegerRange>& x, bool is_signed);
  std::optional<IntegerRange> EvalUnder(uint32_t id, FixedPointTarget* target,
                                        const std::optional<IntegerRange>& x,
                                        const std::vector<GuardFact>* facts, RangeCache* cache);
  std::optional<IntegerRange> LoadUnder(const Instruction& load, FixedPointTarget* target,
                                        const std::optional<IntegerRange>& x);
  std::optional<IntegerRange> OperatorUnder(const Instruction& def, bool is_signed,
                                            FixedPointTarget* target,
                                            const std::optional<IntegerRange>& x,
                                            const std::vector<GuardFact>* facts, RangeCache* cache);

  // Counters bounded by trip counts (integer_range_trip_counts.cpp).
  // -1 when refused; `why` (when given) then names an input the count depends on, if one
  // is the cause (a bound or start without a range), else stays empty.
  int64_t TripCount(const Cfg& cfg, const NaturalLoop& loop, std::string* why = nullptr);
  int64_t ExitTripCount(const ExitCounter& counter, std::string* why = nullptr);
  bool CountedStores(const CarriedUpdate& update, uint32_t variable, CountedLocal* counted,
                     std::string* why);
  IntegerRange ResetRange(const CountedLocal& counted, uint32_t variable, bool is_signed);
  int64_t UpdateRuns(const Instruction& store, const CountedLocal& counted, std::string* why);
  bool EnteredAfterReset(const Cfg& cfg, const NaturalLoop& loop, const CountedLocal& counted);
  IntegerRange CountedUpdates(const Instruction& load, const LocalDefinitions& local,
                              bool is_signed);

  // Ranges at a use (integer_range_guarded.cpp).
  static constexpr size_t kMaxContextNodes = 48;
  static constexpr int kMaxContextDepth = 6;
  bool Expandable(const Instruction& def);
  void ContextNodes(uint32_t id, std::vector<uint32_t>* order);
  IntegerRange ApplyFacts(uint32_t id, IntegerRange range, const std::vector<GuardFact>& facts);
  // The guard facts at `use`: its block's, then those its function inherits from every
  // call (integer_range_caller_facts.cpp).
  const std::vector<GuardFact>* FactsAt(const Instruction& use);
  const std::vector<GuardFact>& CallerFacts(const Function& function);
  // The facts of the edge into `block` (its own only; GuardFactMemo adds its
  // dominators'). `leaf_ranges`: draw over LeafRange (call-site facts).
  GuardFacts::Facts DrawFacts(const Cfg& cfg, const Block* block, bool leaf_ranges);
  bool RangeOf(uint32_t id, range_math::Interval* range);
  // A constant's or an invocation constant's range; false for any other value.
  bool LeafRange(uint32_t id, range_math::Interval* range);
  FactTarget TargetOf(uint32_t id, const std::vector<GuardFact>& facts);
  // Differences under an order (integer_range_ordered_differences.cpp).
  static constexpr int kMaxSameValueDepth = 4;
  IntegerRange OrderedDifference(const Instruction& sub, const IntegerRange& own,
                                 const std::vector<GuardFact>& facts);
  bool SameValue(uint32_t first, uint32_t second, int depth);
  bool SameLocalVersion(const Instruction& a, const Instruction& b);

  Module& module_;
  // The analysis context's facts: def-use, built-ins, calls, parameter arguments, loop
  // shapes, CFGs and value flow (integer_range_analysis.h).
  const RangeInputs inputs_;
  IntegerRangeOptions options_;
  IntegerRangeMemo memo_;
  std::unordered_map<uint64_t, IntegerRange> component_ranges_;  // (vector << 5 | k)
  std::unordered_set<uint32_t> expanded_;
  std::unordered_map<uint32_t, bool> constant_tables_;  // variable -> nothing writes it
  // What values stand for (canonical_values.h): structure only, never ranges.
  CanonicalValues canonical_{module_, inputs_, options_.mode == RangeAnalysisMode::kFull};
  // Where values without a range were read from (integer_range_origins.h): texts only.
  ValueOrigins origins_{inputs_.def_use, canonical_};
  // What loads of locals may read (local_definitions.h): structure only, never ranges.
  LocalDefinitionsAnalysis local_definitions_{inputs_.def_use, inputs_.builtins,
                                              options_.mode == RangeAnalysisMode::kFull, canonical_,
                                              origins_};
  // Guard facts (range_guards.h): conditions read from structure, facts drawn over
  // ranges this evaluator computes first (DrawFacts), memoized per block.
  GuardConditions conditions_{inputs_.def_use, canonical_};
  GuardFacts guard_facts_{inputs_.def_use, canonical_, conditions_};
  GuardFactMemo own_facts_;
  // The guards at calls, for the facts a callee inherits (integer_range_caller_facts.cpp):
  // drawn over the ranges of constants and invocation constants only (LeafRange), so
  // drawing them never starts an evaluation (which, begun inside a callee's, could meet
  // values still being computed and keep a poorer answer for them).
  GuardFactMemo call_site_facts_;
  // What is in progress (integer_range_nesting.h): a guard read while widening a
  // loop-carried local may ask again for a value whose Compute is on the call stack
  // (RangeOf then refuses it), a fixed point may meet its own local, a call result its
  // own callee.
  NestedEvaluations in_progress_{{kMaxWideningDepth, kMaxCallDepth}};
  std::unordered_map<const Instruction*, bool> cycle_dependent_;  // load -> CycleDependent
  std::unordered_map<const Function*, std::vector<GuardFact>> caller_facts_;
  std::unordered_map<const Block*, std::vector<GuardFact>> merged_facts_;  // own + inherited
  // Operand ranges of a re-evaluation (at a use, or under a fixed point's iterate),
  // read before memo_ (Operand()).
  OperandSubstitutions<IntegerRange> substituted_;
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_ANALYSIS_INTEGER_RANGE_EVALUATOR_H
