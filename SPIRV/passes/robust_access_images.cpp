#include "robust_access_images.h"

#include "SPIRV/ir/instruction_views.h"

namespace glint::spirv {

namespace {

bool IsTypeImage(const Instruction* type) { return type && type->opcode == spv::OpTypeImage; }

const Instruction* ImageTypeOf(const Instruction& access, const ClampEmitter& emitter) {
  const Instruction* type =
      emitter.TypeDefinition(emitter.TypeOfValue(ImageAccessView(access).image()));
  return IsTypeImage(type) ? type : nullptr;
}

uint32_t ComponentCount(const ClampEmitter& emitter, uint32_t type_id) {
  const Instruction* type = emitter.TypeDefinition(type_id);
  if (!type) return 0;
  return type->opcode == spv::OpTypeVector ? TypeVectorView(*type).component_count() : 1;
}

// Components of OpImageQuerySize[Lod]'s result for `image_type`.
uint32_t SizeComponents(const Instruction& image_type) {
  TypeImageView image(image_type);
  uint32_t count = 1;
  switch (image.dim()) {
    case spv::Dim2D:
    case spv::DimCube:
    case spv::DimRect:
      count = 2;
      break;
    case spv::Dim3D:
      count = 3;
      break;
    default:
      break;
  }
  return count + (image.arrayed() ? 1 : 0);
}

// Does the size query need a level (OpImageQuerySizeLod) or not (OpImageQuerySize)?
bool SizeQueryTakesLevel(const Instruction& image_type) {
  TypeImageView image(image_type);
  if (image.dim() == spv::DimBuffer || image.dim() == spv::DimRect) return false;
  return !image.multisampled() && image.sampled() == 1;
}

class ImageClamper {
 public:
  ImageClamper(const InsertionPoint& at, Module& module, ClampEmitter& emitter)
      : at_(at),
        access_(*at.before),
        module_(module),
        emitter_(emitter),
        image_type_(*ImageTypeOf(access_, emitter)) {}

  uint32_t Run();

 private:
  uint32_t ClampCountedOperand(uint32_t bit, spv::Op query);
  void FoldOffsetIntoCoordinate();
  uint32_t WidenOffset(uint32_t offset, uint32_t coordinate);
  uint32_t CoordinateLimit(uint32_t size, uint32_t coordinate_components);
  uint32_t QuerySize(uint32_t level);
  // The access's image operand of `bit`, 0 when it has none.
  uint32_t Operand(uint32_t bit) const {
    ImageOperandsView operands(access_);
    return operands.has(bit) ? operands.operand(bit) : 0;
  }
  uint32_t Image() const { return ImageAccessView(access_).image(); }
  uint32_t& Coordinate() { return ImageAccessView(access_).coordinate(); }
  uint32_t LastOf(uint32_t opcode_result);
  bool IsConstantZero(uint32_t id) const {
    const Instruction* def = emitter_.Definition(id);
    if (!def) return false;
    if (def->opcode == spv::OpConstantNull) return true;
    return def->opcode == spv::OpConstant && !ConstantView(*def).is_64bit() &&
           ConstantView(*def).value32() == 0;
  }

