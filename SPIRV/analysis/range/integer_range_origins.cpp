// Where a value without a range comes from: reason texts only (both modes name the memory
// a value is loaded from; the rest is full mode).
//
// The range analysis says why a value has no range. The step it could not follow
// ("component of a composite value", "a local assigned through another element path")
// often hides the real root cause: the bits were read from memory that the shader does
// not control. This file names that memory by its storage class, so that a reader (and
// bench/classify_clamps.py) can tell input the application or another stage decides
// from a gap in the analysis.
//
// Proves nothing and narrows nothing: every function here only builds a text for a
// value that already has no range. A value read from memory has no range by itself,
// so naming the memory is a sound statement of why.
// Follows: OpCompositeExtract, OpCopyObject and OpCopyLogical down to an OpLoad, whose
// pointer type names the storage class (so chains, and physical pointers, count).
// OpCompositeConstruct counts when every constituent was read from the same kind of
// memory. At most kMaxOriginVisits values are visited per question (then: no origin).
// Refuses (returns an empty text, so the caller keeps its own reason): anything else on
// the way, and Function memory (locals and parameters are followed by value flow and
// across calls; their stored values have reasons of their own).
#include "SPIRV/analysis/range/integer_range_origins.h"

#include <algorithm>

#include "SPIRV/ir/grammar.h"
#include "SPIRV/ir/instruction_views.h"

