// glslang_log.h: glslang's code generation log into diagnostics and back into a logger.
#include <gtest/gtest.h>

#include <glslang/SPIRV/Logger.h>

#include "glslang/front_end/glslang_log.h"

namespace glint::frontend {
namespace {

TEST(GlslangLog, EachLineIsOneDiagnosticErrorsByPrefix) {
  std::vector<Diagnostic> diagnostics;
  AppendGlslangLog("warning: w\n\nerror: e\nMissing functionality: m\n", &diagnostics);
  ASSERT_EQ(diagnostics.size(), 3u);
  EXPECT_EQ(diagnostics[0].severity, Severity::kWarning);
  EXPECT_EQ(diagnostics[1].severity, Severity::kError);
  EXPECT_EQ(diagnostics[1].message, "error: e");
  EXPECT_EQ(diagnostics[2].origin, "glslang");
}

// Every logger method, a message spanning lines (the validator's error with the
// instruction below it): replayed into a fresh logger, the log reads the same.
TEST(GlslangLog, ReplayGivesTheLoggerTheSameMessages) {
  spv::SpvBuildLogger original;
  original.tbdFunctionality("tbd feature");
  original.missingFunctionality("Target version for SPIRV-Tools validator");
  original.warning("careful");
  original.error("SPIRV-Tools Validation Errors");
  original.error("ID '7' has not been defined\n  %8 = OpLoad %float %7");
  std::vector<Diagnostic> diagnostics;
  AppendGlslangLog(original.getAllMessages(), &diagnostics);
  std::vector<std::string> lines;
  for (const Diagnostic& d : diagnostics) lines.push_back(d.message);
  spv::SpvBuildLogger replayed;
  ReplayGlslangLog(lines, replayed);
  EXPECT_EQ(replayed.getAllMessages(), original.getAllMessages());
}

TEST(GlslangLog, ReplayOfNothingLogsNothing) {
  spv::SpvBuildLogger replayed;
  ReplayGlslangLog({}, replayed);
  EXPECT_EQ(replayed.getAllMessages(), "");
}

}  // namespace
}  // namespace glint::frontend
