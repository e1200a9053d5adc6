// glint-audit: runs a compute shader, instrumented, on a Vulkan device over a lattice
// of its workgroups and checks every dynamic index's observed values against the range
// Glint's integer range analysis proved (see audit.h). A separate command rather than a
// glslangValidator flag: it needs a Vulkan device, and glslangValidator must not.
//
//   glint-audit [options] shader.comp|shader.spv
//
// Exit status: 0 no escape; 1 an ESCAPE (the analysis is unsound); 2 a refusal (bad
// input or flag, a budget hit, no device, a shader that needs more than buffers).
#include <glslang/Public/ResourceLimits.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>

#include "SPIRV/validate.h"
#include "audit.h"
#include "glslang/front_end/front_end.h"

namespace glint::audit {
namespace {

constexpr const char* kUsage = R"(usage: glint-audit [options] <shader.comp | shader.spv>
Runs a compute shader on a Vulkan device (lavapipe by default) over a lattice of its
workgroups and checks each dynamic index against the range Glint proved.
  --groups=X,Y,Z              dispatch size (default 1,1,1)
  --group-budget=N            most groups sampled (default 256)
  --dispatch-time-budget-ms=T time budget of one dispatch (default 10000)
  --seed=N                    seed of the buffer contents (default 1)
  --fill=small|bytes|zeros    seeded words in [0,16), seeded bytes, or zeros (default small)
  --buffer=SET,BINDING=FILE   a buffer's contents (and size) from a file
  --runtime-array-bytes=N     bytes of a trailing run-time array (default 65536)
  --range-analysis=reference|full   the analysis audited (default full)
  --subgroup-size=N           the subgroup size the analysis may assume
  --max-workgroups=X,Y,Z      the largest dispatch the analysis may assume (a promise the
                              audit checks: it dispatches exactly that grid unless --groups
                              names one within it; a larger --groups is refused)
  --spec-constant=ID=VALUE    specialize before analysing and running (repeatable)
  --run-spec-constant=ID=VALUE  specialize the run only (repeatable): the analysis sees
                              the constant unset, so what it proves for every value is
                              run at this one
  --target-env=vulkan1.0|vulkan1.1|vulkan1.2|vulkan1.3   (default vulkan1.0)
  --entry-point=NAME          (default main)
  --no-robust-access          run without clamping the shader's own accesses
  --device=NAME               a Vulkan device (default: $GLINT_VK_DEVICE, else lavapipe)
  --quiet                     print only the summary line and escapes
  --test-inject-wrong-range=N (tests only) shrink site N's proven range to force an ESCAPE
Exit status: 0 no escape, 1 an ESCAPE, 2 a refusal.
)";

struct Arguments {
  AuditOptions audit;
  bool groups_given = false;
  std::string device;
  std::string input;
  bool quiet = false;
};

[[noreturn]] void Refuse(const std::string& message) {
  std::fprintf(stderr, "glint-audit: %s\n", message.c_str());
  std::exit(2);
}

uint64_t ParseNumber(const std::string& flag, const std::string& text) {
  char* end = nullptr;
  unsigned long long value = std::strtoull(text.c_str(), &end, 0);
  if (text.empty() || *end != '\0' || text[0] == '-')
    Refuse(flag + " expects a number, got '" + text + "'");
  return value;
}

Groups ParseGroups(const std::string& text) {
  Groups groups;
  std::stringstream stream(text);
  std::string part;
  for (int d = 0; d < 3; ++d) {
    if (!std::getline(stream, part, ',')) Refuse("--groups expects X,Y,Z, got '" + text + "'");
    uint64_t value = ParseNumber("--groups", part);
    if (value == 0 || value > 65535) Refuse("--groups: each count must be in [1, 65535]");
    groups[d] = static_cast<uint32_t>(value);
  }
  if (std::getline(stream, part)) Refuse("--groups expects X,Y,Z, got '" + text + "'");
  return groups;
}

vk::BufferBinding ParseBuffer(const std::string& text) {
  size_t comma = text.find(','), equals = text.find('=');
  if (comma == std::string::npos || equals == std::string::npos || equals < comma)
    Refuse("--buffer expects SET,BINDING=FILE, got '" + text + "'");
  vk::BufferBinding binding;
  binding.set = static_cast<uint32_t>(ParseNumber("--buffer", text.substr(0, comma)));
  binding.binding =
      static_cast<uint32_t>(ParseNumber("--buffer", text.substr(comma + 1, equals - comma - 1)));
  binding.contents = vk::BufferContents::File(text.substr(equals + 1));
  return binding;
}

// Test only: claims a range for site `site` one short of the truth at the top, so the
// audit must report an ESCAPE there (the tests prove the audit can fail).
void InjectWrongRange(uint64_t site, AuditOptions* options) {
  options->adjust_proven_ranges = [site](std::vector<spirv::AuditSite>& sites) {
    if (site >= sites.size()) Refuse("--test-inject-wrong-range: no site " + std::to_string(site));
    spirv::AccessRecord& record = sites[site].record;
    if (!record.has_range) record.range_min = record.range_max = 0;
    record.has_range = true;
    record.range_max = std::max(record.range_min, record.range_max - 1);
  };
}

void ParseFlag(const std::string& flag, const std::string& value, Arguments* args) {
  AuditOptions& a = args->audit;
  if (flag == "--groups") {
    a.groups = ParseGroups(value);
    args->groups_given = true;
  } else if (flag == "--max-workgroups") {
    Groups promised = ParseGroups(value);
    std::copy(promised.begin(), promised.end(), a.analysis.max_workgroups.begin());
  } else if (flag == "--group-budget")
    a.group_budget = ParseNumber(flag, value);
  else if (flag == "--dispatch-time-budget-ms")
    a.dispatch_time_budget_ms = ParseNumber(flag, value);
  else if (flag == "--seed")
    a.seed = ParseNumber(flag, value);
  else if (flag == "--runtime-array-bytes")
    a.runtime_array_bytes = ParseNumber(flag, value);
  else if (flag == "--buffer")
    a.buffers.push_back(ParseBuffer(value));
  else if (flag == "--subgroup-size")
    a.analysis.subgroup_size = static_cast<uint32_t>(ParseNumber(flag, value));
  else if (flag == "--entry-point")
    a.entry_point = value;
  else if (flag == "--device")
    args->device = value;
  else if (flag == "--test-inject-wrong-range")
    InjectWrongRange(ParseNumber(flag, value), &a);
  else if (flag == "--fill") {
    if (value == "small")
      a.fill = Fill::kSeededSmallUints;
    else if (value == "bytes")
      a.fill = Fill::kSeededBytes;
    else if (value == "zeros")
      a.fill = Fill::kZeros;
    else
      Refuse("--fill expects small, bytes or zeros, got '" + value + "'");
  } else if (flag == "--range-analysis") {
    if (value == "reference")
      a.analysis.range_analysis = RangeAnalysisMode::kReference;
    else if (value == "full")
      a.analysis.range_analysis = RangeAnalysisMode::kFull;
    else
      Refuse("--range-analysis expects reference or full (off proves nothing to audit)");
  } else if (flag == "--spec-constant" || flag == "--run-spec-constant") {
    size_t equals = value.find('=');
    if (equals == std::string::npos) Refuse(flag + " expects ID=VALUE");
    std::map<uint32_t, uint64_t>& constants =
        flag == "--spec-constant" ? a.analysis.spec_constants : a.run_spec_constants;
    constants[static_cast<uint32_t>(ParseNumber(flag, value.substr(0, equals)))] =
        ParseNumber(flag, value.substr(equals + 1));
  } else if (flag == "--target-env") {
    spirv::TargetEnv env = spirv::TargetEnv::kVulkan10;
    if (value.rfind("vulkan", 0) != 0 || !spirv::ParseTargetEnv(value, &env))
      Refuse("--target-env expects vulkan1.0 .. vulkan1.3, got '" + value + "'");
    a.target_env = env;
  } else {
    Refuse("unknown flag " + flag + " (use --help)");
  }
}

// --max-workgroups is checked by running at that size: the grid defaults to the promise,
// and a grid beyond it is refused (its ranges would be wrong by the user's own choice).
void CheckPromisedDispatch(Arguments* args) {
  const std::array<uint32_t, 3>& promised = args->audit.analysis.max_workgroups;
  if (promised[0] == 0) return;
  if (!args->groups_given) {
    std::copy(promised.begin(), promised.end(), args->audit.groups.begin());
    return;
  }
  for (int d = 0; d < 3; ++d)
    if (args->audit.groups[d] > promised[d])
      Refuse("--groups exceeds --max-workgroups in dimension " + std::to_string(d) + " (" +
             std::to_string(args->audit.groups[d]) + " > " + std::to_string(promised[d]) +
             "): the analysis assumed the promise");
}

Arguments ParseArguments(int argc, char** argv) {
  Arguments args;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::fputs(kUsage, stdout);
      std::exit(0);
    }
    if (arg == "--quiet") {
      args.quiet = true;
      continue;
    }
    if (arg == "--no-robust-access") {
      args.audit.robust_access = false;
      continue;
    }
    if (arg.rfind("--", 0) != 0) {
      if (!args.input.empty())
        Refuse("one shader at a time (got '" + args.input + "' and '" + arg + "')");
      args.input = arg;
      continue;
    }
    size_t equals = arg.find('=');
    if (equals != std::string::npos) {
      ParseFlag(arg.substr(0, equals), arg.substr(equals + 1), &args);
    } else if (i + 1 < argc) {
      ParseFlag(arg, argv[++i], &args);
    } else {
      Refuse(arg + " expects a value");
    }
  }
  if (args.input.empty()) Refuse("no shader given (use --help)");
  CheckPromisedDispatch(&args);
  return args;
}

