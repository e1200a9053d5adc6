// FormatHtmlReport and glslangValidator --report=html: the page shows every source
// line with what Glint found there, escapes whatever the sources contain, and works in
// a real browser (Debian's chromium, headless): the DOM after load has the expected
// markers and counts, the filter script ran, and a screenshot is not blank.
#include <gtest/gtest.h>
#include <png.h>

#include <cstdio>
#include <filesystem>
#include <ostream>
#include <set>

#include "glint/report_format.h"
#include "glslang/reports/report_text.h"
#include "support/report_test_support.h"
#include "support/test_support.h"

namespace glint {
namespace {

using test::Count;
using test::RunShell;
using test::ShellQuote;
using test::TemporaryDirectory;

AccessRecord Access(uint32_t line, AccessVerdict verdict) {
  AccessRecord record;
  record.location = {"a.comp", line, 0};
  record.instruction = "OpAccessChain";
  record.object = "data";
  record.limit = 15;
  record.reason = "load from a storage buffer";
  record.verdict = verdict;
  return record;
}

ReportContext ContextWith(const std::string& text) {
  ReportContext context;
  context.title = "a.comp";
  context.sources = {{"a.comp", text}};
  return context;
}

TEST(ReportText, SplitLines_EveryLineEnding) {
  std::vector<std::string_view> expected = {"a", "b", "c", "", "d", "", "e"};
  EXPECT_EQ(text::SplitLines("a\r\nb\rc\n\nd\r\r\ne\n"), expected);
  EXPECT_EQ(text::SplitLines(""), std::vector<std::string_view>{});
  EXPECT_EQ(text::SplitLines("tail\r"), std::vector<std::string_view>{"tail"});
}

TEST(ReportText, Html_EscapesAndRepairsUtf8) {
  EXPECT_EQ(text::Html("a<b>&\"'\xe2\x82\xac\xc0\xaf\xed\xa0\x80z"),
            "a&lt;b&gt;&amp;&quot;&#39;"
            "\xe2\x82\xac\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBDz");
  EXPECT_EQ(text::Html(std::string("nul\0!", 5)), "nul\xEF\xBF\xBD!");
}

// The escaping a reader can check byte by byte: ValidUtf8, then one entity per byte.
std::string EscapedBytewise(std::string_view line) {
  std::string out;
  for (char c : text::ValidUtf8(std::string(line))) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      case '\0':
        out += "\xEF\xBF\xBD";
        break;
      default:
        out += c;
    }
  }
  return out;
}

// Texts with every byte the escaper stops at, at every offset of a 16-byte block and
// across block ends (the scanner tests 16 bytes at a time where it can), plus
// pseudo-random mixes of them.
std::vector<std::string> EscapingTexts() {
  const std::string stops[] = {"&",
                               "<",
                               ">",
                               "\"",
                               "'",
                               std::string(1, '\0'),
                               "\n",
                               "\r",
                               "\r\n",
                               "\n\r",
                               "\xe2\x82\xac",
                               "\xf0\x9f\x98\x80",
                               "\xff",
                               "\xc3",
                               "\xed\xa0\x80",
                               "\t"};
  std::vector<std::string> texts;
  for (const std::string& stop : stops)
    for (size_t offset = 0; offset < 34; ++offset) {
      std::string text = std::string(offset, 'x') + stop + std::string(29, 'y') + stop;
      texts.push_back(text);
      texts.push_back(text + "tail");
    }
  uint32_t state = 12345;
  for (int i = 0; i < 300; ++i) {
    std::string text;
    for (size_t length = i % 97; length > 0; --length) {
      state = state * 1664525u + 1013904223u;
      const std::string& stop = stops[(state >> 8) % std::size(stops)];
      text += (state >> 20) % 3 == 0 ? stop : std::string(1, char('a' + (state >> 24) % 26));
    }
    texts.push_back(text);
  }
  return texts;
}

