#include "command_line.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <sstream>
#include <vector>

#include "SPIRV/passes/pipeline.h"

#include "child_compiles.h"
#include "glslang/front_end/compile_driver.h"
#include "setting_names.h"

namespace glint::standalone {

namespace {

bool StartsWithDigit(const char* text) {
  return text && std::isdigit(static_cast<unsigned char>(text[0]));
}

// Walks argv; every handler consumes what it needs through it.
class Arguments {
 public:
  Arguments(int argc, char** argv) : argc_(argc), argv_(argv) {}
  bool Done() const { return index_ >= argc_; }
  const char* Current() const { return argv_[index_]; }
  void Advance() { ++index_; }
  // The argument after the current one, or null.
  const char* Peek(int ahead = 1) const {
    return index_ + ahead < argc_ ? argv_[index_ + ahead] : nullptr;
  }
  // Consumes and returns the argument after the current one, or null when none.
  const char* TakeOperand() {
    if (index_ + 1 >= argc_) return nullptr;
    return argv_[++index_];
  }
  int Remaining() const { return argc_ - index_; }  // including the current one

 private:
  int argc_;
  char** argv_;
  int index_ = 1;
};

// The text attached to a one-letter flag ("-Ifoo" -> "foo"), or glslangValidator's
// bare complaint when it is missing.
const char* AttachedOperand(const char* argument, const char* description) {
  if (argument[2] == 0)
    throw CommandLineError(std::string(description) + " must immediately follow option (no spaces)",
                           true);
  return argument + 2;
}

int AttachedNumber(const char* argument, const char* description) {
  int number = std::atoi(argument + 2);
  if (number == 0)
    throw CommandLineError(std::string(description) + ": expected attached non-0 number", true);
  return number;
}

void SetVulkanSpirv(CommandLine& line) {
  if (line.glslang.client == glslang::EShClientNone)
    line.glslang.client_version = glslang::EShTargetVulkan_1_0;
  line.glslang.client = glslang::EShClientVulkan;
  line.spirv = line.vulkan_rules = line.link = true;
}

void SetOpenGlSpirv(CommandLine& line) {
  if (line.glslang.client == glslang::EShClientNone)
    line.glslang.client_version = glslang::EShTargetOpenGL_450;
  line.glslang.client = glslang::EShClientOpenGL;
  line.spirv = line.link = true;
  line.vulkan_rules = false;  // undoes -H's default to Vulkan
}

void AddDefine(CommandLine& line, std::string definition) {
  line.defines_given = true;
  definition = definition.substr(0, definition.find('\n'));
  line.glslang.processes.push_back("define-macro " + definition);
  size_t equal = definition.find('=');
  if (equal != std::string::npos) definition[equal] = ' ';
  line.glslang.preamble += "#define " + definition + "\n";
}

void AddUndefine(CommandLine& line, std::string name) {
  line.defines_given = true;
  name = name.substr(0, name.find('\n'));
  line.glslang.processes.push_back("undef-macro " + name);
  line.glslang.preamble += "#undef " + name + "\n";
}

// The stage a binding option names. As in glslangValidator, a stage already given by
// -S (or taken by --stdin) wins over the one written after the option.
EShLanguage StageOrUsage(const char* name, const CommandLine& line) {
  std::optional<EShLanguage> stage = StageFromName(line.stage_name ? *line.stage_name : name);
  if (!stage) throw ShowUsage{};
  return *stage;
}

// --shift-<kind>-binding [stage] num | [stage] [num set]...
void ParseBindingShift(Arguments& args, CommandLine& line, glslang::TResourceType resource) {
  if (args.Remaining() < 2) throw ShowUsage{};
  int ahead = 1;
  int stage_first = 0, stage_end = EShLangCount;
  if (!StartsWithDigit(args.Peek(ahead))) {
    if (args.Remaining() < 3) throw ShowUsage{};
    stage_first = StageOrUsage(args.Peek(ahead++), line);
    stage_end = stage_first + 1;
  }
  std::map<unsigned, unsigned> per_set;  // set -> base
  unsigned single_base = 0;
  if (StartsWithDigit(args.Peek(ahead)) && StartsWithDigit(args.Peek(ahead + 1))) {
    while (StartsWithDigit(args.Peek(ahead)) && StartsWithDigit(args.Peek(ahead + 1))) {
      unsigned base = std::atoi(args.Peek(ahead));
      per_set[std::atoi(args.Peek(ahead + 1))] = base;
      ahead += 2;
    }
  } else {
    single_base = args.Peek(ahead) ? std::atoi(args.Peek(ahead)) : 0;
    ++ahead;
  }
  for (int i = 1; i < ahead; ++i) args.TakeOperand();
  for (int stage = stage_first; stage < stage_end; ++stage) {
    if (per_set.empty())
      line.glslang.base_binding[resource][stage] = single_base;
    else
      line.glslang.base_binding_for_set[resource][stage].insert(per_set.begin(), per_set.end());
  }
}

// --resource-set-binding [stage] set | stage [name set binding]...
void ParseResourceSetBinding(Arguments& args, CommandLine& line) {
  if (args.Remaining() < 2) throw ShowUsage{};
  auto& bindings = line.glslang.resource_set_binding;
  if (StartsWithDigit(args.Peek())) {
    const char* set = args.TakeOperand();
    for (auto& per_stage : bindings) per_stage.push_back(set);
    return;
  }
  if (args.Remaining() < 3) throw ShowUsage{};
  EShLanguage stage = StageOrUsage(args.TakeOperand(), line);
  // Like glslangValidator, everything up to the next flag belongs to this option.
  while (args.Peek() && args.Peek()[0] != '-') bindings[stage].push_back(args.TakeOperand());
  if (bindings[stage].size() != 1 && bindings[stage].size() % 3 != 0) throw ShowUsage{};
}

// Without an operand (the last argument) it does nothing, as in glslangValidator.
void ParseTargetEnv(const char* name, CommandLine& line) {
  if (!name) return;
  static const std::pair<const char*, glslang::EShTargetClientVersion> kVulkan[] = {
      {"vulkan1.0", glslang::EShTargetVulkan_1_0},
      {"vulkan1.1", glslang::EShTargetVulkan_1_1},
      {"vulkan1.2", glslang::EShTargetVulkan_1_2},
      {"vulkan1.3", glslang::EShTargetVulkan_1_3}};
  static const std::pair<const char*, glslang::EShTargetLanguageVersion> kSpirv[] = {
      {"spirv1.0", glslang::EShTargetSpv_1_0}, {"spirv1.1", glslang::EShTargetSpv_1_1},
      {"spirv1.2", glslang::EShTargetSpv_1_2}, {"spirv1.3", glslang::EShTargetSpv_1_3},
      {"spirv1.4", glslang::EShTargetSpv_1_4}, {"spirv1.5", glslang::EShTargetSpv_1_5},
      {"spirv1.6", glslang::EShTargetSpv_1_6}};
  for (const auto& [env, version] : kVulkan) {
    if (std::strcmp(name, env) != 0) continue;
    SetVulkanSpirv(line);
    line.glslang.client_version = version;
    return;
  }
  if (std::strcmp(name, "opengl") == 0) {
    SetOpenGlSpirv(line);
    line.glslang.client_version = glslang::EShTargetOpenGL_450;
    return;
  }
  for (const auto& [env, version] : kSpirv) {
    if (std::strcmp(name, env) != 0) continue;
    line.glslang.target_language = glslang::EShTargetSpv;
    line.glslang.target_version = version;
    return;
  }
  throw CommandLineError(
      "--target-env expected one of: vulkan1.0, vulkan1.1, vulkan1.2,\n"
      "vulkan1.3, opengl, spirv1.0, spirv1.1, spirv1.2, spirv1.3,\n"
      "spirv1.4, spirv1.5 or spirv1.6");
}

// Without an operand (the last argument) it does nothing, as in glslangValidator.
void ParseGlslVersion(const char* text, CommandLine& line) {
  if (!text) return;
  static const std::pair<const char*, int> kVersions[] = {
      {"100", 100},   {"110", 110},   {"120", 120},   {"130", 130}, {"140", 140}, {"150", 150},
      {"300es", 300}, {"310es", 310}, {"320es", 320}, {"330", 330}, {"400", 400}, {"410", 410},
      {"420", 420},   {"430", 430},   {"440", 440},   {"450", 450}, {"460", 460}};
  for (const auto& [name, version] : kVersions) {
    if (std::strcmp(text, name) != 0) continue;
    line.glslang.override_version = version;
    return;
  }
  throw CommandLineError(
      "--glsl-version expected one of: 100, 110, 120, 130, 140, 150,\n"
      "300es, 310es, 320es, 330\n"
      "400, 410, 420, 430, 440, 450, 460");
}

void ParseClient(const char* name, CommandLine& line) {
  if (name && std::strcmp(name, "vulkan100") == 0)
    SetVulkanSpirv(line);
  else if (name && std::strcmp(name, "opengl100") == 0)
    SetOpenGlSpirv(line);
  else
    throw CommandLineError("client: expects vulkan100 or opengl100");
}

// --set-block-storage name uniform|buffer|push_constant (used with -R).
void ParseBlockStorage(Arguments& args, CommandLine& line) {
  if (args.Remaining() < 3) throw ShowUsage{};
  static const std::pair<const char*, glslang::TBlockStorageClass> kStorages[] = {
      {"uniform", glslang::EbsUniform},
      {"buffer", glslang::EbsStorageBuffer},
      {"push_constant", glslang::EbsPushConstant}};
  const char* name = args.TakeOperand();
  const char* storage = args.TakeOperand();
  for (const auto& [spelling, storage_class] : kStorages) {
    if (std::strcmp(storage, spelling) != 0) continue;
    line.glslang.block_storage_overrides.emplace_back(name, storage_class);
    return;
  }
  throw ShowUsage{std::string(storage) + ": invalid block storage\n"};
}

// A GLSL identifier that is not reserved (gl_...): what a block may be named.
bool IsUserIdentifier(const std::string& name) {
  auto letter = [](char c) { return c == '_' || std::isalpha(static_cast<unsigned char>(c)); };
  if (name.empty() || name.rfind("gl_", 0) == 0 || !letter(name[0])) return false;
  return std::all_of(name.begin() + 1, name.end(), [&](char c) {
    return letter(c) || std::isdigit(static_cast<unsigned char>(c));
  });
}

// A descriptor set or binding number: what glslangValidator accepts is a base-10 number
// (trailing text ignored, no digits reads as 0) that fits a non-negative int.
unsigned BlockNumberOrUsage(const char* text, const char* what) {
  errno = 0;
  long value = std::strtol(text, nullptr, 10);
  int as_int = static_cast<int>(value);
  if (errno != 0 || as_int < 0) throw ShowUsage{std::string(text) + ": invalid " + what + "\n"};
  return static_cast<unsigned>(as_int);
}

// --set-atomic-counter-block name set, --set-default-uniform-block name set binding
// (used with -R). glslangValidator wants three arguments after either option, even
// the first, which uses two.
void ParseGlobalBlock(Arguments& args, bool with_binding, frontend::GlobalBlock& block) {
  if (args.Remaining() < 4) throw ShowUsage{};
  const char* name = args.TakeOperand();
  if (!IsUserIdentifier(name)) throw ShowUsage{std::string(name) + ": invalid identifier\n"};
  block.name = name;
  block.set = BlockNumberOrUsage(args.TakeOperand(), "set");
  if (with_binding) block.binding = BlockNumberOrUsage(args.TakeOperand(), "binding");
  block.given = true;
}

const char* RequiredOperand(Arguments& args, const std::string& complaint) {
  const char* operand = args.TakeOperand();
  if (!operand) throw CommandLineError(complaint);
  return operand;
}

uint32_t ParseUnsigned(const std::string& text, const std::string& flag) {
  char* end = nullptr;
  unsigned long value = std::strtoul(text.c_str(), &end, 0);
  if (text.empty() || *end != 0 || value > 0xffffffffu)
    throw CommandLineError(flag + ": expected an unsigned number, got '" + text + "'");
  return static_cast<uint32_t>(value);
}

// --subgroup-size N: a size Vulkan can report (VkPhysicalDeviceSubgroupProperties::
// subgroupSize is a power of two, at most 128), so a typo is not taken as a promise.
uint32_t ParseSubgroupSize(const std::string& text) {
  char* end = nullptr;
  errno = 0;
  unsigned long long value = std::strtoull(text.c_str(), &end, 0);
  bool number = !text.empty() && std::isdigit(static_cast<unsigned char>(text[0])) && *end == 0 &&
                errno != ERANGE;
  if (!number || value == 0 || value > 128 || (value & (value - 1)) != 0)
    throw CommandLineError(
        "--subgroup-size: expected a power of two from 1 to 128 (1, 2, 4, 8, "
        "16, 32, 64 or 128), got '" +
        text + "'");
  return static_cast<uint32_t>(value);
}

// A size limit: a positive number of bytes, up to 2^64-1.
uint64_t ParseByteCount(const std::string& text, const std::string& flag) {
  char* end = nullptr;
  errno = 0;
  unsigned long long value = std::strtoull(text.c_str(), &end, 0);
  if (text.empty() || !std::isdigit(static_cast<unsigned char>(text[0])) || *end != 0 ||
      errno == ERANGE || value == 0)
    throw CommandLineError(flag + ": expected a positive number of bytes, got '" + text + "'");
  return value;
}

void AddEshMessage(CommandLine& line, EShMessages message) {
  line.glslang.messages = static_cast<EShMessages>(line.glslang.messages | message);
}

// A long option's handler; `word` is the option as typed, lowercased, without "--"
// (glslangValidator names it so in some of its messages).
using LongHandler = std::function<void(Arguments&, CommandLine&, const std::string& word)>;

LongHandler Switch(std::function<void(CommandLine&)> set) {
  return [set](Arguments&, CommandLine& line, const std::string&) { set(line); };
}

LongHandler MessageSwitch(EShMessages message) {
  return Switch([message](CommandLine& l) { AddEshMessage(l, message); });
}

LongHandler ReflectionSwitch(EShReflectionOptions option) {
  return Switch([option](CommandLine& l) { l.reflection_options |= option; });
}

LongHandler BindingShift(glslang::TResourceType resource) {
  return [resource](Arguments& a, CommandLine& l, const std::string&) {
    ParseBindingShift(a, l, resource);
  };
}

// An option whose operand is stored as is; `complaint` follows the word when it is missing.
LongHandler StringOperand(const char* complaint,
                          std::function<void(CommandLine&, const char*)> store) {
  return [complaint, store](Arguments& a, CommandLine& l, const std::string& word) {
    store(l, RequiredOperand(a, word + ": " + complaint));
  };
}

// --define-macro / --undef-macro: glslangValidator names the option as typed.
LongHandler Macro(bool define) {
  return [define](Arguments& a, CommandLine& l, const std::string&) {
    std::string complaint =
        std::string(a.Current()) + (define ? ": expects <name[=def]>" : ": expects <name>");
    const char* operand = RequiredOperand(a, complaint);
    if (define)
      AddDefine(l, operand);
    else
      AddUndefine(l, operand);
  };
}

// --stdin: glslangValidator also takes the next argument (without consuming it, and
// even when it is a flag or there is none) as the stage name, until a later -S.
void ParseStdin(Arguments& args, CommandLine& line) {
  line.read_stdin = true;
  const char* next = args.Peek();
  line.stage_name = next ? std::optional<std::string>(next) : std::nullopt;
}

using SpellingTable = std::map<std::string, LongHandler>;

void AddSpellings(SpellingTable& table, std::initializer_list<const char*> spellings,
                  const LongHandler& handler) {
  for (const char* spelling : spellings) table.emplace(spelling, handler);
}

void AddGlslangSwitches(SpellingTable& t) {
  auto glslang_setting = [](bool frontend::GlslangSettings::*field) {
    return Switch([field](CommandLine& l) { l.glslang.*field = true; });
  };
  using S = frontend::GlslangSettings;
  AddSpellings(t, {"auto-map-bindings", "auto-map-binding", "amb"},
               glslang_setting(&S::auto_map_bindings));
  AddSpellings(t, {"auto-map-locations", "aml"}, glslang_setting(&S::auto_map_locations));
  AddSpellings(t, {"auto-sampled-textures"}, glslang_setting(&S::auto_sampled_textures));
  AddSpellings(t, {"dump-builtin-symbols"}, MessageSwitch(EShMsgBuiltinSymbolTable));
  AddSpellings(t, {"flatten-uniform-arrays", "flatten-uniform-array", "fua"},
               glslang_setting(&S::flatten_uniform_arrays));
  AddSpellings(t, {"hlsl-offsets"}, MessageSwitch(EShMsgHlslOffsets));
  AddSpellings(t, {"hlsl-iomap", "hlsl-iomapper", "hlsl-iomapping"},
               glslang_setting(&S::hlsl_io_mapping));
  AddSpellings(t, {"hlsl-enable-16bit-types"}, MessageSwitch(EShMsgHlslEnable16BitTypes));
  AddSpellings(t, {"hlsl-dx9-compatible"}, MessageSwitch(EShMsgHlslDX9Compatible));
  AddSpellings(t, {"hlsl-dx-position-w"}, glslang_setting(&S::dx_position_w));
  AddSpellings(t, {"enhanced-msgs"}, glslang_setting(&S::enhanced_messages));
  AddSpellings(t, {"invert-y", "iy"}, glslang_setting(&S::invert_y));
  AddSpellings(t, {"keep-uncalled", "ku"}, MessageSwitch(EShMsgKeepUncalled));
  AddSpellings(t, {"nan-clamp"}, glslang_setting(&S::nan_clamp));
  AddSpellings(t, {"no-storage-format", "nsf"}, glslang_setting(&S::no_storage_format));
  AddSpellings(t, {"relaxed-errors"}, MessageSwitch(EShMsgRelaxedErrors));
  AddSpellings(t, {"spirv-dis"}, Switch([](CommandLine& l) { l.spirv_tools_disassemble = true; }));
  AddSpellings(t, {"spirv-val"}, Switch([](CommandLine& l) { l.spirv_tools_validate = true; }));
  AddSpellings(t, {"suppress-warnings"}, MessageSwitch(EShMsgSuppressWarnings));
  AddSpellings(t, {"quiet"}, Switch([](CommandLine& l) { l.quiet = true; }));
  AddSpellings(t, {"version"}, Switch([](CommandLine& l) { l.print_versions = true; }));
  AddSpellings(t, {"help"}, Switch([](CommandLine&) { throw ShowUsage{}; }));
}

void AddGlslangReflectionSwitches(SpellingTable& t) {
  AddSpellings(t, {"reflect-strict-array-suffix"},
               ReflectionSwitch(EShReflectionStrictArraySuffix));
  AddSpellings(t, {"reflect-basic-array-suffix"}, ReflectionSwitch(EShReflectionBasicArraySuffix));
  AddSpellings(t, {"reflect-intermediate-io"}, ReflectionSwitch(EShReflectionIntermediateIO));
  AddSpellings(t, {"reflect-separate-buffers"}, ReflectionSwitch(EShReflectionSeparateBuffers));
  AddSpellings(t, {"reflect-all-block-variables"},
               ReflectionSwitch(EShReflectionAllBlockVariables));
  AddSpellings(t, {"reflect-unwrap-io-blocks"}, ReflectionSwitch(EShReflectionUnwrapIOBlocks));
  AddSpellings(t, {"reflect-all-io-variables"}, ReflectionSwitch(EShReflectionAllIOVariables));
  AddSpellings(t, {"reflect-shared-std140-ubo"}, ReflectionSwitch(EShReflectionSharedStd140UBO));
  AddSpellings(t, {"reflect-shared-std140-ssbo"}, ReflectionSwitch(EShReflectionSharedStd140SSBO));
}

void AddGlslangBindingOptions(SpellingTable& t) {
  AddSpellings(t, {"shift-image-bindings", "shift-image-binding", "sib"},
               BindingShift(glslang::EResImage));
  AddSpellings(t, {"shift-sampler-bindings", "shift-sampler-binding", "ssb"},
               BindingShift(glslang::EResSampler));
  AddSpellings(t, {"shift-uav-bindings", "shift-uav-binding", "suavb"},
               BindingShift(glslang::EResUav));
  AddSpellings(t, {"shift-texture-bindings", "shift-texture-binding", "stb"},
               BindingShift(glslang::EResTexture));
  AddSpellings(t,
               {"shift-ubo-bindings", "shift-ubo-binding", "shift-cbuffer-bindings",
                "shift-cbuffer-binding", "sub", "scb"},
               BindingShift(glslang::EResUbo));
  AddSpellings(t, {"shift-ssbo-bindings", "shift-ssbo-binding", "sbb"},
               BindingShift(glslang::EResSsbo));
  AddSpellings(
      t, {"resource-set-bindings", "resource-set-binding", "rsb"},
      [](Arguments& a, CommandLine& l, const std::string&) { ParseResourceSetBinding(a, l); });
  AddSpellings(t, {"set-block-storage", "sbs"},
               [](Arguments& a, CommandLine& l, const std::string&) { ParseBlockStorage(a, l); });
  AddSpellings(t, {"set-atomic-counter-block", "sacb"},
               [](Arguments& a, CommandLine& l, const std::string&) {
                 ParseGlobalBlock(a, false, l.glslang.atomic_counter_block);
               });
  AddSpellings(t, {"set-default-uniform-block", "sdub"},
               [](Arguments& a, CommandLine& l, const std::string&) {
                 ParseGlobalBlock(a, true, l.glslang.default_uniform_block);
               });
}

void AddGlslangOperandOptions(SpellingTable& t) {
  AddSpellings(t, {"uniform-base"}, StringOperand("no <base> provided", [](CommandLine& l, auto v) {
                 l.glslang.uniform_base = std::strtol(v, nullptr, 10);
               }));
  AddSpellings(t, {"client"}, [](Arguments& a, CommandLine& l, const std::string&) {
    ParseClient(a.TakeOperand(), l);
  });
  AddSpellings(t, {"define-macro", "d"}, Macro(true));
  AddSpellings(t, {"undef-macro", "u"}, Macro(false));
  AddSpellings(t, {"entry-point"}, StringOperand("no <name> provided", [](CommandLine& l, auto v) {
                 l.glslang.entry_point = v;
               }));
  AddSpellings(t, {"source-entrypoint", "sep"},
               StringOperand("no <entry-point> provided",
                             [](CommandLine& l, auto v) { l.glslang.source_entry_point = v; }));
  AddSpellings(t, {"variable-name", "vn"},
               StringOperand("no <C-variable-name> provided", [](CommandLine& l, auto v) {
                 l.variable_name = v;
                 l.hex = true;
               }));
  AddSpellings(
      t, {"depfile"},
      StringOperand("no <depfile-name> provided", [](CommandLine& l, auto v) { l.depfile = v; }));
  AddSpellings(t, {"glsl-version"}, [](Arguments& a, CommandLine& l, const std::string&) {
    ParseGlslVersion(a.TakeOperand(), l);
  });
  AddSpellings(t, {"target-env"}, [](Arguments& a, CommandLine& l, const std::string&) {
    ParseTargetEnv(a.TakeOperand(), l);
  });
  AddSpellings(t, {"stdin"},
               [](Arguments& a, CommandLine& l, const std::string&) { ParseStdin(a, l); });
}

// glslangValidator 12.0.0's long options: every spelling its parser accepts (it matches
// the word lowercased, so --AMB and --Spirv-Val work too). Test/glslang12_spellings.table
// compares one row per spelling with Debian's tool.
const SpellingTable& GlslangLongOptions() {
  static const SpellingTable kOptions = [] {
    SpellingTable table;
    AddGlslangSwitches(table);
    AddGlslangReflectionSwitches(table);
    AddGlslangBindingOptions(table);
    AddGlslangOperandOptions(table);
    return table;
  }();
  return kOptions;
}

void ParseSpecConstant(const char* text, CommandLine& line) {
  std::string assignment = text ? text : "";
  size_t equal = assignment.find('=');
  if (equal == std::string::npos)
    throw CommandLineError("--spec-constant: expects ID=VALUE, got '" + assignment + "'");
  uint32_t id = ParseUnsigned(assignment.substr(0, equal), "--spec-constant");
  std::string value = assignment.substr(equal + 1);
  // A negative value is its two's complement bits; a positive one may use all 64 bits.
  bool negative = !value.empty() && value[0] == '-';
  char* end = nullptr;
  errno = 0;
  uint64_t bits = negative ? static_cast<uint64_t>(std::strtoll(value.c_str(), &end, 0))
                           : std::strtoull(value.c_str(), &end, 0);
  bool starts_well = !value.empty() && (negative || std::isdigit(static_cast<unsigned char>(value[0])));
  if (!starts_well || *end != 0)
    throw CommandLineError("--spec-constant: expects ID=VALUE, got '" + assignment + "'");
  if (errno == ERANGE)
    throw CommandLineError("--spec-constant: " + value + " does not fit in 64 bits");
  line.glint.spec_constants[id] = bits;
}

// --max-workgroups X,Y,Z: three counts, each at least 1 (a promise; 0 would mean a
// dispatch that runs nothing, and is how Options says "unknown").
void ParseMaxWorkgroups(const char* text, CommandLine& line) {
  std::string list = text ? text : "";
  std::array<uint32_t, 3> groups{};
  size_t start = 0;
  for (int d = 0; d < 3; ++d) {
    size_t comma = d < 2 ? list.find(',', start) : list.size();
    if (comma == std::string::npos || (d == 2 && list.find(',', start) != std::string::npos))
      throw CommandLineError("--max-workgroups: expects X,Y,Z, got '" + list + "'");
    groups[d] = ParseUnsigned(list.substr(start, comma - start), "--max-workgroups");
    if (groups[d] == 0)
      throw CommandLineError("--max-workgroups: each count must be at least 1, got '" + list + "'");
    start = comma + 1;
  }
  line.glint.max_workgroups = groups;
}

// Glint's own long options (those without =value).
const SpellingTable& GlintLongOptions() {
  static const SpellingTable kOptions = [] {
    SpellingTable t;
    AddSpellings(t, {"no-glint"}, Switch([](CommandLine& l) { l.run_glint = false; }));
    AddSpellings(t, {"no-hoist-constant-tables"},
                 Switch([](CommandLine& l) { l.glint.hoist_constant_tables = false; }));
    AddSpellings(t, {"robust-access"},
                 Switch([](CommandLine& l) { l.glint.robust_access = true; }));
    AddSpellings(t, {"dump-ranges"}, Switch([](CommandLine& l) { l.dump_ranges = true; }));
    AddSpellings(t, {"no-isolate"}, Switch([](CommandLine& l) { l.isolate = false; }));
    AddSpellings(t, {"timeout-ms"}, [](Arguments& a, CommandLine& l, const std::string&) {
      l.timeout_ms = ParseUnsigned(RequiredOperand(a, "--timeout-ms: expects <N>"), "--timeout-ms");
    });
    AddSpellings(t, {"max-source-bytes"}, [](Arguments& a, CommandLine& l, const std::string&) {
      l.glslang.source_limits.per_source = ParseByteCount(
          RequiredOperand(a, "--max-source-bytes: expects <N>"), "--max-source-bytes");
    });
    AddSpellings(t, {"max-total-source-bytes"},
                 [](Arguments& a, CommandLine& l, const std::string&) {
                   l.glslang.source_limits.total = ParseByteCount(
                       RequiredOperand(a, "--max-total-source-bytes: expects <N>"),
                       "--max-total-source-bytes");
                 });
    AddSpellings(t, {"max-memory-mb"}, [](Arguments& a, CommandLine& l, const std::string&) {
      l.max_memory_mb =
          ParseUnsigned(RequiredOperand(a, "--max-memory-mb: expects <N>"), "--max-memory-mb");
    });
    AddSpellings(t, {"subgroup-size"}, [](Arguments& a, CommandLine& l, const std::string&) {
      l.glint.subgroup_size = ParseSubgroupSize(RequiredOperand(a, "--subgroup-size: expects <N>"));
    });
    AddSpellings(t, {"max-workgroups"}, [](Arguments& a, CommandLine& l, const std::string&) {
      ParseMaxWorkgroups(RequiredOperand(a, "--max-workgroups: expects X,Y,Z"), l);
    });
    AddSpellings(t, {"spec-constant"}, [](Arguments& a, CommandLine& l, const std::string&) {
      ParseSpecConstant(RequiredOperand(a, "--spec-constant: expects ID=VALUE"), l);
    });
    return t;
  }();
  return kOptions;
}

// --passes=a,b: pass names as the pipeline spells them, checked here so that a typo is
// a usage error rather than a failed compile.
void ParsePassList(const std::string& value, CommandLine& line) {
  const std::vector<std::string>& known = spirv::PipelinePassNames();
  std::vector<std::string> names;
  std::istringstream list(value);
  for (std::string name; std::getline(list, name, ',');) {
    if (std::find(known.begin(), known.end(), name) == known.end()) {
      std::string all;
      for (const std::string& k : known) all += (all.empty() ? "" : ", ") + k;
      throw CommandLineError("--passes: unknown pass '" + name + "' (known: " + all + ")");
    }
    names.push_back(name);
  }
  if (names.empty())
    throw CommandLineError("--passes expects a comma-separated list of pass names");
  line.glint.passes = std::move(names);
}

// --uniformity-off=, --uniformity-note=, --uniformity-assume-uniform= (repeatable; the
// first filter that matches a finding wins).
bool ParseUniformityFilterFlag(const std::string& name, const std::string& value,
                               CommandLine& line) {
  static const std::pair<const char*, UniformityFilterAction> kFilterFlags[] = {
      {"uniformity-off", UniformityFilterAction::kOff},
      {"uniformity-note", UniformityFilterAction::kNote},
      {"uniformity-assume-uniform", UniformityFilterAction::kAssumeUniform}};
  for (const auto& [flag, action] : kFilterFlags) {
    if (name != flag) continue;
    UniformityFilter filter;
    std::string error;
    if (!ParseUniformityFilter(action, value, &filter, &error))
      throw CommandLineError("--" + name + ": " + error);
    line.glint.uniformity_filters.push_back(std::move(filter));
    return true;
  }
  return false;
}

// Glint's --name=value flags.
bool ParseGlintValueFlag(const std::string& name, const std::string& value, CommandLine& line) {
  if (name == "passes") {
    ParsePassList(value, line);
    return true;
  }
  if (name == "range-analysis") {
    std::optional<RangeAnalysisMode> mode = RangeAnalysisModeNamed(value);
    if (!mode) throw CommandLineError("--range-analysis expects off, reference or full");
    line.glint.range_analysis = *mode;
    return true;
  }
  if (name == "uniformity") {
    std::optional<Severity> severity = UniformitySeverityNamed(value);
    if (!severity) throw CommandLineError("--uniformity expects warn, error or off");
    line.glint.uniformity = *severity;
    return true;
  }
  if (ParseUniformityFilterFlag(name, value, line)) return true;
  if (name == "max-workgroups") {  // also as glint-audit spells it
    ParseMaxWorkgroups(value.c_str(), line);
    return true;
  }
  if (name == "dump-ranges") {
    if (value != "json") throw CommandLineError("--dump-ranges expects no value or =json");
    line.dump_ranges = line.dump_ranges_json = true;
    return true;
  }
  return false;
}

// --report=html FILE, --report=sarif FILE (each may be given once).
void ParseReportFlag(const std::string& format, Arguments& args, CommandLine& line) {
  std::optional<std::string>* target = format == "html"    ? &line.html_report
                                       : format == "sarif" ? &line.sarif_report
                                                           : nullptr;
  if (!target) throw CommandLineError("--report expects =html or =sarif, then a file name");
  *target = RequiredOperand(args, ("--report=" + format + ": expects a file name").c_str());
}

std::string Lowercase(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

// glslangValidator lowercases the whole word; Glint's --name=value flags lowercase the
// name only (a file name or pass list keeps its case).
void ParseLongFlag(Arguments& args, CommandLine& line) {
  std::string word = Lowercase(args.Current() + 2);
  auto glslang_option = GlslangLongOptions().find(word);
  if (glslang_option != GlslangLongOptions().end()) return glslang_option->second(args, line, word);
  auto glint_option = GlintLongOptions().find(word);
  if (glint_option != GlintLongOptions().end()) return glint_option->second(args, line, word);
  std::string typed = args.Current() + 2;
  size_t equal = typed.find('=');
  std::string name = Lowercase(typed.substr(0, equal));
  if (name == "report")
    return ParseReportFlag(equal == std::string::npos ? "" : typed.substr(equal + 1), args, line);
  if (equal != std::string::npos && ParseGlintValueFlag(name, typed.substr(equal + 1), line))
    return;
  if (word == "range-analysis" || word == "uniformity" || word == "passes" ||
      word == "uniformity-off" || word == "uniformity-note" || word == "uniformity-assume-uniform")
    throw CommandLineError("--" + word + " expects =<value>");
  throw CommandLineError(std::string(args.Current()) + ": unrecognized command-line option");
}

void ParseDebugFlag(const char* argument, CommandLine& line) {
  // Each -g form overrides the previous one.
  line.strip_debug = line.debug = line.non_semantic_debug = false;
  if (argument[2] == '0') {
    line.strip_debug = true;
    return;
  }
  line.debug = true;
  line.non_semantic_debug = argument[2] == 'V';
  line.non_semantic_debug_source = line.non_semantic_debug && argument[3] == 'S';
}

void ParseUniformOverride(const char* argument, CommandLine& line) {
  std::string text = AttachedOperand(argument, "-u<name>:<location>");
  size_t colon = text.find(':');  // the name ends at the first colon
  if (colon == std::string::npos) throw CommandLineError(text + ": missing location", true);
  errno = 0;
  long location = std::strtol(text.c_str() + colon + 1, nullptr, 10);
  if (errno != 0) throw CommandLineError(text + ": invalid location", true);
  line.glslang.uniform_location_overrides.emplace_back(text.substr(0, colon),
                                                       static_cast<int>(location));
}

void ParseSpirvClientFlag(const char* argument, CommandLine& line, bool vulkan) {
  if (vulkan)
    SetVulkanSpirv(line);
  else
    SetOpenGlSpirv(line);
  if (argument[2] == 0) return;
  const char* description =
      vulkan ? "-V<num> client input semantics" : "-G<num> client input semantics";
  line.glslang.client_input_semantics_version = AttachedNumber(argument, description);
  if (line.glslang.client_input_semantics_version != 100)
    throw CommandLineError(vulkan ? "unknown client version for -V, should be 100"
                                  : "unknown client version for -G, should be 100");
}

// One-letter flags that are a plain switch (anything after the letter is ignored, as
// glslangValidator does).
bool ParseShortSwitch(char letter, CommandLine& line) {
  static const std::map<char, std::function<void(CommandLine&)>> kSwitches = {
      {'C', [](CommandLine& l) { AddEshMessage(l, EShMsgCascadingErrors); }},
      {'E', [](CommandLine& l) { l.preprocess = true; }},
      {'R', [](CommandLine& l) { l.glslang.vulkan_rules_relaxed = true; }},
      {'c', [](CommandLine& l) { l.dump_config = true; }},
      {'h', [](CommandLine&) { throw ShowUsage{}; }},
      {'i', [](CommandLine& l) { AddEshMessage(l, EShMsgAST); }},
      {'l', [](CommandLine& l) { l.link = true; }},
      {'m', [](CommandLine& l) { l.memory_leak_mode = true; }},
      {'q', [](CommandLine& l) { l.dump_reflection = true; }},
      {'r', [](CommandLine& l) { AddEshMessage(l, EShMsgRelaxedErrors); }},
      {'s', [](CommandLine& l) { l.suppress_info_log = true; }},
      {'t', [](CommandLine& l) { l.multi_threaded = true; }},
      {'v', [](CommandLine& l) { l.print_versions = true; }},
      {'w', [](CommandLine& l) { AddEshMessage(l, EShMsgSuppressWarnings); }},
      {'x', [](CommandLine& l) { l.hex = true; }},
  };
  auto found = kSwitches.find(letter);
  if (found == kSwitches.end()) return false;
  found->second(line);
  return true;
}

void ParseShortFlag(Arguments& args, CommandLine& line) {
  const char* argument = args.Current();
  if (ParseShortSwitch(argument[1], line)) return;
  switch (argument[1]) {
    case 'D':
      if (argument[2] == 0)
        line.glslang.hlsl = true;
      else
        AddDefine(line, argument + 2);
      return;
    case 'G':
      ParseSpirvClientFlag(argument, line, false);
      return;
    case 'H':
      line.human_readable = true;
      if (!line.spirv) SetVulkanSpirv(line);
      return;
    case 'I':
      line.glslang.include_directories.push_back(AttachedOperand(argument, "-I<dir> include path"));
      return;
    case 'O':
      if (argument[2] == 'd')
        line.optimize_disable = true;
      else if (argument[2] == 's')
        line.optimize_size = true;
      else
        throw CommandLineError("unknown -O option");
      return;
    case 'S': {
      const char* stage = args.TakeOperand();
      if (!stage) throw CommandLineError("no <stage> specified for -S");
      line.stage_name = stage;
      return;
    }
    case 'U':
      AddUndefine(line, AttachedOperand(argument, "-U<name>"));
      return;
    case 'V':
      ParseSpirvClientFlag(argument, line, true);
      return;
    case 'd':
      if (std::strcmp(argument, "-dumpversion") == 0 ||
          std::strcmp(argument, "-dumpfullversion") == 0)
        line.print_bare_version = true;
      else
        line.glslang.default_version = 110;
      return;
    case 'e': {
      const char* name = args.TakeOperand();
      if (!name) throw CommandLineError("no <name> provided for -e");
      line.glslang.entry_point = name;
      return;
    }
    case 'f':
      if (std::strcmp(argument, "-fhlsl_functionality1") != 0)
        throw CommandLineError("-f: expected hlsl_functionality1");
      line.glslang.hlsl_functionality1 = true;
      return;
    case 'g':
      ParseDebugFlag(argument, line);
      return;
    case 'o': {
      const char* file = args.TakeOperand();
      if (!file) throw CommandLineError("no <file> provided for -o");
      line.binary_file = file;
      return;
    }
    case 'u':
      ParseUniformOverride(argument, line);
      return;
    default:
      throw CommandLineError(std::string(argument) + ": unrecognized command-line option");
  }
}

// glslangValidator's checks after all flags are read, in its order.
void CheckCombinations(CommandLine& line) {
  if (line.read_stdin && !line.stage_name)
    throw CommandLineError("must provide -S when --stdin is given");
  if (line.preprocess) {
    if (line.link) throw CommandLineError("can't use -E when linking is selected");
    if (line.dump_reflection)
      throw CommandLineError(
          "reflection requires linking, which can't be used when -E when is selected");
  }
  if (line.dump_reflection && !line.link)
    throw CommandLineError("reflection requires -l for linking");
  // A .spv input is always written, so -o needs no -V there.
  bool spirv_inputs = !line.files.empty() && line.files.front().size() > 4 &&
                      line.files.front().compare(line.files.front().size() - 4, 4, ".spv") == 0;
  if (line.binary_file && !line.spirv && !spirv_inputs)
    throw CommandLineError("no binary generation requested (e.g., -V)");
  if (line.glslang.flatten_uniform_arrays && !line.glslang.hlsl)
    throw CommandLineError("uniform array flattening only valid when compiling HLSL source.");
  if (line.glslang.hlsl && line.glslang.client == glslang::EShClientOpenGL)
    throw CommandLineError("Using HLSL input under OpenGL semantics is not currently supported.");
}

// glslangValidator's defaults: the SPIR-V version follows the Vulkan version.
void RationalizeTarget(CommandLine& line) {
  frontend::GlslangSettings& settings = line.glslang;
  if (settings.target_language == glslang::EShTargetNone &&
      settings.client != glslang::EShClientNone) {
    settings.target_language = glslang::EShTargetSpv;
    switch (settings.client_version) {
      case glslang::EShTargetVulkan_1_1:
        settings.target_version = glslang::EShTargetSpv_1_3;
        break;
      case glslang::EShTargetVulkan_1_2:
        settings.target_version = glslang::EShTargetSpv_1_5;
        break;
      case glslang::EShTargetVulkan_1_3:
        settings.target_version = glslang::EShTargetSpv_1_6;
        break;
      default:
        settings.target_version = glslang::EShTargetSpv_1_0;
        break;
    }
  }
  if (settings.client == glslang::EShClientNone &&
      settings.target_language != glslang::EShTargetNone)
    throw CommandLineError("To generate SPIR-V, also specify client semantics. See -G and -V.");
}

}  // namespace

std::vector<std::string> GlslangLongOptionSpellings() {
  std::vector<std::string> spellings;
  for (const auto& [spelling, handler] : GlslangLongOptions()) spellings.push_back(spelling);
  return spellings;
}

std::optional<EShLanguage> StageFromName(const std::string& name) {
  return frontend::StageFromName(name);
}

const char* StageName(EShLanguage stage) { return frontend::StageName(stage); }

std::optional<EShLanguage> StageFromFileName(const std::string& name, bool* hlsl) {
  size_t last_dot = name.find_last_of('.');
  if (last_dot == std::string::npos) return std::nullopt;
  std::string last = name.substr(last_dot + 1);
  if (last != "glsl" && last != "hlsl") return StageFromName(last);
  if (last == "hlsl" && hlsl) *hlsl = true;
  if (last_dot == 0) return std::nullopt;
  size_t second_dot = name.find_last_of('.', last_dot - 1);
  if (second_dot == std::string::npos) return std::nullopt;
  return StageFromName(name.substr(second_dot + 1, last_dot - second_dot - 1));
}

EShMessages MessagesFor(const CommandLine& line) {
  int messages = line.glslang.messages;
  if (line.spirv) messages |= EShMsgSpvRules;
  if (line.vulkan_rules) messages |= EShMsgVulkanRules;
  if (line.preprocess) messages |= EShMsgOnlyPreprocessor;
  if (line.glslang.hlsl) messages |= EShMsgReadHlsl;
  if (line.debug) messages |= EShMsgDebugInfo;
  if (line.optimize_disable) messages |= EShMsgHlslLegalization;
  if (line.glslang.enhanced_messages) messages |= EShMsgEnhanced;
  return static_cast<EShMessages>(messages);
}

void FinishGlslangSettings(CommandLine& line) {
  line.glslang.messages = MessagesFor(line);
  line.glslang.set_environment = line.spirv;
  line.glslang.map_io = line.spirv;
  line.glslang.debug_info = line.non_semantic_debug;
}

glslang::SpvOptions SpvOptionsFor(const CommandLine& line) {
  glslang::SpvOptions options;
  if (line.debug) {
    options.generateDebugInfo = true;
    options.emitNonSemanticShaderDebugInfo = line.non_semantic_debug;
    options.emitNonSemanticShaderDebugSource = line.non_semantic_debug_source;
  } else if (line.strip_debug) {
    options.stripDebugInfo = true;
  }
  options.disableOptimizer = line.optimize_disable;
  options.optimizeSize = line.optimize_size;
  return options;
}

Options GlintOptionsFor(const CommandLine& line, TargetEnv env) {
  Options options = line.glint;
  options.target_env = env;
  options.collect_ranges = line.dump_ranges || line.html_report || line.sarif_report;
  return options;
}

CommandLine ParseCommandLine(int argc, char** argv) {
  CommandLine line;
  line.max_memory_mb = DefaultCompileMemoryMb();
  for (Arguments args(argc, argv); !args.Done(); args.Advance()) {
    const char* argument = args.Current();
    if (argument[0] == '-' && argument[1] == '-')
      ParseLongFlag(args, line);
    else if (argument[0] == '-')
      ParseShortFlag(args, line);
    else if (std::string(argument).size() >= 5 &&
             std::string(argument).compare(std::string(argument).size() - 5, 5, ".conf") == 0)
      line.config_file = argument;
    else
      line.files.push_back(argument);
  }
  CheckCombinations(line);
  RationalizeTarget(line);
  return line;
}

}  // namespace glint::standalone
