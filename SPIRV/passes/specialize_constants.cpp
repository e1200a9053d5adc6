// specialize-constants (see specialize_constants.h).
#include "specialize_constants.h"

#include <optional>
#include <set>
#include <unordered_map>

#include "SPIRV/ir/instruction_views.h"
#include "SPIRV/ir/integer_folding.h"
#include "SPIRV/ir/scalar_literal.h"

namespace glint::spirv {
namespace {

struct Folded {  // a plain 32-bit integer or boolean constant's value
  bool is_bool = false;
  uint32_t bits = 0;
};

class Specializer {
 public:
  Specializer(Module& module, const Options& options) : module_(module), options_(options) {}

  PassResult Run(Report* report) {
    CollectSpecIds();
    uint32_t rewrites = 0;
    // Apply values and fold, in definition order.
    for (Instruction& inst : module_.types_values) {
      if (!RecordType(inst) && Rewrite(inst)) ++rewrites;
      if (!refusal_.empty()) return PassResult::Failed(refusal_);
      Remember(inst);
    }
    CheckArrayLengths();
    if (!refusal_.empty()) return PassResult::Failed(refusal_);
    // Drop the SpecId decorations of replaced constants.
    module_.annotations.remove_if([&](const Instruction& inst) {
      return inst.opcode == spv::OpDecorate &&
             DecorateView(inst).decoration() == spv::DecorationSpecId &&
             replaced_.count(DecorateView(inst).target());
    });
    WarnUnknownIds(report);
    return rewrites ? PassResult::Changed(rewrites) : PassResult::Unchanged();
  }

 private:
  void CollectSpecIds() {
    for (const Instruction& inst : module_.annotations) {
      if (inst.opcode != spv::OpDecorate) continue;
      DecorateView decorate(inst);
      if (decorate.decoration() == spv::DecorationSpecId && decorate.literals().size() == 1)
        spec_id_of_[decorate.target()] = decorate.literal(0);
    }
  }

  // Types: remember which ids are ints (and their width), floats and bool.
  bool RecordType(const Instruction& inst) {
    if (inst.opcode == spv::OpTypeInt) {
      int_widths_[inst.result_id] = TypeIntView(inst).width();
      scalar_types_[inst.result_id] = {LiteralKind::kInteger, TypeIntView(inst).width(),
                                       TypeIntView(inst).is_signed()};
    } else if (inst.opcode == spv::OpTypeFloat) {
      scalar_types_[inst.result_id] = {LiteralKind::kFloat, TypeFloatView(inst).width(), false};
    } else if (inst.opcode == spv::OpTypeBool)
      bool_types_.insert(inst.result_id);
    else
      return false;
    return true;
  }

  bool Rewrite(Instruction& inst) {
    switch (inst.opcode) {
      case spv::OpSpecConstant:
      case spv::OpSpecConstantTrue:
      case spv::OpSpecConstantFalse:
        return ApplyValue(inst);
      case spv::OpSpecConstantOp:
        return FoldOperation(inst);
      case spv::OpSpecConstantComposite:
        return FoldComposite(inst);
      default:
        return false;
    }
  }

  bool ApplyValue(Instruction& inst) {
    auto id = spec_id_of_.find(inst.result_id);
    if (id == spec_id_of_.end()) return false;
    auto value = options_.spec_constants.find(id->second);
    if (value == options_.spec_constants.end()) return false;
    if (inst.opcode != spv::OpSpecConstant)
      inst.opcode = value->second ? spv::OpConstantTrue : spv::OpConstantFalse;
    else if (!ApplyScalar(inst, id->second, value->second))
      return false;
    used_ids_.insert(id->second);
    replaced_.insert(inst.result_id);
    specialized_.insert(inst.result_id);
    return true;
  }

  // OpSpecConstant -> OpConstant with the value written as its type's literal; a value
  // that does not fit the type leaves the refusal in refusal_.
  bool ApplyScalar(Instruction& inst, uint32_t spec_id, uint64_t value) {
    auto type = scalar_types_.find(inst.type_id);
    if (type == scalar_types_.end()) return false;  // not a scalar: spirv-val refuses it
    LiteralEncoding literal = EncodeSpecConstantLiteral(type->second, value);
    if (!literal.ok()) {
      refusal_ = "--spec-constant " + std::to_string(spec_id) + "=" +
                 FormatSpecConstantValue(value) + ": " + literal.refusal;
      return false;
    }
    inst.opcode = spv::OpConstant;
    ConstantView(inst).set_value(literal.bits, type->second.width > 32);
    return true;
  }

