#include "grammar.h"

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <vector>

#include "opcode_table.h"

namespace glint::spirv::grammar {
namespace {
#include "grammar_tables.inc"
}  // namespace

// The rows of kOpcodeTable by opcode: every analysis decodes every instruction, so the
// look-up is one load, not a search.
std::vector<const OpcodeInfo*> MakeOpcodeRows() {
  uint32_t largest = 0;
  for (const OpcodeInfo& info : kOpcodeTable) largest = std::max(largest, info.opcode);
  std::vector<const OpcodeInfo*> rows(size_t(largest) + 1, nullptr);
  for (const OpcodeInfo& info : kOpcodeTable) rows[info.opcode] = &info;
  return rows;
}

void ForEachOpcode(const std::function<void(const OpcodeInfo&)>& visit) {
  for (const OpcodeInfo& info : kOpcodeTable) visit(info);
}

const OperandSpec* OperandSpecs(const OpcodeInfo& info) {
  return kOperandSpecTable + info.first_operand;
}

const OperandKindInfo& KindInfo(OperandKind kind) {
  return kOperandKindTable[static_cast<size_t>(kind)];
}

const OperandSpec* EnumerantParameters(OperandKind kind, uint32_t value, uint16_t* count) {
  auto key = [](OperandKind k, uint32_t v) { return (uint64_t(k) << 32) | v; };
  auto it = std::lower_bound(
      std::begin(kEnumParametersTable), std::end(kEnumParametersTable), key(kind, value),
      [&](const EnumParameters& e, uint64_t k) { return key(e.kind, e.value) < k; });
  if (it == std::end(kEnumParametersTable) || it->kind != kind || it->value != value) {
    *count = 0;
    return nullptr;
  }
  *count = it->count;
  return kEnumParameterSpecTable + it->first;
}

bool AnyEnumerantHasParameters(OperandKind kind) {
  auto it = std::lower_bound(std::begin(kEnumParametersTable), std::end(kEnumParametersTable), kind,
                             [](const EnumParameters& e, OperandKind k) { return e.kind < k; });
  for (; it != std::end(kEnumParametersTable) && it->kind == kind; ++it)
    if (it->count > 0) return true;
  return false;
}

const char* EnumerantName(OperandKind kind, uint32_t value) {
  auto key = [](OperandKind k, uint32_t v) { return (uint64_t(k) << 32) | v; };
  auto it =
      std::lower_bound(std::begin(kEnumNameTable), std::end(kEnumNameTable), key(kind, value),
                       [&](const EnumName& e, uint64_t k) { return key(e.kind, e.value) < k; });
  if (it == std::end(kEnumNameTable) || it->kind != kind || it->value != value) return nullptr;
  return it->name;
}

const ExtInstInfo* FindGlslStd450(uint32_t instruction) {
  auto it = std::lower_bound(std::begin(kGlslStd450Table), std::end(kGlslStd450Table), instruction,
                             [](const ExtInstInfo& info, uint32_t op) { return info.opcode < op; });
  if (it == std::end(kGlslStd450Table) || it->opcode != instruction) return nullptr;
  return &*it;
}

const char* OpcodeName(uint32_t opcode) {
  if (const OpcodeInfo* info = FindOpcode(opcode)) return info->name;
  thread_local char buffer[24];
  std::snprintf(buffer, sizeof buffer, "Op%u", opcode);
  return buffer;
}

}  // namespace glint::spirv::grammar
