// warm_worker.h and the C API around it: every kind of input isolated (HLSL, defines,
// include directories, the include callback answered by the host, -gV), the same result
// as glint_compile in-process; a warm worker serving many compiles and replacing itself
// after one it could not finish; and a worker that breaks the protocol (does not read,
// announces a huge message under a wrong magic) costing the host neither its deadline
// nor memory.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <thread>

#include "glint/glint_c.h"
#include "glslang/worker/wire_format.h"
#include "support/test_support.h"

namespace glint {
namespace {

namespace fs = std::filesystem;

std::string WorkerPath() { return test::BinaryDir() + "/glslang/glint-compile"; }

struct Compiled {
  bool ok = false;
  std::vector<uint32_t> words;
  std::string texts;  // every diagnostic's text, a line each
};

Compiled Take(glint_result_t* result) {
  Compiled out;
  out.ok = glint_result_succeeded(result) != 0;
  const uint32_t* words = glint_result_spirv(result);
  out.words.assign(words, words + glint_result_spirv_size(result));
  glint_diagnostic_t d;
  for (size_t i = 0; glint_report_diagnostic(glint_result_report(result), i, &d); ++i)
    out.texts += std::string(d.text) + "\n";
  glint_result_free(result);
  return out;
}

class TempDir {
 public:
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "glint-warm-worker-XXXXXX").string();
    path_ = mkdtemp(pattern.data()) ? pattern : "";
  }
  ~TempDir() { fs::remove_all(path_); }
  std::string Write(const std::string& name, const std::string& text, bool executable = false) {
    std::string path = path_ + "/" + name;
    fs::create_directories(fs::path(path).parent_path());
    std::ofstream(path, std::ios::binary) << text;
    if (executable) chmod(path.c_str(), 0755);
    return path;
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// Files served from memory; records what was asked.
struct Memory {
  std::map<std::string, std::string> files;
  int calls = 0;
};

int MemoryInclude(void* user_data, const char* requested, const char*, size_t, int,
                  glint_include_t* include) {
  auto* memory = static_cast<Memory*>(user_data);
  ++memory->calls;
  auto found = memory->files.find(requested);
  if (found == memory->files.end()) return 0;
  return glint_include_set_content(include, ("mem/" + found->first).c_str(), found->second.data(),
                                   found->second.size());
}

const char* kLitFragment = R"(#version 450
#extension GL_GOOGLE_include_directive : require
#include "light.glsl"
#include "fog.glsl"
layout(location = 0) in vec3 normal;
layout(location = 0) out vec4 color;
void main() { color = vec4(vec3(Light(normal) * Fog() * QUALITY), 1.0); }
)";

// An input with a define, an include from the callback, one from a directory, -gV.
glint_input_t* LitInput(const TempDir& dir, Memory& memory) {
  glint_input_t* input = glint_input_create();
  glint_input_set_source(input, kLitFragment);
  glint_input_set_stage(input, GLINT_STAGE_FRAGMENT);
  glint_input_set_file_name(input, "lit.frag");
  glint_input_add_define(input, "QUALITY", "2.0");
  glint_input_add_include_directory(input, (dir.path() + "/lib").c_str());
  glint_input_set_include_callback(input, MemoryInclude, &memory);
  glint_input_set_debug_info(input, GLINT_DEBUG_INFO_NON_SEMANTIC);
  return input;
}

TEST(WarmWorker, EveryKindOfInputGivesWhatGlintCompileGives) {
  TempDir dir;
  dir.Write("lib/fog.glsl", "float Fog() { return 0.75; }\n");
  Memory memory;
  memory.files["light.glsl"] = "float Light(vec3 n) { return max(n.y, 0.1); }\n";
  glint_input_t* input = LitInput(dir, memory);
  glint_options_t* options = glint_options_create();
  glint_options_set_validate(options, 1);
  Compiled in_process = Take(glint_compile(input, options));
  int calls_in_process = memory.calls;
  Compiled isolated =
      Take(glint_compile_isolated(input, options, WorkerPath().c_str(), 20000, 2ull << 30));
  ASSERT_TRUE(in_process.ok) << in_process.texts;
  EXPECT_TRUE(isolated.ok) << isolated.texts;
  EXPECT_EQ(isolated.words, in_process.words);
  EXPECT_EQ(isolated.texts, in_process.texts);
  EXPECT_EQ(memory.calls, 2 * calls_in_process);  // the callback ran in this process
  glint_options_free(options);
  glint_input_free(input);
}

TEST(WarmWorker, HlslWithDefinesGivesWhatGlintCompileGives) {
  glint_input_t* input = glint_input_create();
  glint_input_set_source(input, R"(
#ifndef SCALE
#error no scale
#endif
float4 PSMain(float4 color : COLOR0) : SV_Target { return color * SCALE; }
)");
  glint_input_set_stage(input, GLINT_STAGE_FRAGMENT);
  glint_input_set_language(input, GLINT_LANGUAGE_HLSL);
  glint_input_set_entry_point(input, "main");
  glint_input_set_source_entry_point(input, "PSMain");
  glint_input_add_define(input, "SCALE", "0.5");
  Compiled in_process = Take(glint_compile(input, nullptr));
  Compiled isolated = Take(glint_compile_isolated(input, nullptr, WorkerPath().c_str(), 20000, 0));
  ASSERT_TRUE(in_process.ok) << in_process.texts;
  EXPECT_EQ(isolated.words, in_process.words);
  EXPECT_EQ(isolated.texts, in_process.texts);
  glint_input_free(input);
}

std::string Variant(int i) {
  return "#version 450\nlayout(location = 0) out vec4 color;\nvoid main() { color = vec4(" +
         std::to_string(i) + ".0); }\n";
}

// One worker, many compiles; a compile it cannot finish in time is an error, and the
// next compile gets a fresh worker.
TEST(WarmWorker, ServesManyCompilesAndReplacesItselfAfterATimeout) {
  glint_worker_t* worker = glint_worker_create(WorkerPath().c_str(), 3000, 0);
  ASSERT_NE(worker, nullptr);
  for (int i = 0; i < 6; ++i) {
    glint_input_t* input = glint_input_create();
    std::string source = i == 3 ? test::RunawayStatements() : Variant(i);
    glint_input_set_source(input, source.c_str());
    glint_input_set_stage(input, GLINT_STAGE_FRAGMENT);
    Compiled isolated = Take(glint_worker_compile(worker, input, nullptr));
    if (i == 3) {
      EXPECT_FALSE(isolated.ok);
      EXPECT_NE(isolated.texts.find("exceeded the time limit of 3000 ms"), std::string::npos)
          << isolated.texts;
    } else {
      Compiled in_process = Take(glint_compile(input, nullptr));
      EXPECT_TRUE(isolated.ok) << i << ": " << isolated.texts;
      EXPECT_EQ(isolated.words, in_process.words) << i;
    }
    glint_input_free(input);
  }
  glint_worker_free(worker);
}

// A fake worker that records its pid (one line per start) and becomes the real one.
struct RecordedWorker {
  explicit RecordedWorker(TempDir& dir)
      : pids(dir.path() + "/pids"),
        path(dir.Write("recorded-worker",
                       "#!/bin/sh\necho $$ >> '" + pids + "'\nexec '" + WorkerPath() + "'\n",
                       true)) {}
  std::vector<pid_t> Started() const {
    std::vector<pid_t> started;
    std::ifstream in(pids);
    for (pid_t pid = 0; in >> pid;) started.push_back(pid);
    return started;
  }
  std::string pids, path;
};

// Waits until `pid` (a child of this process, which the worker's owner reaps) has
// ended whole and can be waited for, without reaping it (WNOWAIT). Its main thread is a
// zombie before the rest has gone (an AddressSanitizer process takes a while to unmap
// its shadow memory), and until then its socket is open: to the host it is alive.
bool AwaitDeath(pid_t pid) {
  for (int waited = 0; waited < 3000; ++waited) {
    siginfo_t info{};
    if (waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
        info.si_pid == pid)
      return true;
    usleep(10000);
  }
  return false;
}

Compiled CompileVariant(glint_worker_t* worker, int i) {
  glint_input_t* input = glint_input_create();
  std::string source = Variant(i);
  glint_input_set_source(input, source.c_str());
  glint_input_set_stage(input, GLINT_STAGE_FRAGMENT);
  Compiled out = Take(glint_worker_compile(worker, input, nullptr));
  glint_input_free(input);
  return out;
}

// A worker killed while idle, by a crash signal or SIGKILL, is replaced before the next
// request: that compile succeeds (it failed with "internal error ... (signal SIGSEGV)"
// or "gave no answer"), in a fresh worker.
TEST(WarmWorker, DiedWhileIdle_IsReplacedBeforeTheNextCompile) {
  TempDir dir;
  RecordedWorker fake(dir);
  glint_worker_t* worker = glint_worker_create(fake.path.c_str(), 10000, 0);
  ASSERT_NE(worker, nullptr);
  ASSERT_TRUE(CompileVariant(worker, 0).ok);
  int round = 1;
  for (int signal_number : {SIGSEGV, SIGKILL, SIGTERM}) {
    std::vector<pid_t> started = fake.Started();
    ASSERT_EQ(started.size(), static_cast<size_t>(round)) << signal_number;
    ASSERT_EQ(kill(started.back(), signal_number), 0);
    ASSERT_TRUE(AwaitDeath(started.back()));
    Compiled next = CompileVariant(worker, round);
    EXPECT_TRUE(next.ok) << signal_number << ": " << next.texts;
    EXPECT_EQ(fake.Started().size(), static_cast<size_t>(++round)) << signal_number;
  }
  glint_worker_free(worker);
}

// A worker killed by SIGKILL while compiling: the error says so, and that it was not
// Glint's time limit (it said "gave no answer (exit status -1)").
TEST(WarmWorker, KilledWhileCompiling_NamesTheSignal) {
  TempDir dir;
  RecordedWorker fake(dir);
  glint_worker_t* worker = glint_worker_create(fake.path.c_str(), 60000, 0);
  ASSERT_NE(worker, nullptr);
  std::thread killer([&] {
    for (int waited = 0; waited < 500 && fake.Started().empty(); ++waited) usleep(10000);
    usleep(1500000);  // the runaway compile below is well under way
    if (!fake.Started().empty()) kill(fake.Started().front(), SIGKILL);
  });
  glint_input_t* input = glint_input_create();
  std::string source = test::RunawayStatements();
  glint_input_set_source(input, source.c_str());
  glint_input_set_stage(input, GLINT_STAGE_FRAGMENT);
  Compiled killed = Take(glint_worker_compile(worker, input, nullptr));
  killer.join();
  glint_input_free(input);
  EXPECT_FALSE(killed.ok);
  EXPECT_EQ(killed.texts,
            "ERROR: the compile worker was killed by SIGKILL while compiling, not by Glint (no "
            "time limit ran out: the kernel's out-of-memory killer or another process); no "
            "output\n");
  EXPECT_TRUE(CompileVariant(worker, 1).ok);  // and the next compile has a fresh worker
  glint_worker_free(worker);
}

// A worker that exits without answering: its exit status, not "no answer".
TEST(WarmWorker, ExitWithoutAnswer_NamesTheStatus) {
  TempDir dir;
  std::string quitter = dir.Write("quitter-worker", "#!/bin/sh\nexit 3\n", true);
  glint_input_t* input = glint_input_create();
  glint_input_set_source(input, "#version 450\nvoid main() {}\n");
  glint_input_set_stage(input, GLINT_STAGE_FRAGMENT);
  Compiled out = Take(glint_compile_isolated(input, nullptr, quitter.c_str(), 10000, 0));
  glint_input_free(input);
  EXPECT_FALSE(out.ok);
  EXPECT_EQ(out.texts,
            "ERROR: the compile worker exited with status 3 without answering; no output\n");
}

// Memory past the worker's budget names the budget (it said "internal error:
// std::bad_alloc"). AddressSanitizer's workers run without RLIMIT_AS.
TEST(WarmWorker, MemoryBudget_IsNamed) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "the worker has no memory limit under AddressSanitizer";
#endif
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
  GTEST_SKIP() << "the worker has no memory limit under AddressSanitizer";
#endif
#endif
  glint_input_t* input = glint_input_create();
  std::string source = test::MacroExplosion();
  glint_input_set_source(input, source.c_str());
  glint_input_set_stage(input, GLINT_STAGE_FRAGMENT);
  Compiled out =
      Take(glint_compile_isolated(input, nullptr, WorkerPath().c_str(), 120000, 512ull << 20));
  glint_input_free(input);
  EXPECT_FALSE(out.ok);
  EXPECT_EQ(out.texts,
            "ERROR: compile exceeded its memory budget (memory_limit_bytes 536870912, 512 MiB); "
            "no output\n");
}