std::string ReadBytes(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) Refuse("cannot read '" + path + "'");
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

frontend::GlslangSettings SettingsFor(TargetEnv env) {
  frontend::GlslangSettings settings;
  settings.messages = static_cast<EShMessages>(EShMsgSpvRules | EShMsgVulkanRules);
  settings.set_environment = true;
  settings.client = glslang::EShClientVulkan;
  settings.target_language = glslang::EShTargetSpv;
  switch (env) {
    case TargetEnv::kVulkan11:
      settings.client_version = glslang::EShTargetVulkan_1_1;
      settings.target_version = glslang::EShTargetSpv_1_3;
      break;
    case TargetEnv::kVulkan12:
      settings.client_version = glslang::EShTargetVulkan_1_2;
      settings.target_version = glslang::EShTargetSpv_1_5;
      break;
    case TargetEnv::kVulkan13:
      settings.client_version = glslang::EShTargetVulkan_1_3;
      settings.target_version = glslang::EShTargetSpv_1_6;
      break;
    default:
      break;
  }
  settings.resources = *GetDefaultResources();
  return settings;
}

// glslang's SPIR-V and Glint's default passes, through the public API.
std::vector<uint32_t> GlintOutput(const glslang::TIntermediate& intermediate, const Options& glint,
                                  bool line_info, const std::string& path, Report* located) {
  glslang::SpvOptions spv_options;
  spv_options.generateDebugInfo = line_info;
  std::vector<uint32_t> words;
  Report report;
  if (!GlslangToSpv(intermediate, words, &spv_options, glint, &report)) {
    if (located) return {};  // only locations are lost
    std::string why;
    for (const Diagnostic& d : report.diagnostics) why += FormatDiagnostic(d) + "\n";
    Refuse("Glint failed on '" + path + "':\n" + why);
  }
  if (located) *located = std::move(report);
  return words;
}

