// Integer range analysis (see integer_range_analysis.h for the rules and their SPIR-V
// mapping): its entry points, the ranges' reasons (bounded in length), and the opcode
// vocabulary the rules share (BinaryRuleOf, UnsupportedOpcode).
//
// The evaluation itself is the evaluator's (integer_range_evaluator.h: the memo and the
// fixed point over values) and its rules', one part per kind of value, each in a file of
// its own whose header comment gives its proof; docs/RANGE_ANALYSIS.md lists what full
// mode adds to the reference rules, each with its shader pattern. Every rule is sound
// for every value of its operands; reference mode names the rule it lacks ("bitwise AND
// is not supported in reference mode").
#include "SPIRV/analysis/range/integer_range_analysis.h"
#include "SPIRV/analysis/range/integer_range_evaluator.h"

#include <algorithm>
#include <charconv>
#include <limits>
#include <string_view>
#include <unordered_set>

#include <spirv/unified1/GLSL.std.450.h>

#include "SPIRV/analysis/range/range_reason_text.h"
#include "SPIRV/ir/cfg.h"
#include "SPIRV/ir/instruction_views.h"
#include "SPIRV/ir/workgroup_size.h"

namespace glint::spirv {

namespace {

// A reason wraps the reason of what the value came from, one hop per local, parameter or
// return ("a value stored to the local has no range: an argument passed to the parameter
// has no range: ... <root cause>"). Along a chain of calls each value's text grows by a
// hop, and each value keeps its own: memory and time quadratic in the chain's length
// (a compute shader of 500 chained helpers held 1.5 KB of reasons per input word). Past
// kMaxReasonHops the middle is elided: the first three hops stay, then "[N more steps] "
// before the last hop, and the root cause.
constexpr size_t kMaxReasonHops = 6;
using range_reason_text::kHop;
using range_reason_text::kMoreClose;
using range_reason_text::kMoreOpen;

// The hops `part` stands for: 1, or N + 1 when it starts with "[N more steps] " (then
// `rest` is what follows the marker).
size_t HopsIn(std::string_view part, std::string_view* rest) {
  *rest = part;
  size_t close = part.find(kMoreClose);
  if (part.substr(0, 1) != kMoreOpen || close == std::string_view::npos) return 1;
  size_t steps = 0;
  auto [end, error] = std::from_chars(part.data() + 1, part.data() + close, steps);
  if (error != std::errc() || end != part.data() + close) return 1;
  *rest = part.substr(close + kMoreClose.size());
  return steps + 1;
}

std::string BoundedReason(std::string reason) {
  std::string_view text(reason);
  size_t hop_count = 0;  // most reasons have few hops: counted before anything is built
  for (size_t at = text.find(kHop); at != std::string_view::npos && hop_count <= kMaxReasonHops;
       at = text.find(kHop, at + kHop.size()))
    ++hop_count;
  if (hop_count <= kMaxReasonHops) return reason;
  std::vector<std::string_view> parts;
  for (size_t at = 0;;) {
    size_t hop = text.find(kHop, at);
    if (hop == std::string_view::npos) {
      parts.push_back(text.substr(at));
      break;
    }
    parts.push_back(text.substr(at, hop - at));
    at = hop + kHop.size();
  }
  size_t hops = parts.size() - 1;
  if (hops <= kMaxReasonHops) return reason;
  size_t elided = 0;
  std::string_view ignored, last;
  for (size_t i = 3; i + 1 < hops; ++i) elided += HopsIn(parts[i], &ignored);
  elided += HopsIn(parts[hops - 1], &last) - 1;
  std::string out;
  for (size_t i = 0; i < 3; ++i) out.append(parts[i]).append(kHop);
  out.append(kMoreOpen).append(std::to_string(elided)).append(kMoreClose);
  out.append(last).append(kHop).append(parts[hops]);
  return out;
}

}  // namespace

IntegerRange IntegerRange::None(std::string why) {
  IntegerRange range;
  range.reason = BoundedReason(std::move(why));
  return range;
}

IntegerRange IntegerRange::Of(bool is_signed, int64_t min, int64_t max) {
  IntegerRange range;
  range.valid = true;
  range.is_signed = is_signed;
  range.min = min;
  range.max = max;
  return range;
}

BinaryRule BinaryRuleOf(spv::Op opcode) {
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

std::string range_detail::UnsupportedOpcode(spv::Op opcode) {
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

// ---------------------------------------------------------------------------

IntegerRangeAnalysis::IntegerRangeAnalysis(Module& module, const RangeInputs& inputs,
                                           const IntegerRangeOptions& options)
    : options_(options), evaluator_(std::make_unique<RangeEvaluator>(module, inputs, options)) {}

IntegerRangeAnalysis::~IntegerRangeAnalysis() = default;

IntegerRange IntegerRangeAnalysis::RangeOf(uint32_t value_id) {
  return evaluator_->RangeOf(value_id);
}

IntegerRange IntegerRangeAnalysis::RangeAt(uint32_t value_id, const Instruction& use) {
  const auto key = std::make_pair(value_id, &use);
  auto found = at_use_.find(key);
  if (found != at_use_.end()) return found->second;
  IntegerRange range = ComputeRangeAt(value_id, use);
  at_use_.emplace(key, range);
  return range;
}

IntegerRange IntegerRangeAnalysis::ComputeRangeAt(uint32_t value_id, const Instruction& use) {
  IntegerRange range = evaluator_->RangeAt(value_id, use);
  // In the counted loop of a local solved one iteration at a time, each iteration's
  // value (integer_range_counted_iterations.cpp); both hold, so their meet does.
  IntegerRange counted = evaluator_->CountedAtUse(value_id, use);
  if (!counted.valid) return range;
  counted = range_detail::Convert(counted, range.valid ? range.is_signed : counted.is_signed);
  if (!counted.valid || (range.valid && (counted.min > range.max || counted.max < range.min)))
    return range;
  if (range.valid && counted.min <= range.min && counted.max >= range.max) return range;
  IntegerRange met = counted;
  if (range.valid) {
    met.min = std::max(range.min, counted.min);
    met.max = std::min(range.max, counted.max);
    met.guard = range.guard;
  }
  return met;
}

bool IntegerRangeAnalysis::ProvenBelowArrayLength(uint32_t index, const Instruction& use,
                                                  uint32_t block_pointer, uint32_t member,
                                                  const Instruction** guard) {
  return evaluator_->ProvenBelowArrayLength(index, use, block_pointer, member, guard);
}

bool IntegerRangeAnalysis::ProvenBelowSpecializedLength(uint32_t index, const Instruction& use,
                                                        uint32_t length,
                                                        const Instruction** guard) {
  return evaluator_->ProvenBelowSpecializedLength(index, use, length, guard);
}

}  // namespace glint::spirv