// Runs `body` in a child process; fails when it has not finished within `seconds`
// (then the child is killed), so a hang on today's code fails instead of hanging.
::testing::AssertionResult FinishesWithin(int seconds, const std::function<bool()>& body) {
  pid_t child = fork();
  if (child == 0) _exit(body() ? 0 : 1);
  for (int waited = 0; waited < seconds * 10; ++waited) {
    int status = 0;
    if (waitpid(child, &status, WNOHANG) == child)
      return WIFEXITED(status) && WEXITSTATUS(status) == 0
                 ? ::testing::AssertionSuccess()
                 : ::testing::AssertionFailure() << "the check in the child failed";
    usleep(100000);
  }
  kill(child, SIGKILL);
  waitpid(child, nullptr, 0);
  return ::testing::AssertionFailure() << "still running after " << seconds << " s";
}

// A worker that never reads its request: writing a 16 MiB source must stop at the
// deadline (it blocked forever once the socket's buffer was full).
TEST(WorkerProtocolHostile, AWorkerThatDoesNotReadCannotOutlastTheDeadline) {
  TempDir dir;
  std::string fake = dir.Write("deaf-worker", "#!/bin/sh\nexec sleep 60\n", true);
  std::string source = "#version 450\nvoid main() {}\n//" + std::string(16u << 20, 'x') + "\n";
  EXPECT_TRUE(FinishesWithin(15, [&] {
    glint_input_t* input = glint_input_create();
    glint_input_set_source(input, source.c_str());
    glint_input_set_stage(input, GLINT_STAGE_FRAGMENT);
    Compiled out = Take(glint_compile_isolated(input, nullptr, fake.c_str(), 1000, 0));
    glint_input_free(input);
    return !out.ok && out.texts.find("exceeded the time limit of 1000 ms") != std::string::npos;
  }));
}

