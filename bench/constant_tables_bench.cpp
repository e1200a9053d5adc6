// constant_tables_bench: the seed's real-world case on a Vulkan device (lavapipe by
// default; --device or $GLINT_VK_DEVICE for another). Two 256-entry vec3 constant
// tables, each read at four sites inside two helper functions, run about a million
// times: as a compute shader (16384 groups of 64) and as a 1280x720 fragment shader.
//
// Columns, for SPIR-V 1.0 (vulkan1.0) and 1.6 (vulkan1.3):
//   glslang        glslang 12's output for the tables declared `const` (a Function
//                  copy of the whole table, and below 1.4 an OpStore of it, per site);
//   glint          glint::Process (default options) of that output;
//   hand-arranged  the optimum, one Private variable per table with the constant as its
//                  Initializer. Made from glslang's output for the same shader with the
//                  tables declared as non-const globals (glslang gives each one Private
//                  variable and stores the constant into it once at the top of main);
//                  the bench then folds that store into the variable's Initializer with
//                  Glint's IR (HandArrange below). Nothing else changes.
// All rows come from ONE run of this program: medians of --repeat N timed submissions
// after one untimed warm-up (timestamp queries around the dispatch / render pass), min
// and max, the warm-up alone (lavapipe compiles the pipeline with LLVM on first use), pipeline
// creation (host time of vkCreate*Pipelines), an FNV-1a checksum of the output, and
// ratios. Mesa's on-disk shader cache is disabled so that every variant compiles.
// Exit status 1 when a run is refused or the variants' outputs differ.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <string>
#include <vector>

#include "Execution/vk_runner.h"
#include "SPIRV/ir/parser.h"
#include "SPIRV/validate.h"
#include "glint/glint.h"
#include "glslang/front_end/compile_driver.h"

namespace {

using namespace glint::vk;

// Table entries: smooth, deterministic, printed exactly (9 significant digits).
std::string TableLiteral(const char* name, bool as_const, float phase) {
  std::string text = std::string(as_const ? "const " : "") + "vec3 " + name + "[256] = vec3[](\n";
  char entry[128];
  for (int i = 0; i < 256; ++i) {
    float t = i / 255.0f;
    std::snprintf(entry, sizeof(entry), "  vec3(%.9g, %.9g, %.9g)%s\n",
                  0.5f + 0.5f * std::sin(6.2831853f * t + phase), t * t,
                  0.5f + 0.5f * std::cos(12.566371f * t + phase), i == 255 ? ");" : ",");
    text += entry;
  }
  return text;
}

// The two helpers read each table at four sites in all (two per helper).
std::string TablesAndHelpers(bool as_const) {
  return TableLiteral("kSurface", as_const, 0.0f) + TableLiteral("kAtmosphere", as_const, 1.7f) +
         R"(
uint Hash(uint x) { x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; return x ^ (x >> 16); }
vec3 Terrain(uint k) {
  return kSurface[k & 255u] * kAtmosphere[(k >> 8) & 255u] + kSurface[(k * 3u + 1u) & 255u]
       - kAtmosphere[(k + 17u) & 255u] * 0.5;
}
vec3 Clouds(uint k, float t) {
  return mix(kSurface[(k >> 4) & 255u], kAtmosphere[(k * 5u) & 255u], t)
       + kSurface[(k + 101u) & 255u] * kAtmosphere[(k ^ 0x55u) & 255u];
}
vec3 Shade(uint index) {
  uint k = Hash(index);
  return Terrain(k) + Clouds(k >> 3, 0.3);
}
)";
}

std::string ComputeSource(bool as_const) {
  return "#version 450\nlayout(local_size_x = 64) in;\n"
         "layout(std430, binding = 0) writeonly buffer Output { vec4 color[]; };\n" +
         TablesAndHelpers(as_const) +
         "void main() { uint i = gl_GlobalInvocationID.x; color[i] = vec4(Shade(i), 1.0); }\n";
}

