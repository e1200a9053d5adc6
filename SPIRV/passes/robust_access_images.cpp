#include "robust_access_images.h"

#include <map>

namespace glint::spirv {

namespace {

// OpTypeImage operand words.
constexpr size_t kImageDim = 1, kImageArrayed = 3, kImageMultisampled = 4, kImageSampled = 5;

bool IsImageWrite(spv::Op opcode) { return opcode == spv::OpImageWrite; }

// Words each image operand takes, by mask bit; bits not listed are refused.
const std::map<uint32_t, uint32_t>& ImageOperandWords() {
  static const std::map<uint32_t, uint32_t> kWords = {
      {spv::ImageOperandsBiasMask, 1},        {spv::ImageOperandsLodMask, 1},
      {spv::ImageOperandsGradMask, 2},        {spv::ImageOperandsConstOffsetMask, 1},
      {spv::ImageOperandsOffsetMask, 1},      {spv::ImageOperandsConstOffsetsMask, 1},
      {spv::ImageOperandsSampleMask, 1},      {spv::ImageOperandsMinLodMask, 1},
      {spv::ImageOperandsMakeTexelAvailableMask, 1},
      {spv::ImageOperandsMakeTexelVisibleMask, 1},
      {spv::ImageOperandsNonPrivateTexelMask, 0}, {spv::ImageOperandsVolatileTexelMask, 0},
      {spv::ImageOperandsSignExtendMask, 0},  {spv::ImageOperandsZeroExtendMask, 0},
      {spv::ImageOperandsNontemporalMask, 0}, {spv::ImageOperandsOffsetsMask, 1}};
  return kWords;
}

// The image operands of an access: where the mask is and where each operand starts.
struct ImageOperands {
  size_t mask_word = 0;  // 0 when the access has no image operands
  std::map<uint32_t, size_t> word_of;  // mask bit -> first word
  bool understood = true;
};

ImageOperands FindImageOperands(const Instruction& access) {
  ImageOperands found;
  size_t mask_word = IsImageWrite(access.opcode) ? 3 : 2;
  if (access.words.size() <= mask_word) return found;
  found.mask_word = mask_word;
  uint32_t mask = access.words[mask_word];
  size_t word = mask_word + 1;
  for (uint32_t bit = 1; bit != 0 && mask; bit <<= 1) {
    if (!(mask & bit)) continue;
    mask &= ~bit;
    auto it = ImageOperandWords().find(bit);
    if (it == ImageOperandWords().end()) {
      found.understood = false;
      return found;
    }
    found.word_of[bit] = word;
    word += it->second;
  }
  return found;
}

const Instruction* ImageTypeOf(const Instruction& access, const ClampEmitter& emitter) {
  const Instruction* type = emitter.TypeDefinition(emitter.TypeOfValue(access.words[0]));
  return type && type->opcode == spv::OpTypeImage ? type : nullptr;
}

uint32_t ComponentCount(const ClampEmitter& emitter, uint32_t type_id) {
  const Instruction* type = emitter.TypeDefinition(type_id);
  if (!type) return 0;
  return type->opcode == spv::OpTypeVector ? type->words[1] : 1;
}

// Components of OpImageQuerySize[Lod]'s result for `image_type`.
uint32_t SizeComponents(const Instruction& image_type) {
  uint32_t count = 1;
  switch (image_type.words[kImageDim]) {
    case spv::Dim2D: case spv::DimCube: case spv::DimRect: count = 2; break;
    case spv::Dim3D: count = 3; break;
    default: break;
  }
  return count + (image_type.words[kImageArrayed] ? 1 : 0);
}

// Does the size query need a level (OpImageQuerySizeLod) or not (OpImageQuerySize)?
bool SizeQueryTakesLevel(const Instruction& image_type) {
  uint32_t dim = image_type.words[kImageDim];
  if (dim == spv::DimBuffer || dim == spv::DimRect) return false;
  return image_type.words[kImageMultisampled] == 0 && image_type.words[kImageSampled] == 1;
}

class ImageClamper {
 public:
  ImageClamper(const InsertionPoint& at, Module& module, ClampEmitter& emitter)
      : at_(at), access_(*at.before), module_(module), emitter_(emitter),
        image_type_(*ImageTypeOf(access_, emitter)), operands_(FindImageOperands(access_)) {}

  uint32_t Run();

