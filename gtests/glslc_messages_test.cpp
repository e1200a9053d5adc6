// glslc/messages.h: glslang's info logs rewritten into glslc's diagnostics, -w and -Werror,
// and the summary line. Each log below is what glslang 12 wrote for a small shader (parse
// or link, with glslc's preamble), and each expected text is what Debian's glslc 2023.2
// (/usr/bin/glslc) printed for that shader.
#include <gtest/gtest.h>

#include <string>

#include "messages.h"

namespace glint::glslc {
namespace {

struct Rewritten {
  std::string text;
  MessageCounts counts;
  size_t errors_returned = 0;
};

Rewritten Rewrite(const std::string& log, const std::string& name,
                  const WarningPolicy& policy = {}) {
  Rewritten result;
  result.errors_returned = RewriteGlslangLog(log, name, policy, &result.text, &result.counts);
  return result;
}

// e1.frag: `#version 450` / `void main(){ x; }`. glslang's trailing space and its own
// "N compilation errors." summary are gone.
TEST(GlslcMessages, LocatedErrorIsRewrittenAndGlslangsSummaryDropped) {
  const Rewritten r = Rewrite(
      "ERROR: e1.frag:2: 'x' : undeclared identifier \n"
      "ERROR: 1 compilation errors.  No code generated.\n\n",
      "e1.frag");
  // What glslc 2023.2 prints.
  EXPECT_EQ(r.text, "e1.frag:2: error: 'x' : undeclared identifier\n");
  EXPECT_EQ(r.counts.errors, 1u);
  EXPECT_EQ(r.counts.warnings, 0u);
  EXPECT_EQ(r.errors_returned, 1u);
}

// The double space inside glslang's syntax error message is kept.
TEST(GlslcMessages, InnerSpacesOfTheMessageAreKept) {
  const Rewritten r = Rewrite(
      "ERROR: syn.frag:2: '' :  syntax error, unexpected SEMICOLON\n"
      "ERROR: 1 compilation errors.  No code generated.\n\n",
      "syn.frag");
  // What glslc 2023.2 prints.
  EXPECT_EQ(r.text, "syn.frag:2: error: '' :  syntax error, unexpected SEMICOLON\n");
}

// we.frag: `#extension GL_foo : warn` then an undeclared `y`.
constexpr char kWarningAndErrorLog[] =
    "WARNING: we.frag:2: '#extension' : extension not supported: GL_foo\n"
    "ERROR: we.frag:3: 'y' : undeclared identifier \n"
    "ERROR: 1 compilation errors.  No code generated.\n\n";

TEST(GlslcMessages, WarningsAreCountedApartFromErrors) {
  const Rewritten r = Rewrite(kWarningAndErrorLog, "we.frag");
  // What glslc 2023.2 prints.
  EXPECT_EQ(r.text,
            "we.frag:2: warning: '#extension' : extension not supported: GL_foo\n"
            "we.frag:3: error: 'y' : undeclared identifier\n");
  EXPECT_EQ(r.counts.warnings, 1u);
  EXPECT_EQ(r.counts.errors, 1u);
  EXPECT_EQ(r.errors_returned, 1u);
}

TEST(GlslcMessages, SuppressedWarningsAreNeitherPrintedNorCounted) {
  const Rewritten r = Rewrite(kWarningAndErrorLog, "we.frag", {/*suppress=*/true, false});
  // What glslc 2023.2 -w prints.
  EXPECT_EQ(r.text, "we.frag:3: error: 'y' : undeclared identifier\n");
  EXPECT_EQ(r.counts.warnings, 0u);
  EXPECT_EQ(r.counts.errors, 1u);
}

TEST(GlslcMessages, WarningsAsErrorsArePrintedAndCountedAsErrors) {
  const Rewritten r = Rewrite(kWarningAndErrorLog, "we.frag", {false, /*as_errors=*/true});
  // What glslc 2023.2 -Werror prints.
  EXPECT_EQ(r.text,
            "we.frag:2: error: '#extension' : extension not supported: GL_foo\n"
            "we.frag:3: error: 'y' : undeclared identifier\n");
  EXPECT_EQ(r.counts.warnings, 0u);
  EXPECT_EQ(r.counts.errors, 2u);
  EXPECT_EQ(r.errors_returned, 2u);
}

// w.frag: two unsupported extensions and nothing else; with -w -Werror glslc prints
// nothing and succeeds.
TEST(GlslcMessages, SuppressionWinsOverWarningsAsErrors) {
  const Rewritten r = Rewrite(
      "WARNING: w.frag:2: '#extension' : extension not supported: GL_foo\n"
      "WARNING: w.frag:3: '#extension' : extension not supported: GL_bar\n",
      "w.frag", {true, true});
  EXPECT_EQ(r.text, "");
  EXPECT_EQ(r.counts.warnings, 0u);
  EXPECT_EQ(r.counts.errors, 0u);
  EXPECT_EQ(r.errors_returned, 0u);
}

// es.vert (`#version 310 es`) compiled with -std=450: glslang's global warning.
constexpr char kGlobalWarningLog[] =
    "Warning, (version, profile) forced to be (450, none), while in source code it is "
    "(310, es)\n";

TEST(GlslcMessages, GlobalWarningIsNamedByTheInput) {
  const Rewritten r = Rewrite(kGlobalWarningLog, "es.vert");
  // What glslc 2023.2 -std=450 prints.
  EXPECT_EQ(r.text,
            "es.vert: warning: (version, profile) forced to be (450, none), while in source "
            "code it is (310, es)\n");
  EXPECT_EQ(r.counts.warnings, 1u);
  EXPECT_EQ(r.errors_returned, 0u);
}

TEST(GlslcMessages, GlobalWarningFollowsWarningPolicy) {
  const Rewritten as_error = Rewrite(kGlobalWarningLog, "es.vert", {false, true});
  // What glslc 2023.2 -std=450 -Werror prints.
  EXPECT_EQ(as_error.text,
            "es.vert: error: (version, profile) forced to be (450, none), while in source "
            "code it is (310, es)\n");
  EXPECT_EQ(as_error.counts.errors, 1u);
  EXPECT_EQ(as_error.errors_returned, 1u);

  const Rewritten suppressed = Rewrite(kGlobalWarningLog, "es.vert", {true, false});
  EXPECT_EQ(suppressed.text, "");
  EXPECT_EQ(suppressed.counts.warnings, 0u);
}

// A -D macro without a name (glslc -D'#'): string -1 is the preamble.
TEST(GlslcMessages, PreambleStringIsTheCommandLine) {
  const Rewritten r = Rewrite(
      "ERROR: -1:1: '#define' : must be followed by macro name \n"
      "ERROR: 1 compilation errors.  No code generated.\n\n",
      "nomain_ok.frag");
  // What glslc 2023.2 prints.
  EXPECT_EQ(r.text, "<command line>:1: error: '#define' : must be followed by macro name\n");
  EXPECT_EQ(r.counts.errors, 1u);
}

// l.frag: `#line 10 "foo.glsl"` before one error, `#line 20 7` before another.
TEST(GlslcMessages, LineDirectiveNamesAndStringNumbersAreKept) {
  const Rewritten r = Rewrite(
      "ERROR: foo.glsl:10: 'x' : undeclared identifier \n"
      "ERROR: 7:20: 'q' : undeclared identifier \n"
      "ERROR: 2 compilation errors.  No code generated.\n\n",
      "l.frag");
  // What glslc 2023.2 prints.
  EXPECT_EQ(r.text,
            "foo.glsl:10: error: 'x' : undeclared identifier\n"
            "7:20: error: 'q' : undeclared identifier\n");
  EXPECT_EQ(r.counts.errors, 2u);
}

// colon.frag: `#line` names with colons in them. The location is the first pair of
// colons with only digits between them and a space after: a source may hold colons, and
// a message may start with what looks like a location.
TEST(GlslcMessages, LocationIsTheFirstColonDigitsColonSpace) {
  const Rewritten r = Rewrite(
      "ERROR: weird:7: name:5: 'x' : undeclared identifier \n"
      "ERROR: C:\\\\dir\\\\a.glsl:9: 'y' : undeclared identifier \n"
      "ERROR: tail:4::3: 'z' : undeclared identifier \n"
      "ERROR: 3 compilation errors.  No code generated.\n\n",
      "colon.frag");
  // What glslc 2023.2 prints.
  EXPECT_EQ(r.text,
            "weird:7: error: name:5: 'x' : undeclared identifier\n"
            "C:\\\\dir\\\\a.glsl:9: error: 'y' : undeclared identifier\n"
            "tail:4::3: error: 'z' : undeclared identifier\n");
  EXPECT_EQ(r.counts.errors, 3u);
}

// A location needs a digit, a colon, a space and one more character after its first
// colon; too near the end, the whole text is an unlocated message.
TEST(GlslcMessages, LocationTooNearTheEndIsNoLocation) {
  EXPECT_EQ(Rewrite("ERROR: a:1: b\n", "n.vert").text, "a:1: error: b\n");
  EXPECT_EQ(Rewrite("ERROR: a:1:\n", "n.vert").text, "n.vert: error: a:1:\n");
  EXPECT_EQ(Rewrite("ERROR: a::1: b\n", "n.vert").text, "a::1: error: b\n");
  EXPECT_EQ(Rewrite("WARNING: a:x: b\n", "n.vert").text, "n.vert: warning: a:x: b\n");
}

// nomain.frag (no #version) and a shader without main: messages without a location are
// named by the input; the link log's error is counted like the parse log's.
TEST(GlslcMessages, UnlocatedErrorsAreNamedByTheInput) {
  const Rewritten parse = Rewrite(
      "ERROR: #version: Desktop shaders for Vulkan SPIR-V require version 140 or higher\n"
      "ERROR: 1 compilation errors.  No code generated.\n\n",
      "nomain.frag");
  // What glslc 2023.2 prints.
  EXPECT_EQ(parse.text,
            "nomain.frag: error: #version: Desktop shaders for Vulkan SPIR-V require version "
            "140 or higher\n");
  const Rewritten link = Rewrite(
      "ERROR: Linking fragment stage: Missing entry point: Each stage requires one entry "
      "point\n",
      "nm.frag");
  // What glslc 2023.2 prints.
  EXPECT_EQ(link.text,
            "nm.frag: error: Linking fragment stage: Missing entry point: Each stage requires "
            "one entry point\n");
  EXPECT_EQ(link.errors_returned, 1u);
}

TEST(GlslcMessages, StdinIsNamedAsGiven) {
  const Rewritten r = Rewrite(
      "ERROR: <stdin>:2: 'x' : undeclared identifier \n"
      "ERROR: #version: Desktop shaders for Vulkan SPIR-V require version 140 or higher\n",
      "<stdin>");
  EXPECT_EQ(r.text,
            "<stdin>:2: error: 'x' : undeclared identifier\n"
            "<stdin>: error: #version: Desktop shaders for Vulkan SPIR-V require version 140 "
            "or higher\n");
}

// glslc drops these even without -w: they are neither printed nor counted.
TEST(GlslcMessages, IgnoredLinesAreDropped) {
  std::string log;
  for (const char* version : {"310", "400", "410", "420", "430", "440", "450"}) {
    log += std::string("Warning, version ") + version +
           " is not yet complete; most version-specific features are present, but some are "
           "missing.\n";
  }
  log +=
      "Linked vertex stage:\n\nLinked fragment stage:\nLinked tessellation control stage:\n"
      "Linked tessellation evaluation stage:\nLinked geometry stage:\nLinked compute stage:\n";
  const Rewritten r = Rewrite(log, "a.vert");
  EXPECT_EQ(r.text, "");
  EXPECT_EQ(r.counts.warnings, 0u);
  EXPECT_EQ(r.counts.errors, 0u);
}

// Only those exact lines: version 460's note (or one with a trailing space) is an ordinary
// global warning.
TEST(GlslcMessages, OnlyTheListedLinesAreIgnored) {
  const Rewritten r = Rewrite(
      "Warning, version 460 is not yet complete; most version-specific features are present, "
      "but some are missing.\n"
      "Linked vertex stage: \n",
      "a.vert");
  EXPECT_EQ(r.text,
            "a.vert: warning: version 460 is not yet complete; most version-specific features "
            "are present, but some are missing.\n"
            "a.vert: Linked vertex stage: \n");
  EXPECT_EQ(r.counts.warnings, 1u);
}

// Lines without a known prefix are printed after the name, verbatim and uncounted, as are
// "ERROR: " and "WARNING: " with nothing after them.
TEST(GlslcMessages, UnknownLinesArePrintedButNotCounted) {
  const Rewritten r = Rewrite(
      "INTERNAL ERROR: something\n"
      "ERROR:  \t \n"
      "  indented: 3: text\n",
      "u.vert");
  EXPECT_EQ(r.text,
            "u.vert: INTERNAL ERROR: something\n"
            "u.vert: ERROR:  \t \n"
            "u.vert:   indented: 3: text\n");
  EXPECT_EQ(r.counts.warnings, 0u);
  EXPECT_EQ(r.counts.errors, 0u);
  EXPECT_EQ(r.errors_returned, 0u);
}

// A suppressed warning is dropped before its text is looked at, even an empty one.
TEST(GlslcMessages, SuppressedEmptyWarningIsDropped) {
  EXPECT_EQ(Rewrite("WARNING:  \n", "a.vert", {true, false}).text, "");
  EXPECT_EQ(Rewrite("WARNING:  \n", "a.vert").text, "a.vert: WARNING:  \n");
}

// "N compilation errors." after any prefix, and whatever follows it, is glslang's summary.
TEST(GlslcMessages, CompilationErrorsSummaryIsRecognisedByItsStart) {
  const Rewritten r = Rewrite(
      "ERROR: 12 compilation errors.  No code generated.\n"
      "WARNING: 3 compilation errors.\n"
      "ERROR: x compilation errors.\n"
      "ERROR: 2 compilation error.\n",
      "s.vert");
  EXPECT_EQ(r.text,
            "s.vert: error: x compilation errors.\n"
            "s.vert: error: 2 compilation error.\n");
  EXPECT_EQ(r.counts.errors, 2u);
}

// The last line needs no newline; carriage returns are whitespace around a message.
TEST(GlslcMessages, LastLineWithoutNewlineAndCarriageReturns) {
  const Rewritten r = Rewrite("ERROR: a.vert:1: 'x' : bad\r\nERROR: a.vert:2: 'y' : bad", "a.vert");
  EXPECT_EQ(r.text, "a.vert:1: error: 'x' : bad\na.vert:2: error: 'y' : bad\n");
  EXPECT_EQ(r.counts.errors, 2u);
}

// glslc reads the log as a C string.
TEST(GlslcMessages, NothingAfterANulIsRead) {
  constexpr char kLogWithNul[] = "ERROR: a.vert:1: 'x' : bad\n\0ERROR: a.vert:2: 'y' : bad\n";
  const std::string log(kLogWithNul, sizeof(kLogWithNul) - 1);
  const Rewritten r = Rewrite(log, "a.vert");
  EXPECT_EQ(r.text, "a.vert:1: error: 'x' : bad\n");
  EXPECT_EQ(r.counts.errors, 1u);
}

// Counts accumulate over logs (glslc counts over all inputs); the return value is this
// log's errors only, and output is appended.
TEST(GlslcMessages, CountsAccumulateAndTheReturnIsThisLogsErrors) {
  MessageCounts counts;
  std::string out = "before\n";
  EXPECT_EQ(RewriteGlslangLog(kWarningAndErrorLog, "we.frag", {}, &out, &counts), 1u);
  EXPECT_EQ(RewriteGlslangLog(kGlobalWarningLog, "es.vert", {}, &out, &counts), 0u);
  EXPECT_EQ(counts.warnings, 2u);
  EXPECT_EQ(counts.errors, 1u);
  EXPECT_EQ(out.rfind("before\nwe.frag:2: warning: ", 0), 0u);
  EXPECT_EQ(SummaryLine(counts), "2 warnings and 1 error generated.\n");
}

// What glslc 2023.2 prints after all inputs.
TEST(GlslcMessages, SummaryLine) {
  EXPECT_EQ(SummaryLine({0, 0}), "");
  EXPECT_EQ(SummaryLine({1, 0}), "1 warning generated.\n");
  EXPECT_EQ(SummaryLine({2, 0}), "2 warnings generated.\n");
  EXPECT_EQ(SummaryLine({0, 1}), "1 error generated.\n");
  EXPECT_EQ(SummaryLine({0, 3}), "3 errors generated.\n");
  EXPECT_EQ(SummaryLine({1, 2}), "1 warning and 2 errors generated.\n");
  EXPECT_EQ(SummaryLine({3, 1}), "3 warnings and 1 error generated.\n");
  EXPECT_EQ(SummaryLine({3, 2}), "3 warnings and 2 errors generated.\n");
}

}  // namespace
}  // namespace glint::glslc