// GLSL through glslang and Glint's default passes (the module whose ranges matter).
std::vector<uint32_t> CompileCompute(const std::string& path, AuditOptions* options) {
  frontend::ScopedGlslangProcess process;
  frontend::SourceUnit unit{path, ReadBytes(path), EShLangCompute};
  std::unique_ptr<frontend::Compilation> compilation =
      frontend::Compile({unit}, SettingsFor(options->target_env), false);
  glslang::TIntermediate* intermediate = compilation->Intermediate(EShLangCompute);
  if (compilation->compile_failed || compilation->link_failed || !intermediate) {
    std::string log;
    for (const frontend::UnitLog& u : compilation->units) log += u.info_log;
    Refuse("'" + path + "' does not compile as a compute shader:\n" + log +
           compilation->program_info_log);
  }
  Options glint = options->analysis;
  glint.target_env = options->target_env;
  std::vector<uint32_t> words = GlintOutput(*intermediate, glint, false, path, nullptr);
  // A second compile with line information, only to name source lines in the report;
  // the audited words are the plain compile's, as glslangValidator would emit them.
  glint.collect_ranges = true;
  Report located;
  GlintOutput(*intermediate, glint, true, path, &located);
  options->located_records = std::move(located.accesses);
  return words;
}

std::vector<uint32_t> LoadShader(const std::string& path, AuditOptions* options) {
  if (path.size() > 4 && path.compare(path.size() - 4, 4, ".spv") == 0) {
    std::string bytes = ReadBytes(path);
    if (bytes.size() % 4 != 0 || bytes.empty()) Refuse("'" + path + "' is not a SPIR-V binary");
    std::vector<uint32_t> words(bytes.size() / 4);
    std::memcpy(words.data(), bytes.data(), bytes.size());
    return words;
  }
  return CompileCompute(path, options);
}

int Main(int argc, char** argv) {
  Arguments args = ParseArguments(argc, argv);
  std::vector<uint32_t> words = LoadShader(args.input, &args.audit);
  std::string error;
  vk::DeviceOptions device;
  device.device = args.device;
  std::unique_ptr<vk::Context> context = vk::Context::Create(device, &error);
  if (!context) Refuse("no Vulkan device: " + error);
  AuditResult result;
  if (!RunAudit(*context, words, args.audit, &result, &error)) {
    if (context->Lost()) {
      // A dispatch over its budget may still be running on the driver's threads: leave
      // without tearing the device down under them.
      std::fprintf(stderr, "glint-audit: %s: %s\n", args.input.c_str(), error.c_str());
      std::fflush(nullptr);
      std::_Exit(2);
    }
    Refuse(args.input + ": " + error);
  }
  std::string report = FormatAuditReport(result, args.input);
  if (args.quiet) {
    std::istringstream lines(report);
    for (std::string line; std::getline(lines, line);)
      if (line.find(": ESCAPE") != std::string::npos || line.rfind("audit:", 0) == 0)
        std::printf("%s\n", line.c_str());
  } else {
    std::fputs(report.c_str(), stdout);
  }
  return result.HasEscape() ? 1 : 0;
}

}  // namespace
}  // namespace glint::audit

int main(int argc, char** argv) { return glint::audit::Main(argc, argv); }