  bool FoldComposite(Instruction& inst) {
    for (uint32_t part : ConstantCompositeView(inst).constituents())
      if (!plain_.count(part)) return false;
    inst.opcode = spv::OpConstantComposite;
    return true;
  }

  bool FoldOperation(Instruction& inst) {
    bool result_bool = bool_types_.count(inst.type_id) != 0;
    auto int_type = int_widths_.find(inst.type_id);
    bool result_int = int_type != int_widths_.end() && int_type->second == 32;
    SpecConstantOpView operation(inst);
    if ((!result_bool && !result_int) || operation.operands().empty()) return false;
    std::vector<uint32_t> operands;
    for (uint32_t operand : operation.operands()) {
      auto value = values_.find(operand);
      if (value == values_.end()) return false;  // not (yet) a plain scalar constant
      operands.push_back(value->second.bits);
    }
    std::optional<uint32_t> folded = Evaluate(operation.operation(), operands);
    if (!folded) return false;
    specialized_.insert(inst.result_id);
    if (result_bool) {
      inst.opcode = *folded ? spv::OpConstantTrue : spv::OpConstantFalse;
      inst.words.clear();  // OpConstantTrue and OpConstantFalse have no operands
    } else {
      inst.opcode = spv::OpConstant;
      ConstantView(inst).set_value(*folded, /*wide=*/false);
    }
    return true;
  }

  // Plain scalar constants (32-bit int or bool) become foldable operands.
  void Remember(const Instruction& inst) {
    switch (inst.opcode) {
      case spv::OpConstant: {
        auto type = int_widths_.find(inst.type_id);
        if (type != int_widths_.end() && type->second == 32)
          values_[inst.result_id] = {false, ConstantView(inst).value32()};
        break;
      }
      case spv::OpConstantTrue:
        values_[inst.result_id] = {true, 1};
        break;
      case spv::OpConstantFalse:
        values_[inst.result_id] = {true, 0};
        break;
      case spv::OpConstantNull:
        if (bool_types_.count(inst.type_id) || int_widths_.count(inst.type_id))
          values_[inst.result_id] = {bool_types_.count(inst.type_id) != 0, 0};
        break;
      default:
        break;
    }
    if (IsConstantInstruction(inst.opcode) && !IsSpecConstantInstruction(inst.opcode))
      plain_.insert(inst.result_id);
    if (inst.opcode == spv::OpConstant) constants_[inst.result_id] = &inst;
  }

  static std::optional<uint32_t> Evaluate(spv::Op op, const std::vector<uint32_t>& v);

  // An array whose length the given values made a constant below 1 ("Length must be at
  // least 1", spirv-val) is refused by the constant's and the array's names: turns
  // `layout(constant_id = 3) const uint N = 4u; shared uint s[N];` with 3=0 into
  // "--spec-constant 3=0: makes N the length 0 of the array s; ...", nothing written.
  void CheckArrayLengths() {
    for (const Instruction& inst : module_.types_values) {
      if (inst.opcode != spv::OpTypeArray || !refusal_.empty()) continue;
      uint32_t length = TypeArrayView(inst).length_id();
      auto constant = constants_.find(length);
      if (!specialized_.count(length) || constant == constants_.end()) continue;
      auto type = scalar_types_.find(constant->second->type_id);
      if (type == scalar_types_.end()) continue;
      ConstantView value(*constant->second);
      int64_t signed_value =
          type->second.width > 32 ? int64_t(value.value64()) : int64_t(int32_t(value.value32()));
      bool below_one = type->second.is_signed ? signed_value < 1 : value.value64() == 0;
      if (!below_one) continue;
      refusal_ = GivenValuesOf(length) + ": makes " + NameOf(length) + " the length " +
                 (type->second.is_signed ? std::to_string(signed_value) : "0") + " of the array " +
                 ArrayName(inst.result_id) + "; an array's length must be at least 1";
    }
  }