TEST(ReportText, AppendHtmlLine_VisitsSplitLinesEscapedBytewise) {
  for (const std::string& text : EscapingTexts()) {
    std::vector<std::string> shown, expected;
    for (size_t at = 0; at < text.size();) {
      std::string line;
      size_t next = text::AppendHtmlLine(line, text, at);
      ASSERT_GT(next, at) << testing::PrintToString(text);
      shown.push_back(line);
      at = next;
    }
    for (std::string_view line : text::SplitLines(text)) expected.push_back(EscapedBytewise(line));
    EXPECT_EQ(shown, expected) << testing::PrintToString(text);
    EXPECT_EQ(text::Html(text), EscapedBytewise(text)) << testing::PrintToString(text);
  }
}

// JSON's escaping, byte by byte: ValidUtf8, then " \\ and control characters escaped.
std::string JsonBytewise(std::string_view text) {
  std::string out = "\"";
  for (char c : text::ValidUtf8(std::string(text))) {
    if (c == '"' || c == '\\')
      out += {'\\', c};
    else if (c == '\n')
      out += "\\n";
    else if (c == '\r')
      out += "\\r";
    else if (c == '\t')
      out += "\\t";
    else if (static_cast<unsigned char>(c) < 0x20)
      out += "\\u00" + std::string(1, "01"[c >> 4]) + "0123456789abcdef"[c & 15];
    else
      out += c;
  }
  return out + "\"";
}

TEST(ReportText, Json_EscapesAsBytewiseReference) {
  EXPECT_EQ(text::Json(std::string("a\"b\\c\n\x01\x1f\xff\xe2\x82\xac", 13)),
            "\"a\\\"b\\\\c\\n\\u0001\\u001f\xEF\xBF\xBD\xe2\x82\xac\\u0000\"");
  for (const std::string& text : EscapingTexts())
    EXPECT_EQ(text::Json(text), JsonBytewise(text)) << testing::PrintToString(text);
}

TEST(ReportHtml, HostileSource_RendersAsText) {
  std::string source =
      "// <script>alert(1)</script> & \"q\" 'a' \xff\xfe\n<img src=x onerror=alert(2)>\n";
  Report report;
  report.accesses = {Access(1, AccessVerdict::kClamped)};
  report.accesses[0].object = "<b>obj</b>";
  std::string html = FormatHtmlReport(report, ContextWith(source));
  EXPECT_NE(html.find("// &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;q&quot; &#39;a&#39; "
                      "\xEF\xBF\xBD\xEF\xBF\xBD"),
            std::string::npos);
  EXPECT_NE(html.find("&lt;img src=x onerror=alert(2)&gt;"), std::string::npos);
  EXPECT_NE(html.find("&lt;b&gt;obj&lt;/b&gt;"), std::string::npos);
  EXPECT_EQ(Count(html, "<script"), 1u);  // only the page's own filter script
  EXPECT_EQ(Count(html, "<img"), 0u);
}

TEST(ReportHtml, Findings_ShownUnderTheirLine) {
  Report report;
  report.accesses = {Access(2, AccessVerdict::kClamped), Access(3, AccessVerdict::kProvenInBounds)};
  std::string html = FormatHtmlReport(report, ContextWith("line one\nline two\nline three\n"));
  size_t line2 = html.find("id=\"f0-L2\"");
  size_t clamped = html.find("class=\"finding clamped\"");
  size_t line3 = html.find("id=\"f0-L3\"");
  size_t proven = html.find("class=\"finding proven\"");
  ASSERT_NE(line2, std::string::npos);
  EXPECT_LT(line2, clamped);
  EXPECT_LT(clamped, line3);
  EXPECT_LT(line3, proven);
  EXPECT_NE(
      html.find(
          "<tr data-kind=\"clamped\"><td>accesses clamped</td><td class=\"count\">1</td></tr>"),
      std::string::npos);
  EXPECT_NE(html.find("no range: load from a storage buffer; limit 15; clamped"),
            std::string::npos);
}

