// Tests of bench/classify_clamps.py, the script whose groups closing notes quote: it is
// run end to end on a one-shader corpus of the project's own inputs, with the built
// glslangValidator, and its group for each clamp is checked.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "support/report_test_support.h"
#include "support/test_support.h"

namespace glint::test {
namespace {

// Runs the script on a corpus folder holding `shader` (a Test/ input) as a compute
// shader; its output.
CommandResult Classify(const TemporaryDirectory& corpus, const std::string& shader,
                       const std::string& extra_flags = "") {
  std::filesystem::create_directories(corpus.path() + "/folder");
  corpus.Write("folder/OK_manifest.tsv",
               "#path\tstage\ttarget_env\tspirv_val\nshader.comp\tcomp\tvulkan1.0\tvalOK\n");
  corpus.Write("folder/shader.comp", ReadFile(SourceRoot() + "/Test/" + shader));
  return RunShell("python3 " + ShellQuote(SourceRoot() + "/bench/classify_clamps.py") +
                  " --validator " + ShellQuote(ValidatorPath()) + " --corpus " +
                  ShellQuote(corpus.path()) + " --ceiling" + extra_flags + " 2>&1");
}

// A workgroup size given by a specialization constant is decided by the application
// (it may specialize it at pipeline creation): the clamp it leaves is in the input
// group, not counted against the analysis. (The loop `i < N * 2` is proven only to
// [0, 4294967295], a range wider than the array: that one stays an analysis clamp.)
TEST(ClassifyClamps, UnspecializedWorkgroupSize_IsAnInput) {
  TemporaryDirectory corpus;
  CommandResult result = Classify(corpus, "ranges_spec_constant_unset.comp");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("     1  input     workgroup size is a specialization constant "
                               "without a value (an input: the application may specialize it; "
                               "use --spec-constant)\n"),
            std::string::npos)
      << result.output;
  EXPECT_NE(result.output.find("     1  input (specialization constant)\n"), std::string::npos)
      << result.output;
  EXPECT_NE(result.output.find("     1  analysis  range exceeds the limit\n"), std::string::npos)
      << result.output;
  EXPECT_NE(result.output.find("(sites - input group 1 - out of bounds 0)"), std::string::npos)
      << result.output;
}

// An array whose length is a specialization constant: whatever the index's range, only
// index 0 is in bounds for every length the application may give, so the clamp is an
// input's (the same as a workgroup size given by one).
TEST(ClassifyClamps, SpecializationConstantLength_IsAnInput) {
  TemporaryDirectory corpus;
  CommandResult result = Classify(corpus, "ranges_spec_length.comp");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("     1  input     array length is a specialization constant "
                               "without a value (only index 0 is in bounds for every value; use "
                               "--spec-constant)\n"),
            std::string::npos)
      << result.output;
  EXPECT_NE(result.output.find("(sites - input group 1 - out of bounds 0)"), std::string::npos)
      << result.output;
}

// Indices proven below a length given by a specialization constant, for every value
// (integer_range_spec_lengths.cpp), are counted on a line of their own and stay out of
// the ceiling: they were inputs to it, and still are. The `<=` loop's clamp is an input.
TEST(ClassifyClamps, ProvenForEverySpecialization_CountedApartFromTheCeiling) {
  TemporaryDirectory corpus;
  CommandResult result = Classify(corpus, "ranges_spec_length_proven.comp");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("proven for every specialization: 3 "), std::string::npos)
      << result.output;
  EXPECT_NE(result.output.find("     1  input (specialization constant)\n"), std::string::npos)
      << result.output;
  EXPECT_NE(result.output.find("sites (clamps with --range-analysis=off): 4; full elides 3 (3 "
                               "of them proven for every specialization)"),
            std::string::npos)
      << result.output;
  EXPECT_NE(result.output.find("(sites - input group 4 - out of bounds 0)"), std::string::npos)
      << result.output;
}

// A runtime array whose length the shader never reads is an input whatever the index's
// range (the application may bind fewer elements); one whose length the shader reads
// elsewhere, with an index no test ties to it, is left to the analysis.
TEST(ClassifyClamps, RuntimeArrayLengthNeverRead_IsAnInput) {
  TemporaryDirectory corpus;
  CommandResult result = Classify(corpus, "ranges_length_never_read.comp");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("     1  input     runtime array whose length the shader never "
                               "reads (the application may bind fewer elements than any index)\n"),
            std::string::npos)
      << result.output;
  EXPECT_NE(result.output.find("     1  input (buffer length)\n"), std::string::npos)
      << result.output;
  EXPECT_NE(result.output.find("     1  analysis  runtime array index not tied to a test of its "
                               "length\n"),
            std::string::npos)
      << result.output;
  EXPECT_NE(result.output.find("(sites - input group 1 - out of bounds 0)"), std::string::npos)
      << result.output;
}

