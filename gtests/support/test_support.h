// Helpers shared by the GoogleTest suites: compiling GLSL with glslang in-process,
// assembling SPIR-V text, validating, and FileCheck on disassembly and reports.
#ifndef GLINT_GTESTS_TEST_SUPPORT_H
#define GLINT_GTESTS_TEST_SUPPORT_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "SPIRV/ir/module.h"
#include "SPIRV/target_env.h"
#include "glint/glint.h"

namespace glint::test {

std::string SourceRoot();  // the project root
std::string BinaryDir();   // the CMake build directory

// Compiles GLSL (or HLSL when `hlsl`) for `stage` ("vert", "frag", "comp", ...) with
// glslang's own code generation only (frontend::CompileSourceToSpirv, the library's one
// compile driver). `env` is a glslangValidator --target-env value
// ("vulkan1.0", "opengl", "spirv1.4", ...). Fails the current test on errors.
std::vector<uint32_t> CompileGlsl(const std::string& source, const std::string& stage,
                                  const std::string& env = "vulkan1.0", bool hlsl = false);

// spirv-as / spirv-dis through SPIRV-Tools (universal 1.6 environment for assembly).
std::vector<uint32_t> Assemble(const std::string& text);
std::string Disassemble(const std::vector<uint32_t>& words);
// Assemble, then Glint's parser; fails the current test (nullopt) when either fails.
std::optional<spirv::Module> AssembleModule(const std::string& text);
// The id an OpName of `module` gives `name`; fails the current test (0) when none does.
uint32_t IdNamed(const spirv::Module& module, const std::string& name);

// Empty when the module validates for `env` (the public API's or the SPIR-V layer's).
std::string ValidateFor(const std::vector<uint32_t>& words, TargetEnv env);

// Runs LLVM's FileCheck (llvm-15-tools; GLINT_FILECHECK) with `checks` as the check file
// on `text`: CHECK, CHECK-NEXT, CHECK-SAME, CHECK-NOT, CHECK-DAG, CHECK-LABEL, captures
// (`%[[CLAMP:[0-9]+]] = ...` then `%[[CLAMP]]`) and regexes (`{{.*}}`). Every non-blank
// line of `checks` must be one of those directives: a misspelt one (`CHEK:`), which
// FileCheck would skip, fails here. On failure the message is FileCheck's, input dumped.
::testing::AssertionResult FileCheck(const std::string& text, const std::string& checks);

std::string ReadFile(const std::string& path);

// 2^30 empty statements from 30 doubling macros: glslang's preprocessor and parser work
// through them for about a minute in little memory, on any machine (a runaway compile
// for time-limit tests; a huge constant array is refused too quickly on an idle one).
std::string RunawayStatements();
// A fragment shader whose macro doubles 40 times (2^40 tokens): glslang's memory grows
// without end while it expands it.
std::string MacroExplosion();

// `text` as a GoogleTest parameter name: letters and digits kept, every other run of
// characters one '_' ("-V --target-env vulkan1.3" -> "V_target_env_vulkan1_3").
std::string ParamName(const std::string& text);

// The corpus suite's folder (CMake's GLINT_CORPUS, docs/CORPUS.md). Only tests named
// Corpus* use it; they are registered only when it is set. Empty when it is not.
std::string CorpusRoot();

// One row of <corpus>/<folder>/OK_manifest.tsv.
struct CorpusShader {
  std::string folder;          // the corpus folder holding the manifest
  std::string path;            // absolute
  std::string stage;           // "vert", "comp", ...
  std::string manifest_env;    // the --target-env glslang 12 compiled it for
  bool glslang_valid = false;  // glslang 12's own output passes spirv-val (valOK)
};

// Every shader the corpus manifests list, folder by folder in name order. Fails the
// current test when there is no corpus or a manifest names a file that is not there.
std::vector<CorpusShader> ReadCorpusManifests();

// A digest of the corpus's manifests (folder names and texts). Counts measured on one
// corpus are asserted only on that corpus: on another they are printed, not compared.
uint64_t CorpusManifestDigest();

}  // namespace glint::test

#endif  // GLINT_GTESTS_TEST_SUPPORT_H