// A large source: every line is a row with its number, in order, and findings stay
// under their line (the rows are written by one scan of the text).
TEST(ReportHtml, LargeSource_EveryLineARow) {
  std::string source;
  const uint32_t kLines = 3000;
  for (uint32_t line = 1; line <= kLines; ++line)
    source += "// line " + std::to_string(line) +
              (line % 7 ? " of filler text, long enough to span blocks" : " <&>") +
              (line % 5 ? "\n" : "\r\n");
  Report report;
  report.accesses = {Access(1, AccessVerdict::kClamped),
                     Access(1500, AccessVerdict::kProvenInBounds),
                     Access(kLines, AccessVerdict::kClamped)};
  std::string html = FormatHtmlReport(report, ContextWith(source));
  EXPECT_EQ(Count(html, "<tr class=\"line"), size_t(kLines));
  EXPECT_EQ(Count(html, "<tr class=\"line marked\""), 3u);
  size_t previous = 0;
  for (uint32_t line = 1; line <= kLines; ++line) {
    std::string row = "id=\"f0-L" + std::to_string(line) + "\"><td class=\"ln\">" +
                      std::to_string(line) + "</td><td class=\"src\">// line " +
                      std::to_string(line) + " ";
    size_t at = html.find(row, previous);
    ASSERT_NE(at, std::string::npos) << "line " << line;
    previous = at;
  }
  EXPECT_LT(html.find("class=\"finding proven\""), html.find("id=\"f0-L1501\""));
  EXPECT_GT(html.find("class=\"finding proven\""), html.find("id=\"f0-L1500\""));
  EXPECT_EQ(html.find("<section id=\"unplaced\">"), std::string::npos);
}

TEST(ReportHtml, ReasonSteps_LinkToTheirLines) {
  Report report;
  Diagnostic warning;
  warning.severity = Severity::kWarning;
  warning.rule = "uniformity/barrier";
  warning.location = {"a.comp", 3, 0};
  warning.message = "barrier in non-uniform control flow";
  warning.reasons = {"the branch at a.comp:1", "no place"};
  warning.reason_locations = {{"a.comp", 1, 0}, {}};
  report.diagnostics = {warning};
  std::string html = FormatHtmlReport(report, ContextWith("one\ntwo\nthree\n"));
  EXPECT_NE(
      html.find(
          "<li><a class=\"step\" href=\"#f0-L1\">the branch at a.comp:1</a></li><li>no place</li>"),
      std::string::npos)
      << html;
  EXPECT_NE(html.find("data-rule=\"uniformity/barrier\""), std::string::npos);
}

TEST(ReportHtml, UnknownFileOrLine_ListedSeparately) {
  Report report;
  report.accesses = {Access(2, AccessVerdict::kClamped), Access(0, AccessVerdict::kClamped),
                     Access(99, AccessVerdict::kClamped)};
  report.accesses[0].location.file = "missing.h";
  std::string html = FormatHtmlReport(report, ContextWith("one\ntwo\n"));
  size_t unplaced = html.find("<section id=\"unplaced\">");
  ASSERT_NE(unplaced, std::string::npos);
  EXPECT_EQ(Count(html.substr(unplaced), "class=\"finding clamped\""), 3u);
  EXPECT_NE(html.find("<code>missing.h:2</code>"), std::string::npos);
}

TEST(ReportHtml, NoLineInformation_SaysSo) {
  ReportContext context;
  context.has_line_information = false;
  std::string html = FormatHtmlReport(Report{}, context);
  EXPECT_NE(html.find("id=\"no-lines\""), std::string::npos);
  EXPECT_EQ(FormatHtmlReport(Report{}, ReportContext{}).find("id=\"no-lines\""), std::string::npos);
}

