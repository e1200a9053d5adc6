// C++ code written for libshaderc's shaderc.hpp, built twice: against Debian's own
// <shaderc/shaderc.hpp> and against Glint's (both linked with Glint's libshaderc.so.1).
// That both build and print the same shows Glint's C++ header takes the same code.
// gtests/libshaderc_test.cpp runs both and compares.
#include <shaderc/shaderc.hpp>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace {

class MemoryIncluder : public shaderc::CompileOptions::IncluderInterface {
 public:
  shaderc_include_result* GetInclude(const char* requested, shaderc_include_type type,
                                     const char* requesting, size_t depth) override {
    std::printf("include %s (%s) from %s at depth %zu\n", requested,
                type == shaderc_include_type_relative ? "relative" : "standard", requesting,
                depth);
    auto* result = new shaderc_include_result();
    static const std::string kName = "common.glsl";
    static const std::string kContent = "const float kScale = 3.0;\n";
    result->source_name = kName.c_str();
    result->source_name_length = kName.size();
    result->content = kContent.c_str();
    result->content_length = kContent.size();
    return result;
  }
  void ReleaseInclude(shaderc_include_result* data) override { delete data; }
};

}  // namespace

int main() {
  const std::string source =
      "#version 450\n#extension GL_GOOGLE_include_directive : require\n"
      "#include \"common.glsl\"\nlayout(location = 0) out vec4 color;\n"
      "void main() { color = vec4(kScale * FACTOR); }\n";
  shaderc::Compiler compiler;
  shaderc::CompileOptions options;
  options.AddMacroDefinition("FACTOR", "2.0");
  options.SetIncluder(std::make_unique<MemoryIncluder>());
  options.SetTargetEnvironment(shaderc_target_env_vulkan, shaderc_env_version_vulkan_1_2);
  shaderc::SpvCompilationResult spv =
      compiler.CompileGlslToSpv(source, shaderc_glsl_fragment_shader, "shader.frag", options);
  std::vector<uint32_t> words(spv.cbegin(), spv.cend());
  std::printf("spv status %d, %zu words, version %08x\n", static_cast<int>(spv.GetCompilationStatus()),
              words.size(), words.size() > 1 ? words[1] : 0u);
  shaderc::AssemblyCompilationResult text = compiler.CompileGlslToSpvAssembly(
      source, shaderc_glsl_fragment_shader, "shader.frag", options);
  std::printf("assembly %zu characters\n", std::string(text.cbegin(), text.cend()).size());
  shaderc::PreprocessedSourceCompilationResult preprocessed =
      compiler.PreprocessGlsl(source, shaderc_glsl_fragment_shader, "shader.frag", options);
  std::printf("preprocessed:\n%s", std::string(preprocessed.cbegin(), preprocessed.cend()).c_str());
  shaderc::SpvCompilationResult broken =
      compiler.CompileGlslToSpv("#version 450\nvoid main() { x; }\n", shaderc_glsl_vertex_shader, "b.vert");
  std::printf("broken status %d, %zu errors: %s", static_cast<int>(broken.GetCompilationStatus()),
              broken.GetNumErrors(), broken.GetErrorMessage().c_str());
  shaderc::SpvCompilationResult assembled =
      compiler.AssembleToSpv(std::string("OpCapability Shader\nOpMemoryModel Logical GLSL450\n"));
  std::printf("assembled status %d, %zu words\n", static_cast<int>(assembled.GetCompilationStatus()),
              static_cast<size_t>(assembled.cend() - assembled.cbegin()));
  return compiler.IsValid() ? 0 : 1;
}
