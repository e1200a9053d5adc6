#include "robust_access_emit.h"

#include <spirv/unified1/GLSL.std.450.h>

#include "SPIRV/ir/instruction_views.h"

namespace glint::spirv {

void ClampEmitter::RememberType(uint32_t type_id) {
  if (def_use_.Definition(type_id) || created_types_.count(type_id)) return;
  for (auto it = module_.types_values.rbegin(); it != module_.types_values.rend(); ++it)
    if (it->result_id == type_id) {
      created_types_[type_id] = *it;
      return;
    }
}

const Instruction* ClampEmitter::TypeDefinition(uint32_t type_id) const {
  if (const Instruction* known = def_use_.Definition(type_id)) return known;
  auto it = created_types_.find(type_id);
  return it == created_types_.end() ? nullptr : &it->second;
}

uint32_t ClampEmitter::TypeOfValue(uint32_t value_id) const {
  if (const Instruction* def = def_use_.Definition(value_id)) return def->type_id;
  auto it = created_value_types_.find(value_id);
  return it == created_value_types_.end() ? 0 : it->second;
}

uint32_t ClampEmitter::UintType(uint32_t width) {
  uint32_t id = module_.FindOrAddIntType(width, false);
  RememberType(id);
  return id;
}

uint32_t ClampEmitter::UintVectorType(uint32_t count) {
  uint32_t scalar = UintType(32);
  return count <= 1 ? scalar : VectorType(scalar, count);
}

uint32_t ClampEmitter::VectorType(uint32_t component_type, uint32_t count) {
  uint32_t id = module_.FindOrAddType(spv::OpTypeVector, {component_type, count});
  RememberType(id);
  return id;
}

uint32_t ClampEmitter::IntConstant(uint32_t type_id, uint64_t value) {
  uint32_t width = 32;
  bool is_signed = false;
  IntTypeInfo(type_id, &width, &is_signed);
  if (width <= 32) return module_.FindOrAddConstant(type_id, static_cast<uint32_t>(value));
  for (const Instruction& inst : module_.types_values)
    if (inst.opcode == spv::OpConstant && inst.type_id == type_id &&
        ConstantView(inst).is_64bit() && ConstantView(inst).value64() == value)
      return inst.result_id;
  Instruction constant(spv::OpConstant, type_id, module_.TakeNextId(), {});
  ConstantView(constant).set_value(value, /*wide=*/true);
  module_.types_values.push_back(std::move(constant));
  return module_.types_values.back().result_id;
}

bool ClampEmitter::IntTypeInfo(uint32_t type_id, uint32_t* width, bool* is_signed) const {
  const Instruction* type = TypeDefinition(type_id);
  if (type && type->opcode == spv::OpTypeVector)
    type = TypeDefinition(TypeVectorView(*type).component_type());
  if (!type || type->opcode != spv::OpTypeInt) return false;
  *width = TypeIntView(*type).width();
  *is_signed = TypeIntView(*type).is_signed();
  return true;
}

uint32_t ClampEmitter::Emit(const InsertionPoint& at, spv::Op opcode, uint32_t type_id,
                            std::vector<uint32_t> operands) {
  uint32_t id = module_.TakeNextId();
  at.block->instructions.insert(at.before, Instruction(opcode, type_id, id, std::move(operands)));
  created_value_types_[id] = type_id;
  ++instructions_emitted_;
  return id;
}

uint32_t ClampEmitter::AsUnsigned(const InsertionPoint& at, uint32_t value) {
  uint32_t type_id = TypeOfValue(value);
  const Instruction* type = TypeDefinition(type_id);
  uint32_t width = 32;
  bool is_signed = false;
  if (!IntTypeInfo(type_id, &width, &is_signed) || !is_signed) return value;
  uint32_t unsigned_type = UintType(width);
  if (type->opcode == spv::OpTypeVector) {
    unsigned_type = module_.FindOrAddType(spv::OpTypeVector,
                                          {unsigned_type, TypeVectorView(*type).component_count()});
    RememberType(unsigned_type);
  }
  return Emit(at, spv::OpBitcast, unsigned_type, {value});
}

uint32_t ClampEmitter::UMin(const InsertionPoint& at, uint32_t type_id, uint32_t a, uint32_t b) {
  if (!glsl_import_) glsl_import_ = module_.FindOrAddGlslStd450Import();
  return Emit(at, spv::OpExtInst, type_id, {glsl_import_, GLSLstd450UMin, a, b});
}

uint32_t ClampEmitter::UMax(const InsertionPoint& at, uint32_t type_id, uint32_t a, uint32_t b) {
  if (!glsl_import_) glsl_import_ = module_.FindOrAddGlslStd450Import();
  return Emit(at, spv::OpExtInst, type_id, {glsl_import_, GLSLstd450UMax, a, b});
}

uint32_t ClampEmitter::LastIndexOf(const InsertionPoint& at, uint32_t type_id, uint32_t length) {
  uint32_t one = IntConstant(type_id, 1);
  uint32_t at_least_one = UMax(at, type_id, length, one);
  return Emit(at, spv::OpISub, type_id, {at_least_one, one});
}

uint32_t ClampEmitter::ToWidth(const InsertionPoint& at, uint32_t value, uint32_t width) {
  uint32_t value_width = 32;
  bool is_signed = false;
  IntTypeInfo(TypeOfValue(value), &value_width, &is_signed);
  if (value_width == width) return value;
  return Emit(at, spv::OpUConvert, UintType(width), {value});
}

}  // namespace glint::spirv