// A .spv input: the sources come from its OpSource; without OpLine the page says so.
TEST(ReportHtml, SpirvInput_SourcesFromDebugInfoOrSaysNone) {
  TemporaryDirectory dir;
  std::string golden = test::SourceRoot() + "/Test/robust_array.comp";
  std::string validator = ShellQuote(test::ValidatorPath());
  test::CommandResult compiled =
      RunShell("cd " + ShellQuote(dir.path()) + " && cp " + ShellQuote(golden) + " a.comp && " +
               validator + " -V --no-glint -g -o with_lines.spv a.comp && " + validator +
               " -V --no-glint -o plain.spv a.comp");
  ASSERT_EQ(compiled.exit_code, 0) << compiled.output;
  for (const char* input : {"with_lines", "plain"}) {
    test::CommandResult run =
        RunShell("cd " + ShellQuote(dir.path()) + " && " + validator +
                 " --robust-access -o out.spv --report=html " + input + ".html " + input + ".spv");
    ASSERT_EQ(run.exit_code, 0) << run.output;
  }
  std::string located = test::ReadFile(dir.path() + "/with_lines.html");
  EXPECT_NE(located.find("<h2>a.comp</h2>"), std::string::npos);
  EXPECT_EQ(located.find("id=\"no-lines\""), std::string::npos);
  EXPECT_EQ(located.find("<section id=\"unplaced\">"), std::string::npos)
      << "every finding has its line";
  EXPECT_GT(Count(located, "class=\"finding clamped\""), 0u);
  std::string plain = test::ReadFile(dir.path() + "/plain.html");
  EXPECT_NE(plain.find("id=\"no-lines\""), std::string::npos);
  EXPECT_EQ(Count(plain, "class=\"finding clamped\""), Count(located, "class=\"finding clamped\""));
}

// ---------------------------------------------------------------------------------
// In a browser.

std::string Chromium() {
  return "chromium --headless --no-sandbox --disable-gpu --hide-scrollbars";
}

// The DOM after load, as chromium serializes it.
std::string DumpDom(const TemporaryDirectory& dir, const std::string& html_path) {
  test::CommandResult result = RunShell(
      Chromium() + " --user-data-dir=" + ShellQuote(dir.path() + "/profile") + " --dump-dom " +
      ShellQuote("file://" + html_path) + " 2>" + ShellQuote(dir.path() + "/chromium.log"));
  EXPECT_EQ(result.exit_code, 0) << test::ReadFile(dir.path() + "/chromium.log");
  return result.output;
}

struct Pixels {
  uint32_t width = 0, height = 0;
  std::vector<uint32_t> rgba;
};

Pixels ReadPng(const std::string& path) {
  Pixels pixels;
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&image, path.c_str())) return pixels;
  image.format = PNG_FORMAT_RGBA;
  pixels.rgba.resize(size_t(image.width) * image.height);
  if (png_image_finish_read(&image, nullptr, pixels.rgba.data(), 0, nullptr)) {
    pixels.width = image.width;
    pixels.height = image.height;
  }
  return pixels;
}

// Compiles a golden with --report=html (and --dump-ranges, whose lines give the
// expected counts); returns glslangValidator's stdout.
std::string CompileWithReport(const TemporaryDirectory& dir, const std::string& file,
                              const std::string& flags) {
  test::CommandResult run =
      RunShell("cd " + ShellQuote(test::SourceRoot() + "/Test") + " && " +
               ShellQuote(test::ValidatorPath()) + " " + flags + " --dump-ranges -o " +
               ShellQuote(dir.path() + "/out.spv") + " --report=html " +
               ShellQuote(dir.path() + "/report.html") + " " + file);
  EXPECT_NE(run.exit_code, -1);
  return run.output;
}

struct GoldenCase {
  const char* file;
  const char* flags;
};

// Printed in test names and failures as the golden's file name.
void PrintTo(const GoldenCase& golden, std::ostream* out) {
  *out << golden.file << " " << golden.flags;
}

class ReportHtmlBrowser : public testing::TestWithParam<GoldenCase> {};