// An index proven out of bounds (the record names a witness invocation) is the shader's
// own: its own group, left out of the ceiling like the inputs.
TEST(ClassifyClamps, ProvenOutOfBounds_IsNotCountedAgainstTheAnalysis) {
  TemporaryDirectory corpus;
  CommandResult result = Classify(corpus, "ranges_out_of_bounds.comp");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("     1  oob       index proven out of bounds (an invocation of "
                               "every workgroup shows it)\n"),
            std::string::npos)
      << result.output;
  EXPECT_NE(result.output.find("     1  out of bounds\n"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("     1  analysis  range exceeds the limit\n"), std::string::npos)
      << result.output;
  // Four sites: two proven in bounds, one out of bounds, one the analysis leaves.
  EXPECT_NE(result.output.find("sites (clamps with --range-analysis=off): 4; full elides 2"),
            std::string::npos)
      << result.output;
  EXPECT_NE(result.output.find("ceiling: a sound analysis could elide at most 3 (sites - input "
                               "group 0 - out of bounds 1); full leaves at most 1 to gain (full "
                               "elides 66.7% of it)"),
            std::string::npos)
      << result.output;
}

// A measurement set's manifest (--manifest): each row is compiled from the manifest's
// folder with its own flags (an include folder and a define here, without which the
// shader does not compile), and --half keeps one half's rows only. The tune row's shader
// has one clamp; the held-out row's has two, and only they are counted with
// --half heldout.
TEST(ClassifyClamps, ManifestWithFlags_CountsOneHalf) {
  TemporaryDirectory set;
  std::filesystem::create_directories(set.path() + "/project/include");
  set.Write("project/include/sizes.h", "#define COUNT 16\n");
  set.Write("project/one.comp",
            "#version 450\n#extension GL_GOOGLE_include_directive : require\n#include \"sizes.h\"\n"
            "layout(local_size_x = 64) in;\n"
            "layout(std430, binding = 0) buffer B { uint v[COUNT]; };\n"
            "void main() { v[gl_LocalInvocationID.x] = INDEXED; }\n");
  set.Write("project/two.comp",
            "#version 450\n#extension GL_GOOGLE_include_directive : require\n#include \"sizes.h\"\n"
            "layout(local_size_x = 64) in;\n"
            "layout(std430, binding = 0) buffer B { uint v[COUNT]; uint w[COUNT]; };\n"
            "void main() { v[gl_LocalInvocationID.x] = INDEXED; "
            "w[gl_LocalInvocationID.x] = 2u; }\n");
  const std::string flags = "-Iproject/include -DINDEXED=1u";
  set.Write("manifest.tsv",
            "#path\tstage\ttarget_env\tflags\tproject\thalf\n"
            "project/one.comp\tcomp\tvulkan1.0\t" +
                flags +
                "\tproject\ttune\n"
                "project/two.comp\tcomp\tvulkan1.0\t" +
                flags + "\tproject\theldout\n");
  const std::string script = "python3 " + ShellQuote(SourceRoot() + "/bench/classify_clamps.py") +
                             " --validator " + ShellQuote(ValidatorPath()) + " --manifest " +
                             ShellQuote(set.path() + "/manifest.tsv") + " --ceiling";

  CommandResult both = RunShell(script + " 2>&1");
  ASSERT_EQ(both.exit_code, 0) << both.output;
  EXPECT_NE(both.output.find("2 compiles (0 without a report), 3 clamps"), std::string::npos)
      << both.output;

  CommandResult held_out = RunShell(script + " --half heldout 2>&1");
  ASSERT_EQ(held_out.exit_code, 0) << held_out.output;
  EXPECT_NE(held_out.output.find("1 compiles (0 without a report), 2 clamps"), std::string::npos)
      << held_out.output;
  // Invocations 16 to 63 of every workgroup index past both arrays.
  EXPECT_NE(held_out.output.find("     2  out of bounds\n"), std::string::npos) << held_out.output;

  CommandResult no_rows = RunShell(script + " --half nosuchhalf 2>&1");
  EXPECT_NE(no_rows.exit_code, 0) << no_rows.output;
  EXPECT_NE(no_rows.output.find("no shaders to compile"), std::string::npos) << no_rows.output;
}

}  // namespace
}  // namespace glint::test
