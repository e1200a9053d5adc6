// glslc/preprocessed_text.h: the #line semantics glslc reads from -std= or #version, the
// text `glslc -E` prints, and the shader-stage pragma. Inputs named "glslang's text" are
// what glslang 12's TShader::preprocess gave with glslc's preamble (the -D #defines, then
// the include extension) and glslc's includer; expected texts are what Debian's glslc
// 2023.2 (/usr/bin/glslc) printed for the same shader (-E output, or the pragma errors of
// `glslc -c`), and the pragma inputs are its -E output, the cleaned text glslc scans.
#include <gtest/gtest.h>

#include <string>

#include "preprocessed_text.h"

namespace glint::glslc {
namespace {

TEST(GlslcNextLineSemantics, DesktopVersionsFrom330AndEsUseNextLine) {
  EXPECT_TRUE(NextLineSemantics("#version 450\nvoid main(){ }\n", 0, ENoProfile));
  EXPECT_TRUE(NextLineSemantics("#version 330\n", 0, ENoProfile));
  EXPECT_TRUE(NextLineSemantics("#version 450 core\n", 0, ENoProfile));
  EXPECT_TRUE(NextLineSemantics("#version 310 es\n", 0, ENoProfile));
  EXPECT_FALSE(NextLineSemantics("#version 150\n", 0, ENoProfile));
  EXPECT_FALSE(NextLineSemantics("#version 150 compatibility\n", 0, ENoProfile));
  // Without a profile word 100 is not ES here (glslc reads the text itself, not as glslang).
  EXPECT_FALSE(NextLineSemantics("#version 100\n", 0, ENoProfile));
}

// The preamble comes before #version in glslang's text; the first "#version" decides.
TEST(GlslcNextLineSemantics, FirstVersionOfGlslangsTextDecides) {
  EXPECT_TRUE(NextLineSemantics(
      "\n#extension GL_GOOGLE_include_directive : enable\n#version 450\n#line 1 \"a.h\"\n", 0,
      ENoProfile));
  EXPECT_FALSE(NextLineSemantics("#version 150\n#version 450\n", 0, ENoProfile));
}

// No #version, or one glslc cannot read, is version 110 without a profile.
TEST(GlslcNextLineSemantics, MissingOrUnreadableVersionIs110) {
  EXPECT_FALSE(NextLineSemantics("", 0, ENoProfile));
  EXPECT_FALSE(NextLineSemantics("void main(){ }\n", 0, ENoProfile));
  EXPECT_FALSE(NextLineSemantics("#version 999\n", 0, ENoProfile));
  EXPECT_FALSE(NextLineSemantics("#version 460 foo\n", 0, ENoProfile));
  EXPECT_FALSE(NextLineSemantics("#version 450 core es\n", 0, ENoProfile));
  EXPECT_FALSE(NextLineSemantics("#version\n", 0, ENoProfile));
  // The first unreadable #version still decides: a later one is not looked at.
  EXPECT_FALSE(NextLineSemantics("#version 999\n#version 450\n", 0, ENoProfile));
}

// Spaces are removed before the version is read as -std= reads it: a number (leading zeros
// allowed) and a profile word written against it or after other whitespace.
TEST(GlslcNextLineSemantics, VersionIsReadLikeStd) {
  EXPECT_TRUE(NextLineSemantics("#version 3 0 0 e s\n", 0, ENoProfile));
  EXPECT_TRUE(NextLineSemantics("#version 0450\n", 0, ENoProfile));
  EXPECT_TRUE(NextLineSemantics("#version 150\tes\n", 0, ENoProfile));
  EXPECT_FALSE(NextLineSemantics("#version 99999999999999450\n", 0, ENoProfile));
  // "#version" is found anywhere in the text, not only at the start of a line.
  EXPECT_TRUE(NextLineSemantics("#pragma note #version 330\n#version 150\n", 0, ENoProfile));
}

// -std= wins over the text, as for glslc -E -std=310es on a `#version 150` shader.
TEST(GlslcNextLineSemantics, ForcedVersionWins) {
  EXPECT_TRUE(NextLineSemantics("#version 150\n", 310, EEsProfile));
  EXPECT_TRUE(NextLineSemantics("", 330, ECoreProfile));
  EXPECT_FALSE(NextLineSemantics("#version 450\n", 150, ENoProfile));
  EXPECT_FALSE(NextLineSemantics("#version 450\n", 140, ECompatibilityProfile));
}

// nomain_ok.frag: `#version 450` / `void main(){}`.
TEST(GlslcPreprocessedOutput, WithoutIncludesThePreambleLineGoes) {
  // glslang's text.
  const std::string preprocessed =
      "#extension GL_GOOGLE_include_directive : enable\n#version 450\nvoid main(){ }\n";
  // What glslc 2023.2 -E prints.
  EXPECT_EQ(PreprocessedOutput(preprocessed, "nomain_ok.frag", 0, true),
            "#version 450\nvoid main(){ }\n");
}

// misc.vert with -DFOO=1 -DBAR: the #defines' blank lines go; the source's own lines,
// blank or not, its own include extension and its `#line` stay.
TEST(GlslcPreprocessedOutput, PreambleBlankLinesGoAndTheSourceStays) {
  // glslang's text.
  const std::string preprocessed =
      "\n\n#extension GL_GOOGLE_include_directive : enable\n#version 450\n\n"
      "#line 7 \"x.glsl\"\n#pragma foobar\n#extension GL_GOOGLE_include_directive : enable\n"
      "void main(){ float a = 1;}\n";
  // What glslc 2023.2 -E -DFOO=1 -DBAR prints.
  EXPECT_EQ(PreprocessedOutput(preprocessed, "misc.vert", 0, true),
            "#version 450\n\n#line 7 \"x.glsl\"\n#pragma foobar\n"
            "#extension GL_GOOGLE_include_directive : enable\nvoid main(){ float a = 1;}\n");
}

// i.vert (`#version 450`, `#include <h.glsl>` from -Iinc, `#include "sub/h1.glsl"`, which
// includes "h2.glsl", then main): #version moves to the top, the extension and a #line for
// the file follow, a blank line keeps #version's place.
TEST(GlslcPreprocessedOutput, WithIncludesVersionMovesUpAndTheFileGetsALine) {
  // glslang's text.
  const std::string preprocessed =
      "#extension GL_GOOGLE_include_directive : enable\n#version 450\n"
      "#line 1 \"inc/h.glsl\"\nfloat g(){ return 1.0;}\n#line 3 \"i.vert\"\n"
      "#line 1 \"sub/h1.glsl\"\n#line 1 \"sub/h2.glsl\"\n float h2v;\n#line 2 \"sub/h1.glsl\"\n"
      "float k;\n#line 4 \"i.vert\"\nvoid main(){ gl_Position = vec4(g());}\n";
  // What glslc 2023.2 -E -Iinc prints.
  EXPECT_EQ(PreprocessedOutput(preprocessed, "i.vert", 3, true),
            "#version 450\n#extension GL_GOOGLE_include_directive : enable\n"
            "#line 1 \"i.vert\"\n\n"
            "#line 1 \"inc/h.glsl\"\nfloat g(){ return 1.0;}\n#line 3 \"i.vert\"\n"
            "#line 1 \"sub/h1.glsl\"\n#line 1 \"sub/h2.glsl\"\n float h2v;\n"
            "#line 2 \"sub/h1.glsl\"\nfloat k;\n#line 4 \"i.vert\"\n"
            "void main(){ gl_Position = vec4(g());}\n");
}

// The same shader with `#version 150`: the file's #line counts from 0.
TEST(GlslcPreprocessedOutput, OldLineSemanticsNumberTheFileFromZero) {
  // glslang's text.
  const std::string preprocessed =
      "#extension GL_GOOGLE_include_directive : enable\n#version 150\n"
      "#line 0 \"inc/h.glsl\"\nfloat g(){ return 1.0;}\n#line 2 \"i150.vert\"\n"
      "#line 0 \"sub/h1.glsl\"\n#line 0 \"sub/h2.glsl\"\n float h2v;\n"
      "#line 1 \"sub/h1.glsl\"\nfloat k;\n#line 3 \"i150.vert\"\n"
      "void main(){ gl_Position = vec4(g());}\n";
  ASSERT_FALSE(NextLineSemantics(preprocessed, 0, ENoProfile));
  // What glslc 2023.2 -E -Iinc prints.
  EXPECT_EQ(PreprocessedOutput(preprocessed, "i150.vert", 3, false),
            "#version 150\n#extension GL_GOOGLE_include_directive : enable\n"
            "#line 0 \"i150.vert\"\n\n"
            "#line 0 \"inc/h.glsl\"\nfloat g(){ return 1.0;}\n#line 2 \"i150.vert\"\n"
            "#line 0 \"sub/h1.glsl\"\n#line 0 \"sub/h2.glsl\"\n float h2v;\n"
            "#line 1 \"sub/h1.glsl\"\nfloat k;\n#line 3 \"i150.vert\"\n"
            "void main(){ gl_Position = vec4(g());}\n");
}

// iend150.vert: `#version 150` / `#include "sub/h1.glsl"`: ending with an include leaves
// glslang's trailing blank line, which glslc keeps.
TEST(GlslcPreprocessedOutput, EndingWithAnIncludeKeepsTheTrailingBlankLine) {
  // glslang's text.
  const std::string preprocessed =
      "#extension GL_GOOGLE_include_directive : enable\n#version 150\n"
      "#line 0 \"sub/h1.glsl\"\n#line 0 \"sub/h2.glsl\"\nfloat h2v;\n#line 1 \"sub/h1.glsl\"\n"
      "float k;\n#line 2 \"iend150.vert\"\n\n";
  // What glslc 2023.2 -E prints.
  EXPECT_EQ(PreprocessedOutput(preprocessed, "iend150.vert", 2, false),
            "#version 150\n#extension GL_GOOGLE_include_directive : enable\n"
            "#line 0 \"iend150.vert\"\n\n"
            "#line 0 \"sub/h1.glsl\"\n#line 0 \"sub/h2.glsl\"\nfloat h2v;\n"
            "#line 1 \"sub/h1.glsl\"\nfloat k;\n#line 2 \"iend150.vert\"\n\n");
}

// iext150.vert enables the include extension itself: only the preamble's line is replaced.
TEST(GlslcPreprocessedOutput, TheSourcesOwnIncludeExtensionStays) {
  // glslang's text.
  const std::string preprocessed =
      "#extension GL_GOOGLE_include_directive : enable\n#version 150\n"
      "#extension GL_GOOGLE_include_directive : enable\n#line 0 \"inc/h.glsl\"\n"
      "float g(){ return 1.0;}\n#line 3 \"iext150.vert\"\n void main(){ }\n";
  // What glslc 2023.2 -E -Iinc prints.
  EXPECT_EQ(PreprocessedOutput(preprocessed, "iext150.vert", 1, false),
            "#version 150\n#extension GL_GOOGLE_include_directive : enable\n"
            "#line 0 \"iext150.vert\"\n\n"
            "#extension GL_GOOGLE_include_directive : enable\n#line 0 \"inc/h.glsl\"\n"
            "float g(){ return 1.0;}\n#line 3 \"iext150.vert\"\n void main(){ }\n");
}

// inov.vert (`#include "inc/h.glsl"`, main, no #version) with -std=450: no #version to
// move and no placeholder line.
TEST(GlslcPreprocessedOutput, WithIncludesButNoVersion) {
  // glslang's text.
  const std::string preprocessed =
      "#extension GL_GOOGLE_include_directive : enable\n#line 1 \"inc/h.glsl\"\n"
      "float g(){ return 1.0;}\n#line 2 \"inov.vert\"\n void main(){ }\n";
  ASSERT_TRUE(NextLineSemantics(preprocessed, 450, ENoProfile));
  // What glslc 2023.2 -E -Iinc -std=450 prints.
  EXPECT_EQ(PreprocessedOutput(preprocessed, "inov.vert", 1, true),
            "#extension GL_GOOGLE_include_directive : enable\n#line 1 \"inov.vert\"\n"
            "#line 1 \"inc/h.glsl\"\nfloat g(){ return 1.0;}\n#line 2 \"inov.vert\"\n"
            " void main(){ }\n");
}

// The name is written as given ("<stdin>" included); a last line without a newline is
// kept as it is.
TEST(GlslcPreprocessedOutput, StdinNameAndALastLineWithoutNewline) {
  EXPECT_EQ(PreprocessedOutput("#extension GL_GOOGLE_include_directive : enable\n#version 450\n"
                               "void main(){ }",
                               "<stdin>", 1, true),
            "#version 450\n#extension GL_GOOGLE_include_directive : enable\n"
            "#line 1 \"<stdin>\"\n\nvoid main(){ }");
}

TEST(GlslcPreprocessedOutput, EmptySourceGivesEmptyOutput) {
  EXPECT_EQ(PreprocessedOutput("\n\n#extension GL_GOOGLE_include_directive : enable\n", "e.vert", 0,
                               false),
            "");
}

TEST(GlslcStagePragma, NoPragmaIsNotFound) {
  const StagePragma pragma =
      FindStagePragma("#version 450\n#pragma foobar\nvoid main(){ }\n", "a.glsl", true);
  EXPECT_FALSE(pragma.found);
  EXPECT_FALSE(pragma.stage.has_value());
  EXPECT_EQ(pragma.errors, "");
}

TEST(GlslcStagePragma, EveryStageName) {
  const std::pair<const char*, EShLanguage> names[] = {
      {"vertex", EShLangVertex},
      {"fragment", EShLangFragment},
      {"tesscontrol", EShLangTessControl},
      {"tesseval", EShLangTessEvaluation},
      {"geometry", EShLangGeometry},
      {"compute", EShLangCompute},
      {"raygen", EShLangRayGen},
      {"intersect", EShLangIntersect},
      {"anyhit", EShLangAnyHit},
      {"closest", EShLangClosestHit},
      {"miss", EShLangMiss},
      {"callable", EShLangCallable},
      {"task", EShLangTask},
      {"mesh", EShLangMesh},
  };
  for (const auto& [name, stage] : names) {
    const StagePragma pragma = FindStagePragma(
        std::string("#version 460\n#pragma shader_stage(") + name + ")\nvoid main(){ }\n", "p.glsl",
        true);
    EXPECT_TRUE(pragma.found) << name;
    EXPECT_EQ(pragma.stage, stage) << name;
    EXPECT_EQ(pragma.errors, "") << name;
  }
}

// same.glsl: a repeated pragma naming the same stage is accepted, even after code.
TEST(GlslcStagePragma, RepeatedSameStageAfterCodeIsAccepted) {
  const StagePragma pragma = FindStagePragma(
      "#version 450\n#pragma shader_stage(compute)\nvoid main(){ }\n"
      "#pragma shader_stage(compute)\n",
      "same.glsl", true);
  EXPECT_EQ(pragma.stage, EShLangCompute);
  EXPECT_EQ(pragma.errors, "");
}

TEST(GlslcStagePragma, FirstPragmaAfterCode) {
  const StagePragma pragma = FindStagePragma(
      "#version 450\nvoid main(){ }\n#pragma shader_stage(fragment)\n", "late.glsl", true);
  EXPECT_TRUE(pragma.found);
  EXPECT_FALSE(pragma.stage.has_value());
  // What glslc 2023.2 -c prints.
  EXPECT_EQ(pragma.errors,
            "late.glsl:3: error: '#pragma': the first 'shader_stage' #pragma must appear before "
            "any non-preprocessing code\n");
}

TEST(GlslcStagePragma, InvalidStage) {
  // What glslc 2023.2 -c prints.
  EXPECT_EQ(FindStagePragma("#version 450\n#pragma shader_stage(superstage)\nvoid main(){ }\n",
                            "bad.glsl", true)
                .errors,
            "bad.glsl:2: error: '#pragma': invalid stage for 'shader_stage' #pragma: "
            "'superstage'\n");
  EXPECT_EQ(
      FindStagePragma("#version 450\n#pragma shader_stage()\nvoid main(){ }\n", "empty.glsl", true)
          .errors,
      "empty.glsl:2: error: '#pragma': invalid stage for 'shader_stage' #pragma: ''\n");
  // Anything starting "#pragma shader_stage" is the pragma.
  EXPECT_EQ(
      FindStagePragma("#version 450\n#pragma shader_stagex\nvoid main(){ }\n", "stagex.glsl", true)
          .errors,
      "stagex.glsl:2: error: '#pragma': invalid stage for 'shader_stage' #pragma: 'x'\n");
}

TEST(GlslcStagePragma, AfterCodeAndInvalidGivesBothErrors) {
  // What glslc 2023.2 -c prints.
  EXPECT_EQ(FindStagePragma("#version 450\nvoid main(){ }\n#pragma shader_stage(superstage)\n",
                            "latebad.glsl", true)
                .errors,
            "latebad.glsl:3: error: '#pragma': the first 'shader_stage' #pragma must appear "
            "before any non-preprocessing code\n"
            "latebad.glsl:3: error: '#pragma': invalid stage for 'shader_stage' #pragma: "
            "'superstage'\n");
}

// conflict.glsl: every later pragma naming another stage is reported, located after
// `#line 20 "q.glsl"` by its file and next-line numbering.
TEST(GlslcStagePragma, ConflictingStagesWithNextLineSemantics) {
  const StagePragma pragma = FindStagePragma(
      "#version 450\n#pragma shader_stage(vertex)\n#pragma shader_stage(fragment)\n"
      "#line 20 \"q.glsl\"\n#pragma shader_stage(vertex)\n#pragma shader_stage(compute)\n"
      "void main(){ }\n",
      "conflict.glsl", true);
  EXPECT_TRUE(pragma.found);
  EXPECT_FALSE(pragma.stage.has_value());
  // What glslc 2023.2 -c prints.
  EXPECT_EQ(pragma.errors,
            "conflict.glsl:3: error: '#pragma': conflicting stages for 'shader_stage' #pragma: "
            "'fragment' (was 'vertex' at conflict.glsl:2)\n"
            "q.glsl:21: error: '#pragma': conflicting stages for 'shader_stage' #pragma: "
            "'compute' (was 'vertex' at conflict.glsl:2)\n");
}

// conflict150.glsl: `#version 150`, so `#line N` names its own line N; with -std=450 glslc
// counts the same text with next-line semantics.
TEST(GlslcStagePragma, ConflictingStagesWithOldLineSemantics) {
  const std::string cleaned =
      "#version 150\n#pragma shader_stage(vertex)\n#line 20 \"q.glsl\"\n"
      "#pragma shader_stage(compute)\n#line 30\n\n#pragma shader_stage(geometry)\n"
      "void main(){ }\n";
  // What glslc 2023.2 -c prints.
  EXPECT_EQ(FindStagePragma(cleaned, "conflict150.glsl", false).errors,
            "q.glsl:21: error: '#pragma': conflicting stages for 'shader_stage' #pragma: "
            "'compute' (was 'vertex' at conflict150.glsl:2)\n"
            "q.glsl:32: error: '#pragma': conflicting stages for 'shader_stage' #pragma: "
            "'geometry' (was 'vertex' at conflict150.glsl:2)\n");
  // What glslc 2023.2 -c -std=450 prints.
  EXPECT_EQ(FindStagePragma(cleaned, "conflict150.glsl", true).errors,
            "q.glsl:20: error: '#pragma': conflicting stages for 'shader_stage' #pragma: "
            "'compute' (was 'vertex' at conflict150.glsl:2)\n"
            "q.glsl:31: error: '#pragma': conflicting stages for 'shader_stage' #pragma: "
            "'geometry' (was 'vertex' at conflict150.glsl:2)\n");
}

// `#line 20 7` names string 7; `#line 5 "a b.glsl"` a file with a space.
TEST(GlslcStagePragma, LineDirectiveStringNumbersAndSpacedNames) {
  // What glslc 2023.2 -c prints.
  EXPECT_EQ(FindStagePragma("#version 310 es\n#pragma shader_stage(vertex)\n#line 20 7\n"
                            "#pragma shader_stage(compute)\nvoid main(){ }\n",
                            "conflictes.glsl", true)
                .errors,
            "7:20: error: '#pragma': conflicting stages for 'shader_stage' #pragma: 'compute' "
            "(was 'vertex' at conflictes.glsl:2)\n");
  EXPECT_EQ(FindStagePragma("#version 450\n#pragma shader_stage(vertex)\n#line 5 \"a b.glsl\"\n"
                            "#pragma shader_stage(compute)\nvoid main(){ }\n",
                            "spacename.glsl", true)
                .errors,
            "a b.glsl:5: error: '#pragma': conflicting stages for 'shader_stage' #pragma: "
            "'compute' (was 'vertex' at spacename.glsl:2)\n");
}

// incl.glsl: pragmas in included files, located by the includes' `#line`s.
TEST(GlslcStagePragma, PragmasInIncludedFiles) {
  // What glslc 2023.2 -E prints, then what glslc 2023.2 -c prints.
  EXPECT_EQ(FindStagePragma("#version 450\n#extension GL_GOOGLE_include_directive : enable\n"
                            "#line 1 \"incl.glsl\"\n\n#line 1 \"inc/p.h\"\n"
                            "#pragma shader_stage(fragment)\n#line 3 \"incl.glsl\"\n"
                            "void main(){ }\n#line 1 \"inc/pv.h\"\n#pragma shader_stage(vertex)\n"
                            "#line 5 \"incl.glsl\"\n\n",
                            "incl.glsl", true)
                .errors,
            "inc/pv.h:1: error: '#pragma': conflicting stages for 'shader_stage' #pragma: "
            "'vertex' (was 'fragment' at inc/p.h:1)\n");
  EXPECT_EQ(FindStagePragma("#version 150\n#extension GL_GOOGLE_include_directive : enable\n"
                            "#line 0 \"incl150.glsl\"\n\n#line 0 \"inc/pv.h\"\n"
                            "#pragma shader_stage(vertex)\n#line 2 \"incl150.glsl\"\n\n"
                            "#line 0 \"inc/p.h\"\n#pragma shader_stage(fragment)\n"
                            "#line 4 \"incl150.glsl\"\nvoid main(){ }\n",
                            "incl150.glsl", false)
                .errors,
            "inc/p.h:1: error: '#pragma': conflicting stages for 'shader_stage' #pragma: "
            "'fragment' (was 'vertex' at inc/pv.h:1)\n");
}

// Lines are trimmed before they are looked at; the value loses only its parentheses.
TEST(GlslcStagePragma, LinesAreTrimmed) {
  const StagePragma pragma = FindStagePragma(
      "#version 450\n  \t#pragma shader_stage(vertex)  \n  void main(){ }\n", "t.glsl", true);
  EXPECT_EQ(pragma.stage, EShLangVertex);
  EXPECT_EQ(pragma.errors, "");
  EXPECT_EQ(FindStagePragma("#pragma shader_stage( vertex)\n", "t.glsl", true).errors,
            "t.glsl:1: error: '#pragma': invalid stage for 'shader_stage' #pragma: ' vertex'\n");
}

// The text glslc scans is the cleaned one: glslang's text for dpre.glsl (-DA=1 -DB=2,
// `#include "inc/p.h"` naming fragment, main, then a vertex pragma) has the preamble's
// lines before the source, which PreprocessedOutput removes.
TEST(GlslcStagePragma, ScanningTheCleanedTextOfGlslangsOutput) {
  // glslang's text.
  const std::string preprocessed =
      "\n\n#extension GL_GOOGLE_include_directive : enable\n#version 450\n"
      "#line 1 \"inc/p.h\"\n#pragma shader_stage(fragment)\n#line 3 \"dpre.glsl\"\n"
      "void main(){ }\n#pragma shader_stage(vertex)\n";
  const bool next_line = NextLineSemantics(preprocessed, 0, ENoProfile);
  const std::string cleaned = PreprocessedOutput(preprocessed, "dpre.glsl", 1, next_line);
  // What glslc 2023.2 -c -DA=1 -DB=2 prints.
  EXPECT_EQ(FindStagePragma(cleaned, "dpre.glsl", next_line).errors,
            "dpre.glsl:4: error: '#pragma': conflicting stages for 'shader_stage' #pragma: "
            "'vertex' (was 'fragment' at inc/p.h:1)\n");
}

// p150.glsl with -DA=1, no includes: in glslang's own text the first pragma would be on
// line 4; glslc, which scans the cleaned text, says 2.
TEST(GlslcStagePragma, PreambleLinesDoNotCountInTheCleanedText) {
  // glslang's text.
  const std::string preprocessed =
      "\n#extension GL_GOOGLE_include_directive : enable\n#version 150\n"
      "#pragma shader_stage(vertex)\n#line 7\n#pragma shader_stage(geometry)\n"
      "void main(){ }\n";
  const bool next_line = NextLineSemantics(preprocessed, 0, ENoProfile);
  ASSERT_FALSE(next_line);
  const std::string cleaned = PreprocessedOutput(preprocessed, "p150.glsl", 0, next_line);
  // What glslc 2023.2 -c -DA=1 prints.
  EXPECT_EQ(FindStagePragma(cleaned, "p150.glsl", next_line).errors,
            "p150.glsl:8: error: '#pragma': conflicting stages for 'shader_stage' #pragma: "
            "'geometry' (was 'vertex' at p150.glsl:2)\n");
}

}  // namespace
}  // namespace glint::glslc
