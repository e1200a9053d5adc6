// glslc's command line (options.h). Each argument is tested in glslc's order; the first
// test that matches takes it. Errors print glslc's line and end parsing with exit code 1,
// except the few glslc reports and goes on after (-x or -I without a value, a bare -D).
#include "options.h"

#include <cerrno>
#include <cstdlib>
#include <sstream>

#include <spirv-tools/libspirv.h>

#include "input_files.h"
#include "preprocessed_text.h"
#include "resource_limits.h"
#include "setting_names.h"

namespace glint::glslc {
namespace {

const char* const kGlslcHelp =
#include "glslc_help.inc"
    ;

const char* const kGlintHelp = R"(glslc (Glint) - glslc 2023.2's options (glslc --help), and these:

Glint runs its passes on every module unless -fno-glint is given.
  --help-glint      Display these options.
  -fno-glint        Compile as Debian's glslc does: no Glint passes, no Glint
                    warnings; the output is byte for byte what glslc 2023.2 writes.
  -frobust-access   Clamp every dynamic index into arrays, vectors, matrices,
                    runtime arrays and images, skipping the clamps that the
                    range analysis proves unnecessary.
  -frange-analysis=<mode>
                    Which analysis may prove a clamp unnecessary: full (the
                    default), reference (only the reference design's rules) or
                    off (every dynamic index is clamped).
  -funiformity=<severity>
                    Derivatives, implicit-LOD sampling and barriers in
                    non-uniform control flow: warn (the default), error, or off.
  -fno-constant-tables
                    Leave constant arrays indexed at run time as glslang emits
                    them (a copy per access) instead of one module-scope table.
)";

// glslc's uint32 reading (binding bases, set and binding numbers): the whole text, with
// C++'s automatic base (0x hex, 0 octal), no sign.
bool ParseUint32(const std::string& text, uint32_t* value) {
  if (text.empty() || text[0] == '-' || text[0] == '+' || isspace(static_cast<unsigned char>(text[0])))
    return false;
  errno = 0;
  char* end = nullptr;
  unsigned long long parsed = std::strtoull(text.c_str(), &end, 0);
  if (errno != 0 || *end != '\0' || parsed > 0xffffffffull) return false;
  *value = static_cast<uint32_t>(parsed);
  return true;
}

bool StartsWith(const std::string& text, const std::string& prefix) {
  return text.compare(0, prefix.size(), prefix) == 0;
}

bool SpirvVersion(const std::string& value, glslang::EShTargetLanguageVersion* version) {
  static const std::pair<const char*, glslang::EShTargetLanguageVersion> kVersions[] = {
      {"spv1.0", glslang::EShTargetSpv_1_0}, {"spv1.1", glslang::EShTargetSpv_1_1},
      {"spv1.2", glslang::EShTargetSpv_1_2}, {"spv1.3", glslang::EShTargetSpv_1_3},
      {"spv1.4", glslang::EShTargetSpv_1_4}, {"spv1.5", glslang::EShTargetSpv_1_5},
      {"spv1.6", glslang::EShTargetSpv_1_6}};
  for (const auto& [name, known] : kVersions)
    if (value == name) {
      *version = known;
      return true;
    }
  return false;
}

struct Parser {
  const std::vector<std::string>& args;
  GlslcOptions* options;
  ParseOutcome outcome;
  size_t next = 0;
  bool deferred_failure = false;  // -x or -I without a value: reported, fails after parsing
  std::optional<EShLanguage> current_stage;
  std::optional<bool> current_hlsl;
  std::string current_entry_point = "main";
  bool stdin_given = false;

  bool Fail(const std::string& message) {
    outcome.err += "glslc: error: " + message + "\n";
    outcome.exit_code = 1;
    outcome.proceed = false;
    return false;
  }