namespace glint::spirv {

namespace {

// Who decides what memory of each storage class holds, as seen by the shader reading it.
const char* WhoWrites(spv::StorageClass storage) {
  switch (storage) {
    case spv::StorageClassInput:
      return "written by the previous stage or the application";
    case spv::StorageClassUniform:
    case spv::StorageClassUniformConstant:
    case spv::StorageClassPushConstant:
    case spv::StorageClassStorageBuffer:
    case spv::StorageClassPhysicalStorageBuffer:
    case spv::StorageClassShaderRecordBufferKHR:
      return "data the application provides";
    case spv::StorageClassWorkgroup:
      return "written by the invocations of the workgroup";
    case spv::StorageClassPrivate:
      return "a global of this invocation";
    case spv::StorageClassOutput:
      return "written by this shader";
    case spv::StorageClassIncomingRayPayloadKHR:
    case spv::StorageClassHitAttributeKHR:
    case spv::StorageClassIncomingCallableDataKHR:
    case spv::StorageClassRayPayloadKHR:
    case spv::StorageClassCallableDataKHR:
      return "written by another ray tracing shader";
    case spv::StorageClassTaskPayloadWorkgroupEXT:
      return "the task shader's payload";
    default:
      return "memory the analysis does not follow";
  }
}

// Instructions whose result is texels of an image (fetched, read, sampled or gathered).
bool ReadsTexels(spv::Op opcode) {
  switch (opcode) {
    case spv::OpImageFetch:
    case spv::OpImageRead:
    case spv::OpImageGather:
    case spv::OpImageSampleImplicitLod:
    case spv::OpImageSampleExplicitLod:
    case spv::OpImageSampleProjImplicitLod:
    case spv::OpImageSampleProjExplicitLod:
      return true;
    default:
      return false;
  }
}

}  // namespace

std::string ValueOrigins::StorageOrigin(spv::StorageClass storage) {
  const char* name = grammar::EnumerantName(grammar::OperandKind::kStorageClass, storage);
  return std::string("value read from ") + (name ? name : std::to_string(storage)) + " memory (" +
         WhoWrites(storage) + ")";
}

// By the pointer's type, so that physical pointers and chains into any variable count;
// Function memory (locals, parameters) is left to value flow.
std::optional<spv::StorageClass> ValueOrigins::OriginStorage(uint32_t pointer) const {
  const Instruction* def = def_use_.Definition(pointer);
  const Instruction* type = def ? def_use_.Definition(def->type_id) : nullptr;
  if (!type || type->opcode != spv::OpTypePointer || type->words.empty()) return std::nullopt;
  spv::StorageClass storage = spv::StorageClass(type->words[0]);
  if (storage == spv::StorageClassFunction) return std::nullopt;
  return storage;
}

std::string ValueOrigins::PointerOrigin(uint32_t pointer) const {
  std::optional<spv::StorageClass> storage = OriginStorage(pointer);
  return storage ? StorageOrigin(*storage) : std::string();
}

std::string ValueOrigins::MemoryOrigin(uint32_t value, int depth, int* visits) const {
  int budget = kMaxOriginVisits;
  if (!visits) visits = &budget;
  const Instruction* def = def_use_.Definition(value);
  if (!def || depth > kMaxOriginDepth * 2 || --*visits < 0) return {};
  if (def->opcode == spv::OpLoad) return PointerOrigin(LoadView(*def).pointer());
  if (ReadsTexels(def->opcode))
    return "value read from an image (texels the application or an earlier pass wrote)";
  if (def->opcode == spv::OpCompositeConstruct) return ConstructOrigin(*def, depth, visits);
  uint32_t whole = 0;  // the composite (or copied value) this one is a part of
  if (def->opcode == spv::OpCompositeExtract) whole = CompositeExtractView(*def).composite();
  if (def->opcode == spv::OpCopyObject || def->opcode == spv::OpCopyLogical)
    whole = def->words.empty() ? 0 : def->words[0];
  return whole ? MemoryOrigin(whole, depth + 1, visits) : std::string();
}

// A composite rebuilt from the parts of one read (glslang copies a buffer's struct into
// a local's type member by member): every constituent read from the same kind of memory.
std::string ValueOrigins::ConstructOrigin(const Instruction& construct, int depth,
                                          int* visits) const {
  std::string origin;
  for (uint32_t part : construct.words) {
    std::string here = MemoryOrigin(part, depth + 1, visits);
    if (here.empty() || (!origin.empty() && here != origin)) return {};
    origin = here;
  }
  return origin;
}

// The part of a stored composite that `path` reads, when value flow cannot take it apart
// (a struct loaded whole from a buffer and read by member): where that part was read.
std::string ValueOrigins::StoredPartOrigin(const ValueFlowNode& node,
                                           const std::vector<uint32_t>& path) const {
  if (node.kind != ValueFlowNode::Kind::kStore || node.path.size() > path.size() ||
      !std::equal(node.path.begin(), node.path.end(), path.begin()))
    return {};
  uint32_t part = node.value;
  for (size_t level = node.path.size(); level < path.size(); ++level) {
    uint32_t next = canonical_.ComponentSource(part, path[level]);
    if (!next) break;
    part = next;
  }
  return MemoryOrigin(part);
}

// A local that value flow does not follow (`Mesh mesh = meshes[i]; mesh.lods[mesh.lod]`)
// whose every store, whole or through access chains (glslang copies a buffer's struct
// into a local member by member), writes a value read from the same kind of memory, and
// which is otherwise only loaded: every bit written there was read from that memory.
// (A part never written would be undefined, which no analysis bounds either.)
// Empty for anything else: another store, a call or any other use of the pointer.
std::string ValueOrigins::LocalOrigin(const Instruction& variable) const {
  if (variable.opcode != spv::OpVariable || VariableView(variable).has_initializer()) return {};
  std::string origin;
  return StoresOnlyFrom(variable.result_id, 0, &origin) ? origin : std::string();
}

// True when every use of `pointer` (and of chains into it) is a load, a name, or a store
// of a value whose origin is `*origin` (set by the first store).
bool ValueOrigins::StoresOnlyFrom(uint32_t pointer, int depth, std::string* origin) const {
  if (depth > kMaxOriginDepth) return false;
  for (const Use& use : def_use_.Uses(pointer)) {
    const Instruction& user = *use.user;
    if (user.opcode == spv::OpName || user.opcode == spv::OpDecorate || user.opcode == spv::OpLoad)
      continue;
    bool chain = user.opcode == spv::OpAccessChain || user.opcode == spv::OpInBoundsAccessChain;
    if (chain && use.word == 0) {
      if (!StoresOnlyFrom(user.result_id, depth + 1, origin)) return false;
      continue;
    }
    if (user.opcode != spv::OpStore || use.word != 0) return false;
    std::string stored = MemoryOrigin(StoreView(user).object());
    if (stored.empty() || (!origin->empty() && stored != *origin)) return false;
    *origin = stored;
  }
  return true;
}

}  // namespace glint::spirv