std::string FragmentSource(bool as_const) {
  return "#version 450\nlayout(location = 0) out vec4 color;\n" + TablesAndHelpers(as_const) +
         "void main() { uvec2 p = uvec2(gl_FragCoord.xy); color = vec4(Shade(p.y * 1280u + p.x), "
         "1.0); }\n";
}

// Moves `variable` (a module-scope OpVariable) to just after the definition of `id`, so
// that an initializer glslang declared later than the variable precedes it.
void PlaceAfter(glint::spirv::Module& module, uint32_t variable, uint32_t id) {
  auto& globals = module.types_values;
  auto find = [&](uint32_t result) {
    for (auto it = globals.begin(); it != globals.end(); ++it)
      if (it->result_id == result) return it;
    return globals.end();
  };
  auto variable_it = find(variable);
  auto definition_it = find(id);
  if (variable_it == globals.end() || definition_it == globals.end()) return;
  globals.splice(std::next(definition_it), globals, variable_it);
}

// Folds glslang's `OpStore %table %constant` (a Private variable without initializer,
// stored once in the entry function) into `%table = OpVariable ... Private %constant`.
bool HandArrange(std::vector<uint32_t>* words, std::string* error) {
  std::optional<glint::spirv::Module> module = glint::spirv::ParseModule(*words, error);
  if (!module) return false;
  std::vector<std::pair<uint32_t, uint32_t>> folded;  // (variable, constant)
  for (glint::spirv::Function& function : module->functions)
    for (glint::spirv::Block& block : function.blocks)
      for (auto it = block.instructions.begin(); it != block.instructions.end();) {
        glint::spirv::Instruction* variable =
            it->opcode == spv::OpStore ? module->FindDefinition(it->words[0]) : nullptr;
        glint::spirv::Instruction* value =
            variable ? module->FindDefinition(it->words[1]) : nullptr;
        bool fold = variable && value && variable->opcode == spv::OpVariable &&
                    variable->words.size() == 1 && variable->words[0] == spv::StorageClassPrivate &&
                    value->opcode == spv::OpConstantComposite;
        if (!fold) {
          ++it;
          continue;
        }
        variable->words.push_back(value->result_id);
        folded.push_back({variable->result_id, value->result_id});
        it = block.instructions.erase(it);
      }
  if (folded.size() != 2) {
    *error = "expected to fold 2 table stores, folded " + std::to_string(folded.size());
    return false;
  }
  for (const auto& [variable, constant] : folded) PlaceAfter(*module, variable, constant);
  *words = module->Encode();
  return true;
}

struct Variant {
  const char* name;
  std::vector<uint32_t> words;
};

// glslang, glint and hand-arranged modules for one stage and environment.
bool BuildVariants(bool fragment, const std::string& env, std::vector<Variant>* out,
                   std::string* error) {
  const char* stage = fragment ? "frag" : "comp";
  std::vector<uint32_t> glslang_words, hand_words;
  using glint::frontend::CompileSourceToSpirv;
  if (!CompileSourceToSpirv({fragment ? FragmentSource(true) : ComputeSource(true), stage, env},
                            &glslang_words, error) ||
      !CompileSourceToSpirv({fragment ? FragmentSource(false) : ComputeSource(false), stage, env},
                            &hand_words, error) ||
      !HandArrange(&hand_words, error))
    return false;
  glint::Options options;
  options.target_env =
      env == "vulkan1.3" ? glint::TargetEnv::kVulkan13 : glint::TargetEnv::kVulkan10;
  glint::Report report;
  std::vector<uint32_t> glint_words = glslang_words;
  if (!glint::Process(glint_words, options, &report)) {
    *error = "glint::Process failed";
    return false;
  }
  *out = {{"glslang", glslang_words}, {"glint", glint_words}, {"hand-arranged", hand_words}};
  for (const Variant& variant : *out) {
    std::string problem = glint::spirv::Validate(variant.words, options.target_env);
    if (!problem.empty()) {
      *error = std::string(variant.name) + " fails spirv-val: " + problem;
      return false;
    }
  }
  return true;
}

