// Every option spelling glslang 12.0.0's glslangValidator accepts, side by side with
// Debian's /usr/bin/glslangValidator: the rows of Test/glslang12_spellings.table (one
// or more per spelling), each long spelling once more with its case changed, and every
// letter that is no short option. Each run starts in a fresh copy of Test/spellings/;
// stdout, stderr, exit code and every file left behind must be the same, except that
// where glslang prints its usage text Glint prints that text followed by its own
// section. The table's long spellings must be exactly those the parser knows
// (GlslangLongOptionSpellings), so neither can gain or lose one unnoticed.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "command_line.h"
#include "support/test_support.h"

namespace glint::standalone {
namespace {

namespace fs = std::filesystem;

const char* kRealTool = "/usr/bin/glslangValidator";
std::string OurTool() { return test::BinaryDir() + "/StandAlone/glslangValidator"; }

struct Row {
  std::string spelling;  // "--amb", "-D<name>", or "!..." for a row that is no spelling
  std::string args;      // the command line after the tool's name (shell words)
};

std::vector<Row> ReadTable() {
  std::ifstream table(test::SourceRoot() + "/Test/glslang12_spellings.table");
  std::vector<Row> rows;
  for (std::string line; std::getline(table, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream words(line);
    Row row;
    words >> row.spelling >> std::ws;
    std::getline(words, row.args);
    rows.push_back(row);
  }
  return rows;
}

bool IsSpelling(const Row& row) { return row.spelling[0] != '!'; }
bool IsLong(const std::string& spelling) { return spelling.rfind("--", 0) == 0; }

std::vector<std::string> Words(const std::string& text) {
  std::istringstream stream(text);
  std::vector<std::string> words;
  for (std::string word; stream >> word;) words.push_back(word);
  return words;
}

// "--shift-ssbo-binding" -> "--ShIfT-SsBo-bInDiNg": glslang lowercases long options.
std::string ChangeCase(const std::string& spelling) {
  std::string changed = spelling;
  for (size_t i = 2; i < changed.size(); i += 2)
    changed[i] = static_cast<char>(std::toupper(static_cast<unsigned char>(changed[i])));
  return changed;
}

std::string ReplaceWord(const std::string& args, const std::string& from, const std::string& to) {
  std::string result;
  for (const std::string& word : Words(args))
    result += (result.empty() ? "" : " ") + (word == from ? to : word);
  return result;
}

// Every test run: the table's rows, then the case variants, then the unused letters.
struct Run {
  std::string name;
  std::string args;
};

void PrintTo(const Run& run, std::ostream* out) { *out << run.args; }

std::vector<Run> AllRuns() {
  std::vector<Run> runs;
  std::vector<Row> rows = ReadTable();
  std::set<std::string> varied;
  std::set<char> letters;
  for (const Row& row : rows) runs.push_back({row.spelling + " " + row.args, row.args});
  for (const Row& row : rows) {
    if (!IsSpelling(row)) continue;
    if (!IsLong(row.spelling)) {
      letters.insert(row.spelling[1]);
      continue;
    }
    // The first row, and each row where the option is the last word: glslang names the
    // option lowercased in some complaints about a missing operand, as typed in others.
    bool last_word = Words(row.args).back() == row.spelling;
    if (!varied.insert(row.spelling).second && !last_word) continue;
    std::string changed = ChangeCase(row.spelling);
    runs.push_back({"case " + changed, ReplaceWord(row.args, row.spelling, changed)});
  }
  for (char letter = 'A'; letter <= 'z'; ++letter) {
    if (!std::isalpha(static_cast<unsigned char>(letter)) || letters.count(letter)) continue;
    std::string flag = std::string("-") + letter;
    runs.push_back({"unused letter " + flag, flag + " plain.frag"});
  }
  return runs;
}

struct ToolResult {
  int exit_code = -1;
  std::string out;
  std::string err;
  std::map<std::string, std::string> files;  // what the run left in its directory
};

// Runs `tool args` in a fresh copy of Test/spellings/ under a private directory.
class Sandbox {
 public:
  Sandbox() {
    char pattern[] = "/tmp/glint-spellings-XXXXXX";
    root_ = mkdtemp(pattern);
  }
  ~Sandbox() { fs::remove_all(root_); }

  ToolResult Run(const std::string& tool, const std::string& args) const {
    std::string dir = root_ + "/run";
    fs::remove_all(dir);
    fs::copy(test::SourceRoot() + "/Test/spellings", dir, fs::copy_options::recursive);
    std::string input = args.find('<') == std::string::npos ? " </dev/null" : "";
    std::string command = "cd '" + dir + "' && '" + tool + "' " + args + " >'" + root_ +
                          "/stdout' 2>'" + root_ + "/stderr'" + input;
    int status = std::system(command.c_str());
    ToolResult result;
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    result.out = test::ReadFile(root_ + "/stdout");
    result.err = test::ReadFile(root_ + "/stderr");
    for (const auto& entry : fs::recursive_directory_iterator(dir))
      if (entry.is_regular_file())
        result.files[fs::relative(entry.path(), dir).string()] =
            test::ReadFile(entry.path().string());
    return result;
  }

 private:
  std::string root_;
};

std::string Replace(std::string text, const std::string& from, const std::string& to) {
  for (size_t at = 0; (at = text.find(from, at)) != std::string::npos; at += to.size())
    text.replace(at, from.size(), to);
  return text;
}

// glslang's usage text (Debian's tool's -h) and Glint's section after it (what Glint's
// -h prints beyond glslang's text).
struct UsageTexts {
  std::string glslang;
  std::string glint_section;
};

const UsageTexts& Usage() {
  static const UsageTexts texts = [] {
    Sandbox sandbox;
    UsageTexts usage;
    usage.glslang = sandbox.Run(kRealTool, "-h").out;
    std::string ours = sandbox.Run(OurTool(), "-h").out;
    if (ours.rfind(usage.glslang, 0) == 0) usage.glint_section = ours.substr(usage.glslang.size());
    return usage;
  }();
  return texts;
}

TEST(Usage, IsGlslangsTextThenGlintsOwnSection) {
  ASSERT_NE(Usage().glslang.find("Usage: glslangValidator [option]... [file]..."),
            std::string::npos);
  ASSERT_FALSE(Usage().glint_section.empty()) << "Glint's -h does not start with glslang's text";
  EXPECT_EQ(Usage().glint_section.rfind("\nGlint:", 0), 0u);
  for (const char* flag : {"--no-glint", "--robust-access", "--report=html", "--no-isolate"})
    EXPECT_NE(Usage().glint_section.find(flag), std::string::npos) << flag;
}

TEST(SpellingTable, LongSpellingsAreExactlyThoseTheParserKnows) {
  std::set<std::string> in_table;
  for (const Row& row : ReadTable())
    if (IsSpelling(row) && IsLong(row.spelling)) in_table.insert(row.spelling.substr(2));
  std::vector<std::string> known = GlslangLongOptionSpellings();
  EXPECT_EQ(in_table, std::set<std::string>(known.begin(), known.end()));
  size_t spellings = 0;
  std::set<std::string> seen;
  for (const Row& row : ReadTable())
    if (IsSpelling(row) && seen.insert(row.spelling).second) ++spellings;
  std::cout << "spellings: " << spellings << " (" << in_table.size()
            << " long), runs: " << AllRuns().size() << "\n";
}

TEST(SpellingTable, EveryRowUsesItsSpelling) {
  for (const Row& row : ReadTable()) {
    if (!IsSpelling(row)) continue;
    std::string prefix = row.spelling.substr(0, row.spelling.find('<'));
    std::vector<std::string> words = Words(row.args);
    bool used = std::any_of(words.begin(), words.end(), [&](const std::string& word) {
      return row.spelling.find('<') == std::string::npos ? word == row.spelling
                                                         : word.rfind(prefix, 0) == 0;
    });
    EXPECT_TRUE(used) << row.spelling << ": " << row.args;
  }
}

class SameAsGlslang : public ::testing::TestWithParam<Run> {};

TEST_P(SameAsGlslang, OutputErrorsExitCodeAndFiles) {
  const std::string& args = GetParam().args;
  Sandbox sandbox;
  ToolResult real = sandbox.Run(kRealTool, args);
  ToolResult ours = sandbox.Run(OurTool(), args);
  std::string expected_out = real.out;
  size_t usage = expected_out.find(Usage().glslang);
  if (usage != std::string::npos)
    expected_out.insert(usage + Usage().glslang.size(), Usage().glint_section);
  EXPECT_EQ(ours.exit_code, real.exit_code) << args;
  EXPECT_EQ(ours.out, expected_out) << args;
  EXPECT_EQ(Replace(ours.err, OurTool(), kRealTool), real.err) << args;
  EXPECT_EQ(ours.files, real.files) << args;
}

INSTANTIATE_TEST_SUITE_P(Table, SameAsGlslang, ::testing::ValuesIn(AllRuns()),
                         [](const auto& info) {
                           return std::to_string(info.index) + "_" +
                                  test::ParamName(info.param.name);
                         });

}  // namespace
}  // namespace glint::standalone