 private:
  uint32_t ClampLevel();
  uint32_t ClampSample();
  void FoldOffsetIntoCoordinate();
  uint32_t WidenOffset(uint32_t offset, uint32_t coordinate);
  uint32_t CoordinateLimit(uint32_t size, uint32_t coordinate_components);
  uint32_t QuerySize(uint32_t level);
  uint32_t Operand(uint32_t bit) const {
    auto it = operands_.word_of.find(bit);
    return it == operands_.word_of.end() ? 0 : access_.words[it->second];
  }
  uint32_t LastOf(uint32_t opcode_result);
  bool IsConstantZero(uint32_t id) const {
    const Instruction* def = emitter_.Definition(id);
    return def && ((def->opcode == spv::OpConstant && def->words.size() == 1 && def->words[0] == 0) ||
                   def->opcode == spv::OpConstantNull);
  }

  InsertionPoint at_;
  Instruction& access_;
  Module& module_;
  ClampEmitter& emitter_;
  const Instruction& image_type_;
  ImageOperands operands_;
};

uint32_t ImageClamper::Run() {
  module_.AddCapability(spv::CapabilityImageQuery);
  uint32_t clamps = 0;
  // Level 0 and sample 0 always exist: a constant 0 needs no clamp.
  uint32_t level = Operand(spv::ImageOperandsLodMask);
  if (level && !IsConstantZero(level)) {
    clamps += ClampLevel();
    level = Operand(spv::ImageOperandsLodMask);
  }
  uint32_t sample = Operand(spv::ImageOperandsSampleMask);
  if (sample && !IsConstantZero(sample)) clamps += ClampSample();
  FoldOffsetIntoCoordinate();
  uint32_t coordinate = access_.words[1];
  uint32_t components = ComponentCount(emitter_, emitter_.TypeOfValue(coordinate));
  uint32_t size = QuerySize(level);
  uint32_t limit = CoordinateLimit(size, components);
  uint32_t unsigned_coordinate = emitter_.AsUnsigned(at_, coordinate);
  access_.words[1] = emitter_.UMin(at_, emitter_.TypeOfValue(limit), unsigned_coordinate, limit);
  return clamps + 1;
}

// A query result minus one (a bound image has at least one level, sample and texel
// per dimension, so this never wraps for a valid descriptor).
uint32_t ImageClamper::LastOf(uint32_t count) {
  uint32_t type = emitter_.TypeOfValue(count);
  uint32_t one = emitter_.IntConstant(emitter_.UintType(32), 1);
  uint32_t components = ComponentCount(emitter_, type);
  if (components > 1)
    one = module_.FindOrAddConstantComposite(type, std::vector<uint32_t>(components, one));
  return emitter_.Emit(at_, spv::OpISub, type, {count, one});
}

uint32_t ImageClamper::ClampLevel() {
  size_t word = operands_.word_of[spv::ImageOperandsLodMask];
  uint32_t uint_type = emitter_.UintType(32);
  uint32_t levels = emitter_.Emit(at_, spv::OpImageQueryLevels, uint_type, {access_.words[0]});
  uint32_t level = emitter_.AsUnsigned(at_, access_.words[word]);
  access_.words[word] = emitter_.UMin(at_, uint_type, level, LastOf(levels));
  return 1;
}

uint32_t ImageClamper::ClampSample() {
  size_t word = operands_.word_of[spv::ImageOperandsSampleMask];
  uint32_t uint_type = emitter_.UintType(32);
  uint32_t samples = emitter_.Emit(at_, spv::OpImageQuerySamples, uint_type, {access_.words[0]});
  uint32_t sample = emitter_.AsUnsigned(at_, access_.words[word]);
  access_.words[word] = emitter_.UMin(at_, uint_type, sample, LastOf(samples));
  return 1;
}

// Turns `coordinate, ConstOffset|Offset offset` into `coordinate + offset` with the
// offset dropped, so that the texel actually read is the one clamped.
void ImageClamper::FoldOffsetIntoCoordinate() {
  for (uint32_t bit : {spv::ImageOperandsConstOffsetMask, spv::ImageOperandsOffsetMask}) {
    auto it = operands_.word_of.find(bit);
    if (it == operands_.word_of.end()) continue;
    uint32_t coordinate = access_.words[1];
    uint32_t offset = WidenOffset(access_.words[it->second], coordinate);
    access_.words[1] =
        emitter_.Emit(at_, spv::OpIAdd, emitter_.TypeOfValue(coordinate), {coordinate, offset});
    access_.words.erase(access_.words.begin() + it->second);
    access_.words[operands_.mask_word] &= ~bit;
    if (access_.words[operands_.mask_word] == 0 && access_.words.size() == operands_.mask_word + 1)
      access_.words.pop_back();  // no operand left: drop the empty mask
    operands_ = FindImageOperands(access_);
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
  uint32_t component = type->opcode == spv::OpTypeVector ? type->words[0] : offset_type;
  std::vector<uint32_t> parts = {offset};
  for (uint32_t i = have; i < want; ++i) parts.push_back(emitter_.IntConstant(component, 0));
  uint32_t widened = emitter_.VectorType(component, want);
  return emitter_.Emit(at_, spv::OpCompositeConstruct, widened, parts);
}

uint32_t ImageClamper::QuerySize(uint32_t level) {
  uint32_t type = emitter_.UintVectorType(SizeComponents(image_type_));
  if (!SizeQueryTakesLevel(image_type_))
    return emitter_.Emit(at_, spv::OpImageQuerySize, type, {access_.words[0]});
  if (!level) level = emitter_.IntConstant(emitter_.UintType(32), 0);
  return emitter_.Emit(at_, spv::OpImageQuerySizeLod, type, {access_.words[0], level});
}

// The largest valid coordinate, with as many components as the coordinate. A cube's
// third coordinate is the face (and 6 * layer + face for a cube array).
uint32_t ImageClamper::CoordinateLimit(uint32_t size, uint32_t coordinate_components) {
  uint32_t last = LastOf(size);
  if (image_type_.words[kImageDim] != spv::DimCube) return last;
  uint32_t uint_type = emitter_.UintType(32);
  uint32_t x = emitter_.Emit(at_, spv::OpCompositeExtract, uint_type, {last, 0});
  uint32_t y = emitter_.Emit(at_, spv::OpCompositeExtract, uint_type, {last, 1});
  uint32_t faces = emitter_.IntConstant(uint_type, 5);
  if (image_type_.words[kImageArrayed]) {
    uint32_t layers = emitter_.Emit(at_, spv::OpCompositeExtract, uint_type, {size, 2});
    uint32_t six = emitter_.IntConstant(uint_type, 6);
    uint32_t layer_faces = emitter_.Emit(at_, spv::OpIMul, uint_type, {layers, six});
    faces = LastOf(layer_faces);
  }
  return emitter_.Emit(at_, spv::OpCompositeConstruct, emitter_.UintVectorType(coordinate_components),
                       {x, y, faces});
}

}  // namespace

bool IsImageTexelAccess(spv::Op opcode) {
  return opcode == spv::OpImageFetch || opcode == spv::OpImageRead ||
         opcode == spv::OpImageWrite || opcode == spv::OpImageSparseFetch ||
         opcode == spv::OpImageSparseRead;
}

std::string ImageAccessRefusal(const Instruction& access, const ClampEmitter& emitter) {
  if (access.words.size() < 2) return "malformed image access";
  const Instruction* image_type = ImageTypeOf(access, emitter);
  if (!image_type) return "the image's type is not an OpTypeImage";
  uint32_t dim = image_type->words[kImageDim];
  if (dim == spv::DimSubpassData) return "subpass inputs are read at the fragment's own texel";
  if (dim != spv::Dim1D && dim != spv::Dim2D && dim != spv::Dim3D && dim != spv::DimCube &&
      dim != spv::DimRect && dim != spv::DimBuffer)
    return "image dimensionality not supported";
  uint32_t width = 0;
  bool is_signed = false;
  if (!emitter.IntTypeInfo(emitter.TypeOfValue(access.words[1]), &width, &is_signed) || width != 32)
    return "coordinate is not a 32-bit integer";
  uint32_t components = ComponentCount(emitter, emitter.TypeOfValue(access.words[1]));
  uint32_t expected = dim == spv::DimCube ? 3 : SizeComponents(*image_type);
  if (components != expected) return "coordinate has an unexpected component count";
  ImageOperands operands = FindImageOperands(access);
  if (!operands.understood) return "image operands not understood";
  // A storage image read at a level (SPV_AMD_shader_image_load_store_lod): Vulkan allows
  // neither OpImageQueryLevels nor OpImageQuerySizeLod on it, so no limit can be read.
  if (operands.word_of.count(spv::ImageOperandsLodMask) && image_type->words[kImageSampled] != 1)
    return "storage image accessed at a level (no level or size query allowed)";
  return "";
}

uint32_t ClampImageAccess(const InsertionPoint& at, Module& module, ClampEmitter& emitter) {
  ImageClamper clamper(at, module, emitter);
  return clamper.Run();
}

}  // namespace glint::spirv
