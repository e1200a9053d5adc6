#include "synthetic_module.h"

#include <spirv/unified1/spirv.hpp>

namespace glint::test {
namespace {

constexpr uint32_t Opcode(uint32_t word_count, spv::Op op) { return (word_count << 16) | op; }

}  // namespace

std::vector<uint32_t> SingleFunctionModule(const std::vector<uint32_t>& body, size_t copies,
                                           uint32_t bound) {
  std::vector<uint32_t> words = {spv::MagicNumber,
                                 0x00010000,
                                 0,
                                 bound,
                                 0,
                                 Opcode(2, spv::OpCapability),
                                 spv::CapabilityShader,
                                 Opcode(3, spv::OpMemoryModel),
                                 spv::AddressingModelLogical,
                                 spv::MemoryModelGLSL450,
                                 Opcode(2, spv::OpTypeVoid),
                                 1,
                                 Opcode(3, spv::OpTypeFunction),
                                 2,
                                 1,
                                 Opcode(5, spv::OpFunction),
                                 1,
                                 3,
                                 spv::FunctionControlMaskNone,
                                 2,
                                 Opcode(2, spv::OpLabel),
                                 4};
  words.reserve(words.size() + body.size() * copies + 2);
  for (size_t i = 0; i < copies; ++i) words.insert(words.end(), body.begin(), body.end());
  words.push_back(Opcode(1, spv::OpReturn));
  words.push_back(Opcode(1, spv::OpFunctionEnd));
  return words;
}

std::vector<uint32_t> NopModule(size_t nops) {
  return SingleFunctionModule({Opcode(1, spv::OpNop)}, nops, 8);
}

}  // namespace glint::test
