// Helpers for the report suites (report_html_test, report_sarif_test): running the
// built glslangValidator and other tools, and a temporary directory per test.
#ifndef GLINT_GTESTS_REPORT_TEST_SUPPORT_H
#define GLINT_GTESTS_REPORT_TEST_SUPPORT_H

#include <string>

namespace glint::test {

struct CommandResult {
  int exit_code = -1;  // -1 when the command did not exit normally
  std::string output;  // stdout and stderr together
};

// Runs `command` with /bin/sh, capturing stdout and stderr.
CommandResult RunShell(const std::string& command);

// Single-quotes `text` for /bin/sh.
std::string ShellQuote(const std::string& text);

// A fresh directory under the system's temporary directory, removed with its contents.
class TemporaryDirectory {
 public:
  TemporaryDirectory();
  ~TemporaryDirectory();
  TemporaryDirectory(const TemporaryDirectory&) = delete;
  TemporaryDirectory& operator=(const TemporaryDirectory&) = delete;
  const std::string& path() const { return path_; }
  // Writes `bytes` to path()/name and returns the full path.
  std::string Write(const std::string& name, const std::string& bytes) const;

 private:
  std::string path_;
};

std::string ValidatorPath();  // the built glslangValidator

// How many times `what` occurs in `text` (overlapping occurrences count).
size_t Count(const std::string& text, const std::string& what);

// `file` with every character that is not a letter or digit turned into '_' (a
// parameterised test's name).
std::string TestNameOf(const std::string& file);

}  // namespace glint::test

#endif  // GLINT_GTESTS_REPORT_TEST_SUPPORT_H