  // "-o x" or "-ox": the value after the option's name, or the next argument.
  std::optional<std::string> SeparateOrJoined(const std::string& arg, const std::string& name) {
    if (arg.size() > name.size()) return arg.substr(name.size());
    if (next < args.size()) return args[next++];
    return std::nullopt;
  }

  bool BindingBase(const std::string& arg, BindingKind kind) {
    if (next >= args.size()) return Fail("Option " + arg + " requires at least one argument");
    std::optional<EShLanguage> stage;
    if (std::optional<EShLanguage> named = StageFromGlslcName(args[next])) {
      stage = BindingStage(*named);
      if (!stage)
        return Fail("Option " + arg + " cannot be restricted to stage " + args[next]);
      ++next;
      if (next >= args.size())
        return Fail("Option " + arg + " with stage " + arg + " requires an offset argument");
    }
    uint32_t base = 0;
    if (!ParseUint32(args[next], &base))
      return Fail("invalid offset value " + args[next] + " for " + arg);
    ++next;
    for (int s = 0; s < EShLangCount; ++s)
      if (!stage || s == *stage) options->binding_base[kind][s] = base;
    return true;
  }

  bool ResourceSetBinding(const std::string& arg) {
    std::optional<EShLanguage> stage;
    if (next < args.size())
      if (std::optional<EShLanguage> named = StageFromGlslcName(args[next])) {
        stage = BindingStage(*named);
        if (!stage)
          return Fail("Option " + arg + " cannot be restricted to stage " + args[next]);
        ++next;
      }
    std::vector<std::string> triples;
    while (next + 2 < args.size() && args[next][0] != '-' && args[next + 1][0] != '-' &&
           args[next + 2][0] != '-') {
      for (int k = 0; k < 3; ++k) triples.push_back(args[next + k]);
      next += 3;
    }
    if (triples.empty()) {
      // glslc's message spells its own name without the 'l'.
      outcome.err += "glsc: error: Option -fresource-set-binding requires at least 3 arguments\n";
      outcome.exit_code = 1;
      return false;
    }
    for (size_t t = 0; t < triples.size(); t += 3) {
      uint32_t number = 0;
      if (!ParseUint32(triples[t + 1], &number)) return Fail("Invalid set number: " + triples[t + 1]);
      if (!ParseUint32(triples[t + 2], &number))
        return Fail("Invalid binding number: " + triples[t + 2]);
    }
    for (int s = 0; s < EShLangCount; ++s)
      if (!stage || s == *stage)
        options->resource_set_binding[s].insert(options->resource_set_binding[s].end(),
                                                triples.begin(), triples.end());
    return true;
  }

  bool Macro(const std::string& arg) {
    std::string definition = arg.substr(2);
    if (definition.empty()) {
      // Reported, not a failure: glslc goes on with the next argument as an input.
      outcome.err += "glslc: error: argument to '-D' is missing\n";
      return true;
    }
    if (StartsWith(definition, "GL_"))
      return Fail("names beginning with 'GL_' cannot be defined: " + arg);
    if (definition.find("__") != std::string::npos)
      outcome.err += "glslc: warning: names containing consecutive underscores are reserved: " +
                     arg + "\n";
    size_t equals = definition.find('=');
    std::string name = definition.substr(0, equals);
    std::string value = equals == std::string::npos ? "" : definition.substr(equals + 1);
    options->macros[name] = value;
    return true;
  }

  bool Dependency(DependencyMode mode) {
    if (options->dependencies != DependencyMode::kNone)
      return Fail(
          "both -M (or -MM) and -MD are specified. Only one should be used at one time.");
    options->dependencies = mode;
    options->dependency_option_given = true;
    return true;
  }

  void Preprocess() {
    options->output_type = OutputType::kPreprocessed;
    options->needs_linking = false;
    if (!options->output_name) options->output_name = "-";
  }

