// test::FileCheck: LLVM's FileCheck (Debian llvm-15-tools) run on a test's text, after a
// check of the directives that FileCheck itself would skip silently.
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "test_support.h"

extern char** environ;

namespace glint::test {
namespace {

namespace fs = std::filesystem;

// FileCheck only reads lines that carry one of its directives: a line starting with
// `CHEK:` or `CHECK-NXT:` is ignored, and the test passes having checked less than it
// says. Here every non-blank line must be exactly one known directive (as in the raw
// strings the suites pass). Returns a description of the first offender, or "".
std::string UnknownDirective(const std::string& checks) {
  static const std::regex kDirective(
      R"(^[ \t]*CHECK(-NEXT|-SAME|-NOT|-DAG|-LABEL|-EMPTY|-COUNT-[1-9][0-9]*)?:.*$)");
  std::istringstream in(checks);
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    if (!std::regex_match(line, kDirective))
      return "line " + std::to_string(number) + " of the checks is not a FileCheck directive " +
             "(CHECK, CHECK-NEXT, CHECK-SAME, CHECK-NOT, CHECK-DAG, CHECK-LABEL, CHECK-EMPTY, " +
             "CHECK-COUNT-n): " + line;
    // FileCheck's regexes are POSIX: `\w` is a literal `w`, so a pattern using it matches
    // less than it seems to, or nothing.
    for (const char* escape : {"\\w", "\\d", "\\s"})
      if (line.find(escape) != std::string::npos)
        return "line " + std::to_string(number) + " of the checks uses " + escape +
               ", which FileCheck's POSIX regexes do not know (write [A-Za-z0-9_], [0-9], " +
               "[[:space:]]): " + line;
  }
  return "";
}

bool WriteText(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  return static_cast<bool>(out.flush());
}

// Runs FileCheck with its stdout and stderr in `log`; returns its exit status, or -1
// when it could not be started.
int RunFileCheck(const fs::path& checks, const fs::path& input, const fs::path& log) {
  std::vector<std::string> args = {GLINT_FILECHECK, checks.string(),
                                   "--input-file=" + input.string(), "--dump-input=fail"};
  std::vector<char*> argv;
  for (std::string& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  pid_t pid = 0;
  int error = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (error != 0) return -1;
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace

::testing::AssertionResult FileCheck(const std::string& text, const std::string& checks) {
  std::string unknown = UnknownDirective(checks);
  if (!unknown.empty()) return ::testing::AssertionFailure() << unknown;
  std::string pattern = (fs::temp_directory_path() / "glint-filecheck-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr)
    return ::testing::AssertionFailure() << "mkdtemp failed: " << std::strerror(errno);
  const fs::path dir = pattern;
  int status = -1;
  if (WriteText(dir / "checks.txt", checks) && WriteText(dir / "input.txt", text))
    status = RunFileCheck(dir / "checks.txt", dir / "input.txt", dir / "log.txt");
  std::string log = ReadFile((dir / "log.txt").string());
  std::error_code ignored;
  fs::remove_all(dir, ignored);
  if (status == 0) return ::testing::AssertionSuccess();
  if (status < 0) return ::testing::AssertionFailure() << "could not run " << GLINT_FILECHECK;
  return ::testing::AssertionFailure() << "FileCheck failed (exit " << status << "):\n" << log;
}

}  // namespace glint::test
