// Tests of libglint.so (glslang/CMakeLists.txt, glslang/glint.map): it exports the
// glint_ C functions and the glint:: C++ API and nothing else (no glslang, no
// SPIRV-Tools, no standard-library template instance, no data), the exported list is
// exactly the one recorded in glslang/glint.symbols (so an accidental ABI change fails
// here), it needs only the C and C++ runtimes, and loaded with dlopen into this test
// program, which links its own static glslang, it compiles exactly what the static
// library compiles: the two glslang copies do not clash.
#include <gtest/gtest.h>

#include <cxxabi.h>
#include <dlfcn.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <regex>
#include <set>
#include <sstream>

#include "glint/glint_c.h"
#include "support/test_support.h"

namespace glint {
namespace {

std::string LibraryPath() { return test::BinaryDir() + "/glslang/libglint.so"; }

std::string RunCommand(const std::string& command, int* status) {
  std::string output;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return output;
  char buffer[4096];
  while (size_t n = fread(buffer, 1, sizeof buffer, pipe)) output.append(buffer, n);
  int raw = pclose(pipe);
  *status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  return output;
}

struct DynamicSymbol {
  char type;         // nm's letter: T text, W weak, D/B data, A absolute (version node)
  std::string name;  // mangled, with its version ("glint_compile@@GLINT_0.2")
};

// `nm -D --defined-only` of libglint.so.
std::vector<DynamicSymbol> ExportedSymbols() {
  int status = -1;
  std::istringstream lines(RunCommand("nm -D --defined-only '" + LibraryPath() + "'", &status));
  EXPECT_EQ(status, 0);
  std::vector<DynamicSymbol> symbols;
  for (std::string address, type, name; lines >> address >> type >> name;)
    symbols.push_back({type[0], name});
  return symbols;
}

std::string Demangled(const std::string& versioned) {
  std::string name = versioned.substr(0, versioned.find('@'));
  int status = 0;
  std::unique_ptr<char, decltype(&std::free)> text(
      abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status), &std::free);
  return status == 0 && text ? std::string(text.get()) : name;
}

TEST(SharedLibrary, Exports_OnlyTheGlintApi) {
  std::vector<DynamicSymbol> symbols = ExportedSymbols();
  ASSERT_GT(symbols.size(), 40u) << "no export list read from " << LibraryPath();
  size_t c_functions = 0, cpp_functions = 0;
  for (const DynamicSymbol& symbol : symbols) {
    const std::string readable = Demangled(symbol.name);
    if (symbol.type == 'A') {  // the version node itself
      EXPECT_EQ(symbol.name.rfind("GLINT_", 0), 0u) << symbol.name;
      continue;
    }
    EXPECT_EQ(symbol.type, 'T') << "not a plain function: " << symbol.type << " " << readable;
    EXPECT_NE(symbol.name.find("@@GLINT_"), std::string::npos) << "unversioned: " << symbol.name;
    if (readable.rfind("glint_", 0) == 0)
      ++c_functions;
    else if (readable.rfind("glint::", 0) == 0)
      ++cpp_functions;
    else
      ADD_FAILURE() << "exported and not Glint's API: " << readable;
  }
  EXPECT_GT(c_functions, 40u);
  EXPECT_GT(cpp_functions, 4u);
}

// glslang/glint.symbols without its comment lines.
std::vector<std::string> RecordedSymbols() {
  std::istringstream lines(test::ReadFile(test::SourceRoot() + "/glslang/glint.symbols"));
  std::vector<std::string> recorded;
  for (std::string line; std::getline(lines, line);)
    if (!line.empty() && line[0] != '#') recorded.push_back(line);
  return recorded;
}

TEST(SharedLibrary, Exports_MatchTheRecordedList) {
  std::vector<std::string> exported;
  for (const DynamicSymbol& symbol : ExportedSymbols()) exported.push_back(symbol.name);
  std::sort(exported.begin(), exported.end());
  std::vector<std::string> recorded = RecordedSymbols();
  ASSERT_FALSE(recorded.empty());
  std::vector<std::string> added, removed;
  std::set_difference(exported.begin(), exported.end(), recorded.begin(), recorded.end(),
                      std::back_inserter(added));
  std::set_difference(recorded.begin(), recorded.end(), exported.begin(), exported.end(),
                      std::back_inserter(removed));
  std::string diff;
  for (const std::string& name : added) diff += "+ " + name + "  (" + Demangled(name) + ")\n";
  for (const std::string& name : removed) diff += "- " + name + "  (" + Demangled(name) + ")\n";
  EXPECT_EQ(diff, "") << "libglint.so's exports differ from glslang/glint.symbols. A removed "
                         "or changed symbol breaks every caller: restore it. An intended "
                         "addition goes into a new version node of glslang/glint.map and into "
                         "glint.symbols (its header says how to regenerate it).";
}

// Every function glint_c.h declares is exported (a declaration without GLINT_EXPORT
// would be hidden in libglint.so and fail to link for its callers).
TEST(SharedLibrary, Exports_EveryFunctionOfTheCHeader) {
  const std::string header =
      test::ReadFile(test::SourceRoot() + "/glslang/include/glint/glint_c.h");
  std::set<std::string> exported;
  for (const DynamicSymbol& symbol : ExportedSymbols())
    exported.insert(symbol.name.substr(0, symbol.name.find('@')));
  const std::regex call(R"(\b(glint_[a-z0-9_]+)\s*\()");
  size_t declared = 0;
  for (auto match = std::sregex_iterator(header.begin(), header.end(), call);
       match != std::sregex_iterator(); ++match, ++declared)
    EXPECT_TRUE(exported.count((*match)[1])) << (*match)[1]
                                             << " is declared but not exported "
                                                "(GLINT_EXPORT missing?)";
  EXPECT_GT(declared, 40u);
}

TEST(SharedLibrary, Dependencies_OnlyTheRuntimes) {
  int status = -1;
  std::string dynamic = RunCommand("readelf -d '" + LibraryPath() + "'", &status);
  ASSERT_EQ(status, 0) << dynamic;
  std::set<std::string> needed;
  std::istringstream lines(dynamic);
  for (std::string line; std::getline(lines, line);) {
    size_t open = line.find("(NEEDED)");
    if (open == std::string::npos) continue;
    size_t begin = line.find('[') + 1;
    needed.insert(line.substr(begin, line.find(']') - begin));
  }
  const std::set<std::string> runtimes = {"libstdc++.so.6", "libm.so.6", "libgcc_s.so.1",
                                          "libc.so.6", "ld-linux-x86-64.so.2"};
  for (const std::string& library : needed)
    EXPECT_TRUE(runtimes.count(library)) << "libglint.so needs " << library;
  const std::string soname = "Library soname: [libglint.so." + std::to_string(GLINT_VERSION_MAJOR) +
                             "." + std::to_string(GLINT_VERSION_MINOR) + "]";
  EXPECT_NE(dynamic.find(soname), std::string::npos) << dynamic;
}

// The C API, looked up in a dlopen'ed libglint.so.
struct LoadedApi {
  decltype(&glint_input_create) input_create;
  decltype(&glint_input_set_source) set_source;
  decltype(&glint_input_set_stage) set_stage;
  decltype(&glint_input_set_language) set_language;
  decltype(&glint_input_set_entry_point) set_entry_point;
  decltype(&glint_input_free) input_free;
  decltype(&glint_compile) compile;
  decltype(&glint_result_succeeded) succeeded;
  decltype(&glint_result_spirv) spirv;
  decltype(&glint_result_spirv_size) spirv_size;
  decltype(&glint_result_free) result_free;
  decltype(&glint_version) version;
};

template <typename Function>
void Find(void* library, const char* name, Function* out) {
  *out = reinterpret_cast<Function>(dlsym(library, name));
  EXPECT_NE(*out, nullptr) << name << ": " << dlerror();
}

// Compiles `source` through `api` (or this program's static Glint when null).
std::vector<uint32_t> CompileWith(const LoadedApi* api, const char* source, int stage, bool hlsl) {
  LoadedApi local = {glint_input_create,
                     glint_input_set_source,
                     glint_input_set_stage,
                     glint_input_set_language,
                     glint_input_set_entry_point,
                     glint_input_free,
                     glint_compile,
                     glint_result_succeeded,
                     glint_result_spirv,
                     glint_result_spirv_size,
                     glint_result_free,
                     glint_version};
  const LoadedApi& use = api ? *api : local;
  glint_input_t* input = use.input_create();
  use.set_source(input, source);
  use.set_stage(input, stage);
  if (hlsl) {
    use.set_language(input, GLINT_LANGUAGE_HLSL);
    use.set_entry_point(input, "main");
  }
  glint_result_t* result = use.compile(input, nullptr);
  use.input_free(input);
  std::vector<uint32_t> words;
  if (use.succeeded(result))
    words.assign(use.spirv(result), use.spirv(result) + use.spirv_size(result));
  use.result_free(result);
  return words;
}

TEST(SharedLibrary, Dlopen_CompilesLikeTheStaticLibraryBesideThisProgramsGlslang) {
  void* library = dlopen(LibraryPath().c_str(), RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(library, nullptr) << dlerror();
  LoadedApi api{};
  Find(library, "glint_input_create", &api.input_create);
  Find(library, "glint_input_set_source", &api.set_source);
  Find(library, "glint_input_set_stage", &api.set_stage);
  Find(library, "glint_input_set_language", &api.set_language);
  Find(library, "glint_input_set_entry_point", &api.set_entry_point);
  Find(library, "glint_input_free", &api.input_free);
  Find(library, "glint_compile", &api.compile);
  Find(library, "glint_result_succeeded", &api.succeeded);
  Find(library, "glint_result_spirv", &api.spirv);
  Find(library, "glint_result_spirv_size", &api.spirv_size);
  Find(library, "glint_result_free", &api.result_free);
  Find(library, "glint_version", &api.version);
  EXPECT_EQ(dlsym(library, "_ZN7glslang17InitializeProcessEv"), nullptr) << "glslang is exported";
  ASSERT_FALSE(HasFailure());
  EXPECT_STREQ(api.version(), glint_version());

  const char* glsl = R"(#version 440
layout(location = 0) flat in int index;
layout(location = 0) out vec4 color;
const float table[4] = float[](1.0, 2.0, 3.0, 4.0);
void main() { color = vec4(table[index & 3]); }
)";
  const char* hlsl = "float4 main(float4 p : SV_Position) : SV_Target { return p * 0.25; }\n";
  // This program's glslang (static) first, then the library's own copy, then again.
  std::vector<uint32_t> static_glsl = CompileWith(nullptr, glsl, GLINT_STAGE_FRAGMENT, false);
  std::vector<uint32_t> shared_glsl = CompileWith(&api, glsl, GLINT_STAGE_FRAGMENT, false);
  std::vector<uint32_t> shared_hlsl = CompileWith(&api, hlsl, GLINT_STAGE_FRAGMENT, true);
  std::vector<uint32_t> static_hlsl = CompileWith(nullptr, hlsl, GLINT_STAGE_FRAGMENT, true);
  ASSERT_GT(static_glsl.size(), 5u);
  ASSERT_GT(static_hlsl.size(), 5u);
  EXPECT_EQ(shared_glsl, static_glsl);
  EXPECT_EQ(shared_hlsl, static_hlsl);
  EXPECT_EQ(test::ValidateFor(shared_glsl, TargetEnv::kVulkan10), "");
  EXPECT_EQ(test::ValidateFor(shared_hlsl, TargetEnv::kVulkan10), "");
  // Not dlclose'd: the library's big-stack worker thread for this thread lives until
  // this thread exits.
}

}  // namespace
}  // namespace glint
