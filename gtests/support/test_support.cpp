#include "test_support.h"

#include <gtest/gtest.h>

#include <cctype>
#include <fstream>
#include <sstream>

#include <spirv-tools/libspirv.hpp>

#include "SPIRV/ir/parser.h"
#include "SPIRV/validate.h"
#include "glslang/front_end/compile_driver.h"

namespace glint::test {

std::string SourceRoot() { return GLINT_SOURCE_ROOT; }
std::string BinaryDir() { return GLINT_BINARY_DIR; }

std::vector<uint32_t> CompileGlsl(const std::string& source, const std::string& stage,
                                  const std::string& env, bool hlsl) {
  std::vector<uint32_t> words;
  std::string error;
  frontend::SourceCompile request(source, stage, env);
  request.hlsl = hlsl;
  if (!frontend::CompileSourceToSpirv(request, &words, &error))
    ADD_FAILURE() << error << "\n" << source;
  return words;
}

std::optional<spirv::Module> AssembleModule(const std::string& text) {
  std::string error;
  std::optional<spirv::Module> module = spirv::ParseModule(Assemble(text), &error);
  if (!module) ADD_FAILURE() << "parse failed: " << error;
  return module;
}

uint32_t IdNamed(const spirv::Module& module, const std::string& name) {
  for (const spirv::Instruction& inst : module.debug_names)
    if (inst.opcode == spv::OpName && inst.StringAt(1) == name) return inst.words.at(0);
  ADD_FAILURE() << "no OpName " << name;
  return 0;
}

std::vector<uint32_t> Assemble(const std::string& text) {
  spvtools::SpirvTools tools(SPV_ENV_UNIVERSAL_1_6);
  std::string error;
  tools.SetMessageConsumer(
      [&](spv_message_level_t, const char*, const spv_position_t& position, const char* message) {
        error += std::to_string(position.line) + ": " + message + "\n";
      });
  std::vector<uint32_t> words;
  if (!tools.Assemble(text, &words, SPV_TEXT_TO_BINARY_OPTION_PRESERVE_NUMERIC_IDS))
    ADD_FAILURE() << "spirv-as failed: " << error << text;
  return words;
}

std::string Disassemble(const std::vector<uint32_t>& words) {
  spvtools::SpirvTools tools(SPV_ENV_UNIVERSAL_1_6);
  std::string text;
  if (!tools.Disassemble(words, &text, SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES))
    ADD_FAILURE() << "spirv-dis failed";
  return text;
}

std::string ValidateFor(const std::vector<uint32_t>& words, TargetEnv env) {
  return spirv::Validate(words, env);
}

std::string ParamName(const std::string& text) {
  std::string name;
  for (char c : text) {
    if (std::isalnum(static_cast<unsigned char>(c)))
      name += c;
    else if (!name.empty() && name.back() != '_')
      name += '_';
  }
  while (!name.empty() && name.back() == '_') name.pop_back();
  return name.empty() ? "_" : name;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

namespace {

// "#define P0 leaf", then P1 .. P<levels>, each expanding to the one before twice: the
// last expands to 2^levels leaves.
std::string DoublingMacros(const std::string& name, int levels, const std::string& leaf) {
  std::string text = "#define " + name + "0 " + leaf + "\n";
  for (int i = 1; i <= levels; ++i) {
    const std::string previous = name + std::to_string(i - 1);
    text += "#define " + name + std::to_string(i) + " " + previous + " " + previous + "\n";
  }
  return text;
}

}  // namespace

std::string MacroExplosion() {
  return "#version 450\n" + DoublingMacros("A", 40, "1+") +
         "layout(location = 0) out int o;\nvoid main() { o = A40 1; }\n";
}

std::string RunawayStatements() {
  return "#version 450\n" + DoublingMacros("X", 30, ";") + "void main() { X30 }\n";
}

}  // namespace glint::test