TEST_P(ReportHtmlBrowser, DomAfterLoad_HasTheRunsMarkers) {
  TemporaryDirectory dir;
  std::string log = CompileWithReport(dir, GetParam().file, GetParam().flags);
  std::string dom = DumpDom(dir, dir.path() + "/report.html");
  ASSERT_NE(dom.find("<nav id=\"filters\">"), std::string::npos)
      << "the filter script did not run:\n"
      << dom;
  EXPECT_GT(Count(dom, "<li class=\"finding "), 0u);
  EXPECT_EQ(Count(dom, "class=\"finding clamped\""), Count(log, ": clamped\n"));
  EXPECT_EQ(Count(dom, "class=\"finding proven\""), Count(log, ": proven in bounds\n"));
  EXPECT_EQ(Count(dom, "class=\"finding warning\""), Count(log, "WARNING: "));
  EXPECT_EQ(Count(dom, "class=\"finding error\""), Count(log, "ERROR: "));
  EXPECT_NE(dom.find(std::string("<h2>") + GetParam().file + "</h2>"), std::string::npos);
  std::string source = test::ReadFile(test::SourceRoot() + "/Test/" + GetParam().file);
  EXPECT_EQ(Count(dom, "<tr class=\"line"), text::SplitLines(source).size())
      << "every source line is a row";
}

INSTANTIATE_TEST_SUITE_P(
    Goldens, ReportHtmlBrowser,
    testing::Values(GoldenCase{"robust_array.comp", "-V --robust-access --range-analysis=off"},
                    GoldenCase{"robust_loop_full.comp", "-V --robust-access"},
                    GoldenCase{"uniformity_derivative.frag", "-V"},
                    GoldenCase{"uniformity_barrier_error.comp", "-V --uniformity=error"}),
    [](const testing::TestParamInfo<GoldenCase>& info) {
      return test::TestNameOf(info.param.file);
    });

TEST(ReportHtmlBrowser, HostileSource_StaysTextInTheBrowser) {
  TemporaryDirectory dir;
  dir.Write("hostile.comp",
            "#version 440\n// <script>document.title='pwned'</script> & \"q\" \xff\xfe\n"
            "layout(local_size_x = 4) in;\nlayout(std430, binding = 0) buffer B { uint v[]; };\n"
            "void main() { v[gl_LocalInvocationID.x] = 1u; }\n");
  test::CommandResult run =
      RunShell("cd " + ShellQuote(dir.path()) + " && " + ShellQuote(test::ValidatorPath()) +
               " -V --robust-access -o out.spv --report=html report.html hostile.comp");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  std::string dom = DumpDom(dir, dir.path() + "/report.html");
  EXPECT_NE(dom.find("<title>Glint report: hostile.comp</title>"), std::string::npos) << dom;
  EXPECT_NE(dom.find("&lt;script&gt;document.title='pwned'&lt;/script&gt; &amp; \"q\" "
                     "\xEF\xBF\xBD\xEF\xBF\xBD"),
            std::string::npos)
      << dom;
}

TEST(ReportHtmlBrowser, Screenshot_IsNotBlank) {
  TemporaryDirectory dir;
  CompileWithReport(dir, "uniformity_derivative.frag", "-V --robust-access");
  std::string png = test::BinaryDir() + "/report_screenshot.png";  // kept for the README
  std::remove(png.c_str());
  test::CommandResult shot =
      RunShell(Chromium() + " --user-data-dir=" + ShellQuote(dir.path() + "/profile") +
               " --window-size=1100,900 --screenshot=" + ShellQuote(png) + " " +
               ShellQuote("file://" + dir.path() + "/report.html") + " 2>&1");
  ASSERT_EQ(shot.exit_code, 0) << shot.output;
  Pixels pixels = ReadPng(png);
  ASSERT_EQ(pixels.width, 1100u);
  size_t ink = 0;
  std::set<uint32_t> colors;
  for (uint32_t pixel : pixels.rgba) {
    colors.insert(pixel);
    if ((pixel & 0xffffff) != 0xffffff) ++ink;
  }
  EXPECT_GT(colors.size(), 16u);
  EXPECT_GT(ink, pixels.rgba.size() / 50) << "less than 2% of the page is not white";
}

}  // namespace
}  // namespace glint