struct Measurement {
  Timing timing;
  uint64_t checksum = 0;
};

// What one run of the program measures.
struct Settings {
  uint32_t repetitions = 5;
  double scale = 1.0;         // fraction of the 16384 groups / 720 rows
  double budget_ms = 600000;  // per submission
  DeviceOptions device;
  std::string only;  // "comp" / "frag" / "1.0" / "1.6" / "comp1.0" ...: run that block only
  std::string dump_directory;  // when set, every variant's module is written there
  bool dump_only = false;      // write the modules, measure nothing
};

uint32_t Scaled(uint32_t full, double scale) {
  return std::max<uint32_t>(1, static_cast<uint32_t>(full * scale + 0.5));
}

bool Measure(Context& context, bool fragment, const std::vector<uint32_t>& words,
             const Settings& settings, Measurement* out, std::string* error) {
  if (fragment) {
    FragmentRun run;
    run.shader.spirv = words;
    run.width = 1280;
    run.height = Scaled(720, settings.scale);
    run.format = ColorFormat::kRgba32Float;
    run.repetitions = settings.repetitions;
    run.warmup_runs = 1;
    run.time_budget_ms = settings.budget_ms;
    FragmentResult result;
    if (!context.RunFragment(run, &result, error)) return false;
    *out = {result.timing, Fnv1a(result.image.pixels)};
    return true;
  }
  ComputeRun run;
  run.shader.spirv = words;
  BufferBinding output;
  uint32_t groups = Scaled(16384, settings.scale);
  output.size = uint64_t{groups} * 64 * 16;
  run.buffers = {output};
  run.group_count = {groups, 1, 1};
  run.repetitions = settings.repetitions;
  run.warmup_runs = 1;
  run.time_budget_ms = settings.budget_ms;
  ComputeResult result;
  if (!context.RunCompute(run, &result, error)) return false;
  *out = {result.timing, Fnv1a(result.buffers[0].bytes)};
  return true;
}

bool DumpVariants(const Settings& settings, bool fragment, const std::string& env,
                  const std::vector<Variant>& variants, std::string* error) {
  for (const Variant& variant : variants) {
    std::string path = settings.dump_directory + "/" + (fragment ? "frag_" : "comp_") + env + "_" +
                       variant.name + ".spv";
    FILE* file = std::fopen(path.c_str(), "wb");
    if (!file ||
        std::fwrite(variant.words.data(), 4, variant.words.size(), file) != variant.words.size()) {
      if (file) std::fclose(file);
      *error = "cannot write '" + path + "'";
      return false;
    }
    std::fclose(file);
  }
  return true;
}

// One stage in one environment: three rows and the ratios.
bool BenchOne(Context& context, bool fragment, const std::string& env, const Settings& settings,
              std::string* error) {
  std::vector<Variant> variants;
  if (!BuildVariants(fragment, env, &variants, error)) return false;
  if (!settings.dump_directory.empty() && !DumpVariants(settings, fragment, env, variants, error))
    return false;
  if (settings.dump_only) return true;
  std::vector<Measurement> results(variants.size());
  for (size_t i = 0; i < variants.size(); ++i) {
    if (!Measure(context, fragment, variants[i].words, settings, &results[i], error)) return false;
    const Timing& t = results[i].timing;
    std::printf("%-8s %-4s %-14s %10.2f %10.2f %10.2f %10.2f %11.2f  %016llx\n",
                fragment ? "fragment" : "compute", env == "vulkan1.3" ? "1.6" : "1.0",
                variants[i].name, t.median_ms, t.min_ms, t.max_ms, t.first_ms, t.pipeline_ms,
                static_cast<unsigned long long>(results[i].checksum));
  }
  double glslang = results[0].timing.median_ms, glint = results[1].timing.median_ms,
         hand = results[2].timing.median_ms;
  std::printf(
      "  ratios: glslang/hand %.2fx, glslang/glint %.2fx, glint/hand %.3fx (target <= 1.05); "
      "first run glslang/glint %.2fx\n",
      glslang / hand, glslang / glint, glint / hand,
      results[0].timing.first_ms / results[1].timing.first_ms);
  bool same =
      results[0].checksum == results[1].checksum && results[1].checksum == results[2].checksum;
  std::printf("  checksums: %s\n", same ? "identical" : "DIFFER");
  if (!same) *error = "the variants' outputs differ";
  return same;
}