  // "--spec-constant 3=0" for a constant given a value; for one folded from given
  // values, every value given (the fold does not record which it read).
  std::string GivenValuesOf(uint32_t constant) const {
    auto id = spec_id_of_.find(constant);
    if (replaced_.count(constant) && id != spec_id_of_.end())
      return "--spec-constant " + std::to_string(id->second) + "=" +
             FormatSpecConstantValue(options_.spec_constants.at(id->second));
    std::string given;
    for (const auto& [spec_id, value] : options_.spec_constants)
      given += (given.empty() ? "--spec-constant " : ", ") + std::to_string(spec_id) + "=" +
               FormatSpecConstantValue(value);
    return given;
  }

  // The OpName of `id` (the GLSL name), else "%<id>".
  std::string NameOf(uint32_t id) const {
    std::string name = module_.NameOf(id);
    return name.empty() ? "%" + std::to_string(id) : name;
  }

  // The array type's name: the variables declared of it (directly), else its id.
  std::string ArrayName(uint32_t array) const {
    std::set<uint32_t> pointers;
    std::string names;
    for (const Instruction& inst : module_.types_values) {
      if (inst.opcode == spv::OpTypePointer && TypePointerView(inst).pointee() == array)
        pointers.insert(inst.result_id);
      if (inst.opcode == spv::OpVariable && pointers.count(inst.type_id))
        names += (names.empty() ? "" : ", ") + NameOf(inst.result_id);
    }
    return names.empty() ? "%" + std::to_string(array) : names;
  }

  void WarnUnknownIds(Report* report) const {
    if (!report) return;
    std::set<uint32_t> declared;
    for (const auto& [constant, spec_id] : spec_id_of_) declared.insert(spec_id);
    for (const auto& [spec_id, value] : options_.spec_constants) {
      if (declared.count(spec_id)) continue;
      Diagnostic diagnostic;
      diagnostic.severity = Severity::kWarning;
      diagnostic.origin = "specialize-constants";
      diagnostic.message = "--spec-constant " + std::to_string(spec_id) +
                           ": no specialization constant has this SpecId";
      report->diagnostics.push_back(diagnostic);
    }
  }

  Module& module_;
  const Options& options_;
  std::unordered_map<uint32_t, uint32_t> spec_id_of_;  // constant id -> SpecId
  std::unordered_map<uint32_t, uint32_t> int_widths_;  // OpTypeInt id -> width
  std::unordered_map<uint32_t, LiteralType> scalar_types_;  // OpTypeInt/OpTypeFloat id
  std::string refusal_;  // a value that does not fit its constant's type
  std::set<uint32_t> bool_types_;
  std::unordered_map<uint32_t, Folded> values_;
  std::set<uint32_t> plain_;     // ids of non-specialization constants
  std::set<uint32_t> replaced_;  // spec constants given a value
  std::set<uint32_t> used_ids_;
  std::set<uint32_t> specialized_;  // constants given a value or folded from given values
  std::unordered_map<uint32_t, const Instruction*> constants_;  // OpConstant id -> it
};

// Folds one 32-bit integer or boolean operation as SPIR-V defines it
// (SPIRV/ir/integer_folding.h); nullopt for what it does not fold.
std::optional<uint32_t> Specializer::Evaluate(spv::Op op, const std::vector<uint32_t>& v) {
  if (v.size() > 3) return std::nullopt;
  uint64_t operands[3] = {};
  for (size_t k = 0; k < v.size(); ++k) operands[k] = v[k];
  std::optional<uint64_t> folded = FoldIntegerOp(op, operands, v.size());
  if (!folded) return std::nullopt;
  return uint32_t(*folded);
}

}  // namespace

PassResult SpecializeConstantsPass::Process(Module& module, PassContext& context) {
  if (context.options.spec_constants.empty()) return PassResult::Unchanged();
  PassResult result = Specializer(module, context.options).Run(context.report);
  // Only constants and decorations change: functions, blocks and branches stay.
  if (result.status == PassStatus::kChanged) result.Preserving(Analysis::kCfg);
  return result;
}

}  // namespace glint::spirv