  bool Glint(const std::string& arg) {
    if (arg == "-fno-glint") {
      options->glint = false;
    } else if (arg == "-frobust-access") {
      options->glint_options.robust_access = true;
    } else if (arg == "-fno-constant-tables") {
      options->glint_options.hoist_constant_tables = false;
    } else if (StartsWith(arg, "-frange-analysis=")) {
      std::string value = arg.substr(17);
      std::optional<RangeAnalysisMode> mode = standalone::RangeAnalysisModeNamed(value);
      if (!mode) return Fail("invalid value '" + value + "' in '" + arg + "'");
      options->glint_options.range_analysis = *mode;
    } else if (StartsWith(arg, "-funiformity=")) {
      std::string value = arg.substr(13);
      std::optional<Severity> severity = standalone::UniformitySeverityNamed(value);
      if (!severity) return Fail("invalid value '" + value + "' in '" + arg + "'");
      options->glint_options.uniformity = *severity;
    } else {
      return Fail("unknown argument: '" + arg + "'");
    }
    return true;
  }

  // One argument; false when parsing must stop (outcome says how).
  bool Argument(const std::string& arg) {
    static const std::pair<const char*, BindingKind> kBindingOptions[] = {
        {"-fimage-binding-base", kImage},     {"-ftexture-binding-base", kTexture},
        {"-fsampler-binding-base", kSampler}, {"-fubo-binding-base", kUbo},
        {"-fcbuffer-binding-base", kUbo},     {"-fssbo-binding-base", kSsbo},
        {"-fuav-binding-base", kUav}};
    if (arg == "--help" || arg == "-h") {
      outcome.out = kGlslcHelp;
      return false;
    }
    if (arg == "--help-glint") {
      outcome.out = GlintHelpText();
      return false;
    }
    if (arg == "--show-limits") {
      outcome.out = LimitsText(ShadercDefaultLimits());
      return false;
    }
    if (arg == "--version") {
      outcome.out = VersionText();
      return false;
    }
    if (StartsWith(arg, "-o")) {
      std::optional<std::string> value = SeparateOrJoined(arg, "-o");
      if (!value) return Fail("argument to '-o' is missing (expected 1 value)");
      if (value->empty()) {
        options->output_name.reset();
      } else {
        options->output_name = *value;
      }
      return true;
    }
    if (StartsWith(arg, "-fshader-stage=")) {
      std::string name = arg.substr(15);
      current_stage = StageFromGlslcName(name);
      if (!current_stage) return Fail("stage not recognized: '" + name + "'");
      return true;
    }
    if (arg == "-fauto-bind-uniforms") return options->auto_bind_uniforms = true;
    if (arg == "-fauto-combined-image-sampler") return options->auto_combined_image_sampler = true;
    if (arg == "-fauto-map-locations") return options->auto_map_locations = true;
    if (arg == "-fhlsl-iomap") return options->hlsl_iomap = true;
    if (arg == "-fhlsl-offsets") return options->hlsl_offsets = true;
    if (arg == "-fhlsl_functionality1" || arg == "-fhlsl-functionality1")
      return options->hlsl_functionality1 = true;
    if (arg == "-fhlsl-16bit-types") return options->hlsl_16bit_types = true;
    if (arg == "-finvert-y") return options->invert_y = true;
    if (arg == "-fnan-clamp") return options->nan_clamp = true;
    for (const auto& [name, kind] : kBindingOptions)
      if (arg == name) return BindingBase(arg, kind);
    if (arg == "-fresource-set-binding") return ResourceSetBinding(arg);
    if (StartsWith(arg, "-fentry-point=")) {
      current_entry_point = arg.substr(14);
      return true;
    }
    if (StartsWith(arg, "-flimit=")) {
      std::string error;
      if (!ParseLimits(arg.substr(8), &options->limits, &error))
        return Fail("-flimit error: " + error);
      return true;
    }
    if (StartsWith(arg, "-flimit-file")) {
      std::optional<std::string> file = SeparateOrJoined(arg, "-flimit-file");
      if (!file) return Fail("argument to '-flimit-file' is missing");
      std::string text, why;
      if (!ReadInputFile(*file, &text, &why)) {
        outcome.err += "glslc: error: cannot open input file: '" + *file + "'" + why + "\n";
        outcome.err += "glslc: cannot read limits file: " + *file + "\n";
        outcome.exit_code = 1;
        return false;
      }
      std::string error;
      if (!ParseLimits(text, &options->limits, &error)) return Fail("-flimit-file error: " + error);
      return true;
    }
    if (StartsWith(arg, "-std=")) {
      std::string value = arg.substr(5);
      if (!ParseVersionProfile(value, &options->version, &options->profile))
        return Fail("invalid value '" + value + "' in '" + arg + "'");
      options->force_version_profile = true;
      return true;
    }
    if (StartsWith(arg, "--target-env=")) {
      std::string value = arg.substr(13);
      if (value == "opengl_compat") return Fail("opengl_compat is no longer supported");
      if (!TargetEnvironmentNamed(value, &options->target))
        return Fail("invalid value '" + value + "' in '" + arg + "'");
      return true;
    }
    if (StartsWith(arg, "--target-spv=")) {
      std::string value = arg.substr(13);
      glslang::EShTargetLanguageVersion version{};
      if (!SpirvVersion(value, &version)) return Fail("invalid value '" + value + "' in '" + arg + "'");
      options->target_spirv = version;
      return true;
    }
    if (StartsWith(arg, "-mfmt=")) {
      std::string value = arg.substr(6);
      if (value == "bin") {
        options->format = BinaryFormat::kBinary;
      } else if (value == "num") {
        options->format = BinaryFormat::kNumbers;
      } else if (value == "c") {
        options->format = BinaryFormat::kCInitializer;
      } else if (value == "wgsl") {
        wgsl_asked = true;
      } else {
        return Fail("invalid value '" + value + "' in '" + arg + "'");
      }
      return true;
    }
    if (StartsWith(arg, "-x")) {
      std::optional<std::string> language = SeparateOrJoined(arg, "-x");
      if (!language) {
        outcome.err += "glslc: error: argument to '-x' is missing (expected 1 value)\n";
        deferred_failure = true;
        return true;
      }
      if (*language == "glsl") {
        current_hlsl = false;
      } else if (*language == "hlsl") {
        current_hlsl = true;
      } else {
        return Fail("language not recognized: '" + *language + "'");
      }
      return true;
    }
    if (arg == "-c") {
      if (options->output_type != OutputType::kAssembly) {
        options->needs_linking = false;
        options->output_extension = ".spv";
      }
      return true;
    }
    if (arg == "-E") {
      Preprocess();
      return true;
    }
    if (arg == "-M" || arg == "-MM") {
      if (!Dependency(DependencyMode::kAsOutput)) return false;
      Preprocess();
      options->suppress_warnings = true;
      return true;
    }
    if (arg == "-MD") return Dependency(DependencyMode::kBesideOutput);
    if (arg == "-MF") {
      options->dependency_option_given = true;
      if (next >= args.size()) return Fail("missing dependency info filename after '-MF'");
      options->dependency_file = args[next++];
      return true;
    }
    if (arg == "-MT") {
      options->dependency_option_given = true;
      if (next >= args.size()) return Fail("missing dependency info target after '-MT'");
      options->dependency_target = args[next++];
      return true;
    }
    if (arg == "-S") {
      if (options->output_type != OutputType::kPreprocessed) {
        options->output_type = OutputType::kAssembly;
        options->needs_linking = false;
        options->output_extension = ".spvasm";
      }
      return true;
    }
    if (StartsWith(arg, "-D")) return Macro(arg);
    if (StartsWith(arg, "-I")) {
      std::optional<std::string> directory = SeparateOrJoined(arg, "-I");
      if (!directory) {
        outcome.err += "glslc: error: argument to '-I' is missing (expected 1 value)\n";
        deferred_failure = true;
        return true;
      }
      options->include_directories.push_back(*directory);
      return true;
    }
    if (arg == "-g") return options->debug_info = true;
    if (StartsWith(arg, "-O")) {
      std::string level = arg.substr(2);
      if (level.empty()) {
        options->optimization = Optimization::kPerformance;
      } else if (level == "s") {
        options->optimization = Optimization::kSize;
      } else if (level == "0") {
        options->optimization = Optimization::kNone;
      } else {
        return Fail("invalid value '" + level + "' in '" + arg + "'");
      }
      return true;
    }
    if (arg == "-w") return options->suppress_warnings = true;
    if (arg == "-Werror") return options->warnings_as_errors = true;
    if (StartsWith(arg, "--") ) return Fail("unsupported option: '" + arg + "'");
    if (arg.size() > 1 && arg[0] == '-') {
      if (StartsWith(arg, "-f") && IsGlintOption(arg)) return Glint(arg);
      return Fail("unknown argument: '" + arg + "'");
    }
    // An input file.
    if (arg == "-") {
      if (stdin_given)
        return Fail(
            "specifying standard input \"-\" as input more than once is not allowed.");
      stdin_given = true;
    }
    InputFile input;
    input.path = arg;
    input.forced_stage = current_stage;
    input.hlsl = current_hlsl;
    input.entry_point = current_entry_point;
    options->inputs.push_back(std::move(input));
    return true;
  }