  InsertionPoint at_;
  Instruction& access_;
  Module& module_;
  ClampEmitter& emitter_;
  const Instruction& image_type_;
};

uint32_t ImageClamper::Run() {
  module_.AddCapability(spv::CapabilityImageQuery);
  uint32_t clamps = 0;
  // Level 0 and sample 0 always exist: a constant 0 needs no clamp.
  uint32_t level = Operand(spv::ImageOperandsLodMask);
  if (level && !IsConstantZero(level)) {
    clamps += ClampCountedOperand(spv::ImageOperandsLodMask, spv::OpImageQueryLevels);
    level = Operand(spv::ImageOperandsLodMask);
  }
  uint32_t sample = Operand(spv::ImageOperandsSampleMask);
  if (sample && !IsConstantZero(sample))
    clamps += ClampCountedOperand(spv::ImageOperandsSampleMask, spv::OpImageQuerySamples);
  FoldOffsetIntoCoordinate();
  uint32_t coordinate = Coordinate();
  uint32_t components = ComponentCount(emitter_, emitter_.TypeOfValue(coordinate));
  uint32_t size = QuerySize(level);
  uint32_t limit = CoordinateLimit(size, components);
  uint32_t unsigned_coordinate = emitter_.AsUnsigned(at_, coordinate);
  Coordinate() = emitter_.UMin(at_, emitter_.TypeOfValue(limit), unsigned_coordinate, limit);
  return clamps + 1;
}

uint32_t ImageClamper::LastOf(uint32_t count) {
  uint32_t type = emitter_.TypeOfValue(count);
  uint32_t one = emitter_.IntConstant(emitter_.UintType(32), 1);
  uint32_t components = ComponentCount(emitter_, type);
  if (components > 1)
    one = module_.FindOrAddConstantComposite(type, std::vector<uint32_t>(components, one));
  return emitter_.Emit(at_, spv::OpISub, type, {count, one});
}

// Turns image operand `bit` (Lod or Sample) into UMin(operand, count - 1), the count
// asked of the image with `query` (OpImageQueryLevels or OpImageQuerySamples).
uint32_t ImageClamper::ClampCountedOperand(uint32_t bit, spv::Op query) {
  uint32_t uint_type = emitter_.UintType(32);
  uint32_t count = emitter_.Emit(at_, query, uint_type, {Image()});
  uint32_t& operand = ImageOperandsView(access_).operand(bit);
  uint32_t value = emitter_.AsUnsigned(at_, operand);
  operand = emitter_.UMin(at_, uint_type, value, LastOf(count));
  return 1;
}

// Turns `coordinate, ConstOffset|Offset offset` into `coordinate + offset` with the
// offset dropped, so that the texel actually read is the one clamped.
void ImageClamper::FoldOffsetIntoCoordinate() {
  for (uint32_t bit : {spv::ImageOperandsConstOffsetMask, spv::ImageOperandsOffsetMask}) {
    uint32_t offset = Operand(bit);
    if (!offset) continue;
    uint32_t coordinate = Coordinate();
    uint32_t widened = WidenOffset(offset, coordinate);
    Coordinate() =
        emitter_.Emit(at_, spv::OpIAdd, emitter_.TypeOfValue(coordinate), {coordinate, widened});
    ImageOperandsView(access_).Remove(bit);
  }
}

// An arrayed image's offset has no component for the layer: appends zeros so that the
// offset has as many components as the coordinate.
uint32_t ImageClamper::WidenOffset(uint32_t offset, uint32_t coordinate) {
  uint32_t offset_type = emitter_.TypeOfValue(offset);
  uint32_t have = ComponentCount(emitter_, offset_type);
  uint32_t want = ComponentCount(emitter_, emitter_.TypeOfValue(coordinate));
  if (have >= want) return offset;
  const Instruction* type = emitter_.TypeDefinition(offset_type);
  uint32_t component =
      type->opcode == spv::OpTypeVector ? TypeVectorView(*type).component_type() : offset_type;
  std::vector<uint32_t> parts = {offset};
  for (uint32_t i = have; i < want; ++i) parts.push_back(emitter_.IntConstant(component, 0));
  uint32_t widened = emitter_.VectorType(component, want);
  return emitter_.Emit(at_, spv::OpCompositeConstruct, widened, parts);
}

uint32_t ImageClamper::QuerySize(uint32_t level) {
  uint32_t type = emitter_.UintVectorType(SizeComponents(image_type_));
  if (!SizeQueryTakesLevel(image_type_))
    return emitter_.Emit(at_, spv::OpImageQuerySize, type, {Image()});
  if (!level) level = emitter_.IntConstant(emitter_.UintType(32), 0);
  return emitter_.Emit(at_, spv::OpImageQuerySizeLod, type, {Image(), level});
}

// The largest valid coordinate, with as many components as the coordinate. A cube's
// third coordinate is the face (and 6 * layer + face for a cube array).
uint32_t ImageClamper::CoordinateLimit(uint32_t size, uint32_t coordinate_components) {
  uint32_t last = LastOf(size);
  TypeImageView image(image_type_);
  if (image.dim() != spv::DimCube) return last;
  uint32_t uint_type = emitter_.UintType(32);
  uint32_t x = emitter_.Emit(at_, spv::OpCompositeExtract, uint_type, {last, 0});
  uint32_t y = emitter_.Emit(at_, spv::OpCompositeExtract, uint_type, {last, 1});
  uint32_t faces = emitter_.IntConstant(uint_type, 5);
  if (image.arrayed()) {
    uint32_t layers = emitter_.Emit(at_, spv::OpCompositeExtract, uint_type, {size, 2});
    uint32_t six = emitter_.IntConstant(uint_type, 6);
    uint32_t layer_faces = emitter_.Emit(at_, spv::OpIMul, uint_type, {layers, six});
    faces = LastOf(layer_faces);
  }
  return emitter_.Emit(at_, spv::OpCompositeConstruct,
                       emitter_.UintVectorType(coordinate_components), {x, y, faces});
}

}  // namespace

std::string ImageAccessRefusal(const Instruction& access, const ClampEmitter& emitter) {
  if (access.words.size() < 2) return "malformed image access";
  const Instruction* image_type = ImageTypeOf(access, emitter);
  if (!image_type) return "the image's type is not an OpTypeImage";
  TypeImageView image(*image_type);
  spv::Dim dim = image.dim();
  if (dim == spv::DimSubpassData) return "subpass inputs are read at the fragment's own texel";
  if (dim != spv::Dim1D && dim != spv::Dim2D && dim != spv::Dim3D && dim != spv::DimCube &&
      dim != spv::DimRect && dim != spv::DimBuffer)
    return "image dimensionality not supported";
  uint32_t width = 0;
  bool is_signed = false;
  uint32_t coordinate_type = emitter.TypeOfValue(ImageAccessView(access).coordinate());
  if (!emitter.IntTypeInfo(coordinate_type, &width, &is_signed) || width != 32)
    return "coordinate is not a 32-bit integer";
  uint32_t components = ComponentCount(emitter, coordinate_type);
  uint32_t expected = dim == spv::DimCube ? 3 : SizeComponents(*image_type);
  if (components != expected) return "coordinate has an unexpected component count";
  ImageOperandsView operands(access);
  if (!operands.understood()) return "image operands not understood";
  // A storage image read at a level (SPV_AMD_shader_image_load_store_lod): Vulkan allows
  // neither OpImageQueryLevels nor OpImageQuerySizeLod on it, so no limit can be read.
  if (operands.has(spv::ImageOperandsLodMask) && image.sampled() != 1)
    return "storage image accessed at a level (no level or size query allowed)";
  return "";
}

uint32_t ClampImageAccess(const InsertionPoint& at, Module& module, ClampEmitter& emitter) {
  ImageClamper clamper(at, module, emitter);
  return clamper.Run();
}

}  // namespace glint::spirv