// A worker that answers with an 8-byte header of a wrong magic and a 1 GiB length: the
// magic is refused at once, before the length is read (the host used to allocate the
// gigabyte, then wait for it until the deadline).
TEST(WorkerProtocolHostile, AWrongMagicIsRefusedBeforeItsLength) {
  TempDir dir;
  std::string fake = dir.Write(
      "liar-worker",
      "#!/bin/sh\nprintf '\\001\\002\\003\\004\\000\\000\\000\\100'\nexec sleep 60\n", true);
  auto start = std::chrono::steady_clock::now();
  EXPECT_TRUE(FinishesWithin(15, [&] {
    glint_input_t* input = glint_input_create();
    glint_input_set_source(input, "#version 450\nvoid main() {}\n");
    glint_input_set_stage(input, GLINT_STAGE_FRAGMENT);
    Compiled out = Take(glint_compile_isolated(input, nullptr, fake.c_str(), 8000, 0));
    glint_input_free(input);
    return !out.ok && out.texts.find(
                          "the compile worker broke the protocol: a message of unknown "
                          "magic 0x04030201; no output") != std::string::npos;
  }));
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(6));
}

// The reader's order: magic, then version, then length; each refusal leaves the words
// after it unread, and a length that is never sent costs only what arrived.
TEST(WireFormat, MagicThenVersionThenLengthBeforeAnyAllocation) {
  auto pair = [] {
    std::array<int, 2> ends{};
    EXPECT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, ends.data()), 0);
    return ends;
  };
  auto send_words = [](int fd, std::vector<uint32_t> words) {
    ASSERT_EQ(write(fd, words.data(), words.size() * 4), static_cast<ssize_t>(words.size() * 4));
  };
  auto unread = [](int fd) {
    char buffer[64];
    return recv(fd, buffer, sizeof buffer, MSG_DONTWAIT);
  };
  std::string payload;
  auto wrong_magic = pair();
  send_words(wrong_magic[1], {0x11111111, wire::kWireVersion, 1u << 30});
  EXPECT_EQ(wire::ReadMessage(wrong_magic[0], 0x22222222, 1u << 31, 0, &payload),
            wire::ReadStatus::kBad);
  EXPECT_EQ(unread(wrong_magic[0]), 8);  // version and length never read
  auto wrong_version = pair();
  send_words(wrong_version[1], {0x22222222, wire::kWireVersion + 1, 1u << 30});
  EXPECT_EQ(wire::ReadMessage(wrong_version[0], 0x22222222, 1u << 31, 0, &payload),
            wire::ReadStatus::kBad);
  EXPECT_EQ(unread(wrong_version[0]), 4);  // length never read
  auto too_long = pair();
  send_words(too_long[1], {0x22222222, wire::kWireVersion, 1025});
  EXPECT_EQ(wire::ReadMessage(too_long[0], 0x22222222, 1024, 0, &payload), wire::ReadStatus::kBad);
  auto announced = pair();
  send_words(announced[1], {0x22222222, wire::kWireVersion, 1u << 30, 7});
  close(announced[1]);
  std::string small;
  EXPECT_EQ(wire::ReadMessage(announced[0], 0x22222222, 1u << 31, 0, &small),
            wire::ReadStatus::kBad);
  EXPECT_LT(small.capacity(), 1u << 20);
  for (auto ends : {wrong_magic, wrong_version, too_long})
    for (int fd : ends) close(fd);
  close(announced[0]);
}