  static bool IsGlintOption(const std::string& arg) {
    return arg == "-fno-glint" || arg == "-frobust-access" || arg == "-fno-constant-tables" ||
           StartsWith(arg, "-frange-analysis=") || StartsWith(arg, "-funiformity=");
  }

  static std::string VersionText();

  bool wgsl_asked = false;

  // The checks glslc makes once every argument is read.
  void Validate() {
    const GlslcOptions& o = *options;
    if (o.inputs.empty()) {
      Fail("no input files");
      return;
    }
    if (o.inputs.size() > 1 && o.needs_linking) {
      Fail("linking multiple files is not supported yet. Use -c to compile files individually.");
      return;
    }
    bool preprocess_only = o.output_type == OutputType::kPreprocessed;
    if (o.inputs.size() > 1 && ((!preprocess_only && !o.needs_linking && o.output_name) ||
                                (preprocess_only && o.output_name && *o.output_name != "-"))) {
      Fail("cannot specify -o when generating multiple output files");
      return;
    }
    if (o.dependency_option_given) {
      if (o.dependencies == DependencyMode::kNone) {
        Fail("to generate dependencies you must specify either -M (-MM) or -MD");
        return;
      }
      if ((o.dependency_file || o.dependency_target) && o.inputs.size() > 1) {
        Fail("to specify dependency info file name or dependency info target, only one input "
             "file is allowed.");
        return;
      }
    }
    if ((o.format || wgsl_asked) && o.output_type != OutputType::kBinary) {
      const char* what = wgsl_asked ? "WGSL source program"
                         : *o.format == BinaryFormat::kBinary    ? "binary"
                         : *o.format == BinaryFormat::kNumbers   ? "list of hex numbers"
                                                                 : "C-style initializer list";
      Fail(std::string("cannot emit output as a ") + what +
           " when only preprocessing the source");
      return;
    }
    if (wgsl_asked) {
      Fail("can't output WGSL: glslc was built without WGSL output support");
      return;
    }
    if (deferred_failure) {
      outcome.exit_code = 1;
      return;
    }
    outcome.proceed = true;
  }
};

std::string Parser::VersionText() {
  // What Debian's glslc 2023.2-1 prints, and Glint beside it.
  return std::string("shaderc 2023.2-1\nspirv-tools 2022.4+1.3.236.0-1\nglslang 11.13.0-1\n\n") +
         "Target: " + spvTargetEnvDescription(SPV_ENV_UNIVERSAL_1_0) + "\n";
}

}  // namespace

std::optional<EShLanguage> StageFromGlslcName(const std::string& name) {
  static const std::pair<const char*, EShLanguage> kStages[] = {
      {"vertex", EShLangVertex},        {"vert", EShLangVertex},
      {"fragment", EShLangFragment},    {"frag", EShLangFragment},
      {"tesscontrol", EShLangTessControl}, {"tesc", EShLangTessControl},
      {"tesseval", EShLangTessEvaluation}, {"tese", EShLangTessEvaluation},
      {"geometry", EShLangGeometry},    {"geom", EShLangGeometry},
      {"compute", EShLangCompute},      {"comp", EShLangCompute},
      {"rgen", EShLangRayGen},          {"rahit", EShLangAnyHit},
      {"rchit", EShLangClosestHit},     {"rmiss", EShLangMiss},
      {"rint", EShLangIntersect},       {"rcall", EShLangCallable},
      {"task", EShLangTask},            {"mesh", EShLangMesh}};
  for (const auto& [known, stage] : kStages)
    if (name == known) return stage;
  return std::nullopt;
}

// The stages glslc can qualify a binding option with. glslc files such a setting under
// its own stage numbering, where tessellation evaluation comes before tessellation
// control, and reads it back by glslang's: a `tesc` setting reaches tessellation
// evaluation shaders and a `tese` one tessellation control shaders. Kept, so that
// -fno-glint output stays glslc's. (glslc aborts on ray tracing, task and mesh stages
// here; this refuses them with a message instead.)
std::optional<EShLanguage> BindingStage(EShLanguage stage) {
  switch (stage) {
    case EShLangTessControl:
      return EShLangTessEvaluation;
    case EShLangTessEvaluation:
      return EShLangTessControl;
    case EShLangVertex:
    case EShLangGeometry:
    case EShLangFragment:
    case EShLangCompute:
      return stage;
    default:
      return std::nullopt;
  }
}

bool TargetEnvironmentNamed(const std::string& value, TargetEnvironment* target) {
  if (value == "vulkan" || value == "vulkan1.0") {
    *target = {glslang::EShClientVulkan, glslang::EShTargetVulkan_1_0, glslang::EShTargetSpv_1_0,
               SPV_ENV_VULKAN_1_0, TargetEnv::kVulkan10};
  } else if (value == "vulkan1.1") {
    *target = {glslang::EShClientVulkan, glslang::EShTargetVulkan_1_1, glslang::EShTargetSpv_1_3,
               SPV_ENV_VULKAN_1_1, TargetEnv::kVulkan11};
  } else if (value == "vulkan1.2") {
    *target = {glslang::EShClientVulkan, glslang::EShTargetVulkan_1_2, glslang::EShTargetSpv_1_5,
               SPV_ENV_VULKAN_1_2, TargetEnv::kVulkan12};
  } else if (value == "vulkan1.3") {
    *target = {glslang::EShClientVulkan, glslang::EShTargetVulkan_1_3, glslang::EShTargetSpv_1_6,
               SPV_ENV_VULKAN_1_3, TargetEnv::kVulkan13};
  } else if (value == "opengl" || value == "opengl4.5") {
    *target = {glslang::EShClientOpenGL, glslang::EShTargetOpenGL_450, glslang::EShTargetSpv_1_0,
               SPV_ENV_OPENGL_4_5, TargetEnv::kOpenGL45};
  } else {
    return false;
  }
  return true;
}

std::string HelpText() { return kGlslcHelp; }
std::string GlintHelpText() { return kGlintHelp; }

ParseOutcome ParseCommandLine(const std::vector<std::string>& args, GlslcOptions* options) {
  options->limits = ShadercDefaultLimits();
  Parser parser{args, options, {}};
  while (parser.next < args.size()) {
    const std::string& arg = args[parser.next++];
    if (!parser.Argument(arg)) return parser.outcome;
  }
  parser.Validate();
  return parser.outcome;
}

}  // namespace glint::glslc