const char kUsage[] =
    "usage: constant_tables_bench [--repeat N] [--scale F] [--budget-ms MS] [--device NAME]\n"
    "                             [--only comp|frag|1.0|1.6|comp1.0|...] [--dump DIR] [--dump-only "
    "DIR]\n"
    "  --scale F        run F of the full size (16384 groups of 64; 1280x720) on slow machines\n"
    "  --dump DIR       also write every variant's module to DIR (<stage>_<env>_<variant>.spv)\n"
    "  --dump-only DIR  write the modules and measure nothing\n";

bool ParseArguments(int argc, char** argv, Settings* settings) {
  settings->device.robust_buffer_access = false;
  for (int i = 1; i < argc; i += 2) {
    std::string flag = argv[i];
    if (i + 1 >= argc) return false;
    std::string value = argv[i + 1];
    if (flag == "--repeat")
      settings->repetitions = static_cast<uint32_t>(std::max(1, std::atoi(value.c_str())));
    else if (flag == "--scale")
      settings->scale = std::atof(value.c_str());
    else if (flag == "--budget-ms")
      settings->budget_ms = std::atof(value.c_str());
    else if (flag == "--device")
      settings->device.device = value;
    else if (flag == "--only")
      settings->only = value;
    else if (flag == "--dump" || flag == "--dump-only") {
      settings->dump_directory = value;
      settings->dump_only = flag == "--dump-only";
    } else
      return false;
  }
  return settings->scale > 0 && settings->scale <= 1 && settings->budget_ms > 0;
}

}  // namespace

int main(int argc, char** argv) {
  Settings settings;
  if (!ParseArguments(argc, argv, &settings)) {
    std::fprintf(stderr, "%s", kUsage);
    return 2;
  }
  setvbuf(stdout, nullptr, _IOLBF, 0);  // rows appear as they are measured
  setenv("MESA_SHADER_CACHE_DISABLE", "true", 1);
  std::string error;
  std::unique_ptr<Context> context = Context::Create(settings.device, &error);
  if (!context) {
    std::fprintf(stderr, "constant_tables_bench: ERROR: %s\n", error.c_str());
    return 1;
  }
  std::printf(
      "device: %s; compute %u invocations, fragment 1280x%u; median of %u timed runs after one "
      "untimed (timestamp queries); first = that first submission alone\n",
      context->DeviceName().c_str(), Scaled(16384, settings.scale) * 64,
      Scaled(720, settings.scale), settings.repetitions);
  std::printf("%-8s %-4s %-14s %10s %10s %10s %10s %11s  %s\n", "stage", "spv", "variant",
              "median ms", "min ms", "max ms", "first ms", "pipeline ms", "checksum");
  bool ok = true;
  for (const char* env : {"vulkan1.0", "vulkan1.3"})
    for (bool fragment : {false, true}) {
      std::string block = std::string(fragment ? "frag" : "comp") +
                          (env == std::string("vulkan1.3") ? "1.6" : "1.0");
      if (block.find(settings.only) == std::string::npos) continue;
      if (!BenchOne(*context, fragment, env, settings, &error)) {
        std::fprintf(stderr, "constant_tables_bench: ERROR: %s\n", error.c_str());
        ok = false;
        if (context->Lost()) return 1;
      }
    }
  return ok ? 0 : 1;
}
