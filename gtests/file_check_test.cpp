// Tests of test::FileCheck, the check every pass and report test relies on: it must
// fail where a check does not hold (a capture bound to the wrong value, a CHECK-NOT
// violated between two matches, a misspelt directive), not only pass where it does.
#include <gtest/gtest.h>

#include "support/test_support.h"

namespace glint::test {
namespace {

// The robust-access shape: the clamp's result must be the index the access chain uses.
const char kClamped[] = R"(%17 = OpLoad %int %16
%18 = OpBitcast %uint %17
%19 = OpExtInst %uint %1 UMin %18 %uint_7
%20 = OpAccessChain %_ptr_Uniform_float %_ %int_2 %19
)";

const char kClampChecks[] = R"(
CHECK: %[[INDEX:[0-9]+]] = OpBitcast %uint
CHECK-NEXT: %[[CLAMP:[0-9]+]] = OpExtInst %uint %1 UMin %[[INDEX]] %uint_7
CHECK-NEXT: OpAccessChain %_ptr_Uniform_float %_ %int_2 %[[CLAMP]]{{$}}
)";

TEST(FileCheck, Captures_BindTheClampToTheAccess) {
  EXPECT_TRUE(FileCheck(kClamped, kClampChecks));
}

// The same lines, but the access chain uses the unclamped index: substring matching
// would pass, the capture does not.
TEST(FileCheck, Captures_AccessOfTheUnclampedIndexFails) {
  std::string wrong = kClamped;
  wrong.replace(wrong.rfind("%19"), 3, "%18");
  ::testing::AssertionResult result = FileCheck(wrong, kClampChecks);
  EXPECT_FALSE(result);
  EXPECT_NE(std::string(result.message()).find("FileCheck failed"), std::string::npos)
      << result.message();
}

TEST(FileCheck, MisspeltDirective_IsAnError) {
  ::testing::AssertionResult result = FileCheck(kClamped, "CHECK: OpLoad\nCHEK: OpNothing\n");
  EXPECT_FALSE(result);
  EXPECT_NE(std::string(result.message()).find("not a FileCheck directive"), std::string::npos)
      << result.message();
  EXPECT_NE(std::string(result.message()).find("CHEK: OpNothing"), std::string::npos);
}

TEST(FileCheck, UnknownSuffixAndLowerCase_AreErrors) {
  for (const char* checks : {"CHECK-NXT: OpBitcast", "check: OpLoad", "CHECK OpLoad",
                             "CHECK-COUNT-0: x", "; a comment line"}) {
    SCOPED_TRACE(checks);
    EXPECT_FALSE(FileCheck(kClamped, std::string("CHECK: OpLoad\n") + checks));
  }
}

// llvm::Regex is POSIX: `\w+` would look for the letter w.
TEST(FileCheck, PerlClassEscapes_AreErrors) {
  ::testing::AssertionResult result = FileCheck(kClamped, "CHECK: %[[X:\\w+]] = OpLoad");
  EXPECT_FALSE(result);
  EXPECT_NE(std::string(result.message()).find("POSIX"), std::string::npos) << result.message();
  EXPECT_TRUE(FileCheck(kClamped, "CHECK: %[[X:[A-Za-z0-9_]+]] = OpLoad"));
}

TEST(FileCheck, CheckNot_BetweenTwoMatchesOnly) {
  EXPECT_TRUE(FileCheck(kClamped, "CHECK: OpLoad\nCHECK-NOT: OpAccessChain\nCHECK: UMin\n"));
  EXPECT_FALSE(FileCheck(kClamped, "CHECK: OpLoad\nCHECK-NOT: OpBitcast\nCHECK: UMin\n"));
  // Before CHECK-NEXT the span is up to the next line's match, not beyond it.
  EXPECT_TRUE(
      FileCheck(kClamped, "CHECK: OpLoad\nCHECK-NOT: OpAccessChain\nCHECK-NEXT: OpBitcast\n"));
}

TEST(FileCheck, NextLabelDagAndRegex) {
  EXPECT_TRUE(FileCheck(kClamped, R"(
CHECK-LABEL: OpLoad %int
CHECK-DAG: UMin
CHECK-DAG: OpBitcast
CHECK: {{^%[0-9]+ = OpAccessChain}}
)"));
  EXPECT_FALSE(FileCheck(kClamped, "CHECK: OpLoad\nCHECK-NEXT: UMin\n")) << "UMin is two lines on";
  EXPECT_FALSE(FileCheck(kClamped, "CHECK: {{^%[0-9]+ = OpFAdd}}"));
}

TEST(FileCheck, NoChecksAtAll_IsAnError) {
  EXPECT_FALSE(FileCheck(kClamped, ""));
  EXPECT_FALSE(FileCheck(kClamped, "\n   \n"));
}

}  // namespace
}  // namespace glint::test
