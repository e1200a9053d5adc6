// embed_glint: Glint embedded the way an engine embeds glslang. A compute shader held
// in memory is parsed and linked with glslang's TShader / TProgram as before; the one
// changed call is glint::GlslangToSpv (instead of glslang::GlslangToSpv), with robust
// access on. The program prints Glint's report (diagnostics, one line per dynamic
// index with its range and verdict, what each pass did) and the SPIR-V size, and
// writes the SPIR-V to the file named by its argument, if any. Exit status 0 on success.
#include <glslang/Public/ResourceLimits.h>
#include <glslang/Public/ShaderLang.h>
#include <glslang/SPIRV/GlslangToSpv.h>

#include <glint/glint.h>
#include <glint/report_format.h>

#include <cstdio>
#include <fstream>
#include <vector>

namespace {

const char* kShaderName = "particles.comp";
const char* kShaderSource = R"(#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Particles { vec4 positions[]; };
layout(std140, binding = 1) uniform Forces { vec4 forces[16]; };
layout(push_constant) uniform Step { uint field; float dt; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  positions[i] += forces[(i + field) % 16u] * dt;  // provably within forces[16]
  positions[i] += forces[field] * dt;              // field is anything the host sends
}
)";

void PrintReport(const glint::Report& report) {
  for (const glint::Diagnostic& diagnostic : report.diagnostics)
    std::printf("%s\n", glint::FormatDiagnostic(diagnostic).c_str());
  for (const glint::AccessRecord& access : report.accesses) {
    std::printf("access %s %s", access.instruction.c_str(), access.object.c_str());
    if (access.location.line)
      std::printf(" (%s:%u)", access.location.file.c_str(), access.location.line);
    if (access.has_range)
      std::printf(" index in [%lld, %lld]", static_cast<long long>(access.range_min),
                  static_cast<long long>(access.range_max));
    else
      std::printf(" index unbounded (%s)", access.reason.c_str());
    std::printf(", limit %lld: %s\n", static_cast<long long>(access.limit),
                glint::AccessVerdictText(access.verdict));
  }
  for (const glint::PassStatistic& pass : report.passes)
    std::printf("pass %s: %s, %u rewrites\n", pass.pass.c_str(),
                pass.changed ? "changed" : "unchanged", pass.rewrites);
}

// Parses, links and generates SPIR-V for Vulkan 1.0, with Glint in the last step.
bool Compile(std::vector<uint32_t>& spirv) {
  glslang::TShader shader(EShLangCompute);
  const int lengths[] = {-1};
  shader.setStringsWithLengthsAndNames(&kShaderSource, lengths, &kShaderName, 1);
  shader.setEnvInput(glslang::EShSourceGlsl, EShLangCompute, glslang::EShClientVulkan, 100);
  shader.setEnvClient(glslang::EShClientVulkan, glslang::EShTargetVulkan_1_0);
  shader.setEnvTarget(glslang::EShTargetSpv, glslang::EShTargetSpv_1_0);
  const auto messages = static_cast<EShMessages>(EShMsgSpvRules | EShMsgVulkanRules);
  if (!shader.parse(GetDefaultResources(), 100, false, messages)) {
    std::fprintf(stderr, "%s", shader.getInfoLog());
    return false;
  }
  glslang::TProgram program;
  program.addShader(&shader);
  if (!program.link(messages)) {
    std::fprintf(stderr, "%s", program.getInfoLog());
    return false;
  }
  glslang::SpvOptions spv_options;
  glint::Options options;
  options.robust_access = true;   // clamp every index the range analysis cannot prove
  options.collect_ranges = true;  // one AccessRecord per dynamic index in the report
  options.validate = true;        // spirv-val for options.target_env (Vulkan 1.0)
  glint::Report report;
  bool ok = glint::GlslangToSpv(*program.getIntermediate(EShLangCompute), spirv, &spv_options,
                                options, &report);
  PrintReport(report);
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  glslang::InitializeProcess();
  std::vector<uint32_t> spirv;
  bool ok = Compile(spirv);
  glslang::FinalizeProcess();
  if (!ok) {
    std::fprintf(stderr, "embed_glint: compilation failed\n");
    return 1;
  }
  std::printf("embed_glint: %zu SPIR-V words\n", spirv.size());
  if (argc > 1) {
    std::ofstream out(argv[1], std::ios::binary);
    out.write(reinterpret_cast<const char*>(spirv.data()),
              static_cast<std::streamsize>(spirv.size() * sizeof(uint32_t)));
    if (!out) {
      std::fprintf(stderr, "embed_glint: cannot write %s\n", argv[1]);
      return 1;
    }
  }
  return 0;
}