TEST(WireFormat, WriteStopsAtTheDeadlineWhenNobodyReads) {
  std::array<int, 2> ends{};
  ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, ends.data()), 0);
  auto start = std::chrono::steady_clock::now();
  EXPECT_FALSE(wire::WriteMessage(ends[0], 1, std::string(32u << 20, 'x'), wire::NowMs() + 300));
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  close(ends[0]);
  close(ends[1]);
}

// Messages of every size cross a socket and a pipe whole: a small one (written in one
// call), and one over 1 MiB (header and payload apart; on a pipe, PIPE_BUF at a time).
TEST(WireFormat, SmallAndLargeMessagesCrossSocketsAndPipes) {
  for (bool use_pipe : {false, true}) {
    for (size_t size : {size_t{100}, size_t{3u << 20}}) {
      std::array<int, 2> ends{};  // [0] reads, [1] writes
      if (use_pipe) {
        ASSERT_EQ(pipe(ends.data()), 0);
      } else {
        ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, ends.data()), 0);
      }
      std::string sent(size, '\0');
      for (size_t i = 0; i < size; ++i) sent[i] = static_cast<char>(i * 7 + i / 4096);
      bool written = false;
      std::thread writer([&] {
        written = wire::WriteMessage(ends[1], 0x33333333, sent, wire::NowMs() + 20000);
      });
      std::string got;
      EXPECT_EQ(wire::ReadMessage(ends[0], 0x33333333, 8u << 20, wire::NowMs() + 20000, &got),
                wire::ReadStatus::kOk)
          << (use_pipe ? "pipe " : "socket ") << size;
      writer.join();
      EXPECT_TRUE(written) << (use_pipe ? "pipe " : "socket ") << size;
      EXPECT_TRUE(got == sent) << (use_pipe ? "pipe " : "socket ") << size;
      close(ends[0]);
      close(ends[1]);
    }
  }
}

TEST(WireFormat, WriteToAPipeStopsAtTheDeadlineWhenNobodyReads) {
  std::array<int, 2> ends{};
  ASSERT_EQ(pipe(ends.data()), 0);
  auto start = std::chrono::steady_clock::now();
  EXPECT_FALSE(wire::WriteMessage(ends[1], 1, std::string(4u << 20, 'x'), wire::NowMs() + 300));
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  close(ends[0]);
  close(ends[1]);
}

}  // namespace
}  // namespace glint
