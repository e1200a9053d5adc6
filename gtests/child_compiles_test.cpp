// Tests of StandAlone/child_compiles.h, glslangValidator's compile workers:
// - RunCompiles itself, with job bodies of the test's own: one worker serves the whole
//   list; a crash, a time-out or an exit() costs that job only (a fresh worker takes the
//   next job; files written for a crashed job are removed; nothing after an exit()ed
//   job counts); with several workers the jobs run at the same time and their text
//   comes out in job order.
// - the built glslangValidator over a list of files (compile only): crashing inputs in
//   the middle cost one line each and the rest prints what Debian's glslangValidator
//   prints; -t prints exactly what the sequential run prints, exit code included, for
//   a list with failing, crashing, stalled and unreadable inputs.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <thread>

#include "child_compiles.h"
#include "support/report_test_support.h"
#include "support/test_support.h"

namespace glint::standalone {
namespace {

namespace fs = std::filesystem;

// The project's own minimal input on which glslang 12 dereferences null: an empty
// initializer list nested in an array initializer.
const char* kCrasher =
    "#version 440\n#extension GL_EXT_null_initializer : enable\n"
    "void main() { int a[1][2] = { {} }; }\n";

using Scratch = test::TemporaryDirectory;

std::string In(const Scratch& scratch, const std::string& name) {
  return scratch.path() + "/" + name;
}

BatchSettings Isolated(unsigned workers = 1, uint32_t timeout_ms = 0) {
  BatchSettings settings;
  settings.max_workers = workers;
  settings.timeout_ms = timeout_ms;
  return settings;
}

std::string Pid() { return std::to_string(getpid()); }

using End = CompileOutcome::End;

TEST(RunCompiles, OneWorkerServesTheWholeList) {
  std::vector<CompileOutcome> outcomes =
      RunCompiles(6, Isolated(), [](size_t, CompileFlags&) { return Pid(); });
  ASSERT_EQ(outcomes.size(), 6u);
  for (const CompileOutcome& outcome : outcomes) {
    EXPECT_EQ(outcome.end, End::kFinished);
    EXPECT_EQ(outcome.payload, outcomes.front().payload);
  }
  EXPECT_NE(outcomes.front().payload, Pid());
}

TEST(RunCompiles, NotIsolatedRunsInThisProcess) {
  BatchSettings settings = Isolated(4);
  settings.isolate = false;
  std::vector<CompileOutcome> outcomes =
      RunCompiles(3, settings, [](size_t, CompileFlags&) { return Pid(); });
  ASSERT_EQ(outcomes.size(), 3u);
  for (const CompileOutcome& outcome : outcomes) EXPECT_EQ(outcome.payload, Pid());
}

// Job 2 writes its file and crashes: only that file goes, a fresh worker runs 3 and 4,
// and the flags of every finished job come back.
TEST(RunCompiles, CrashCostsOnlyItsJobAndItsFiles) {
  Scratch scratch;
  std::vector<CompileOutcome> outcomes =
      RunCompiles(5, Isolated(), [&](size_t job, CompileFlags& flags) {
        WriteOutput(In(scratch, "out" + std::to_string(job)), "bytes");
        if (job == 2) std::raise(SIGSEGV);
        flags.compile_failed = job == 4;
        return Pid();
      });
  ASSERT_EQ(outcomes.size(), 5u);
  EXPECT_EQ(outcomes[2].end, End::kCrashed);
  EXPECT_EQ(outcomes[2].signal, SIGSEGV);
  for (size_t job : {0, 1, 3, 4}) {
    EXPECT_EQ(outcomes[job].end, End::kFinished) << job;
    EXPECT_TRUE(fs::exists(In(scratch, "out" + std::to_string(job)))) << job;
  }
  EXPECT_FALSE(fs::exists(In(scratch, "out2")));
  EXPECT_EQ(outcomes[0].payload, outcomes[1].payload);
  EXPECT_EQ(outcomes[3].payload, outcomes[4].payload);
  EXPECT_NE(outcomes[1].payload, outcomes[3].payload);
  EXPECT_TRUE(outcomes[4].flags.compile_failed);
  EXPECT_FALSE(outcomes[3].flags.compile_failed);
}

// A worker that runs ahead of the parent and dies: the parent, held back after it
// records job 0, finds the worker dead when it hands it job 12; jobs 1 and 2 ended
// (their ends wait unread in the channel) and job 3 crashed. Only job 3 counts as
// crashed, jobs 1 and 2 keep what they returned, and each job runs once (a job run
// twice would append its number twice).
TEST(RunCompiles, AWorkerThatRanAheadBlamesTheJobItDiedOn) {
  Scratch scratch;
  const std::string log = In(scratch, "ran");
  BatchSettings settings = Isolated();
  settings.job_ended = [&](size_t job) {
    // Long enough for the worker to end jobs 1 and 2 and die on 3 (it does nothing
    // else); without it the parent usually reads each end as it comes.
    if (job == 0) std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  };
  std::vector<CompileOutcome> outcomes = RunCompiles(16, settings, [&](size_t job, CompileFlags&) {
    std::FILE* ran = std::fopen(log.c_str(), "a");
    std::fprintf(ran, "%zu\n", job);
    std::fclose(ran);
    if (job == 3) std::raise(SIGSEGV);
    return "job " + std::to_string(job);
  });
  ASSERT_EQ(outcomes.size(), 16u);
  for (size_t job = 0; job < 16; ++job) {
    if (job == 3) continue;
    EXPECT_EQ(outcomes[job].end, End::kFinished) << job;
    EXPECT_EQ(outcomes[job].payload, "job " + std::to_string(job)) << job;
  }
  EXPECT_EQ(outcomes[3].end, End::kCrashed);
  EXPECT_EQ(outcomes[3].signal, SIGSEGV);
  std::ifstream ran(log);
  std::vector<size_t> order;
  for (size_t job; ran >> job;) order.push_back(job);
  std::vector<size_t> once = order;
  std::sort(once.begin(), once.end());
  EXPECT_EQ(std::adjacent_find(once.begin(), once.end()), once.end())
      << "a job ran twice: the first run's end was lost";
  EXPECT_EQ(once.size(), 16u);
}

// Every job has its own time: a list of quick jobs longer than the limit is fine, the
// one that stalls is killed at the limit and the jobs after it still run.
TEST(RunCompiles, TimeLimitIsPerJob) {
  auto start = std::chrono::steady_clock::now();
  std::vector<CompileOutcome> outcomes =
      RunCompiles(8, Isolated(1, 1500), [](size_t job, CompileFlags&) {
        std::this_thread::sleep_for(std::chrono::milliseconds(job == 5 ? 600000 : 250));
        return std::string("done");
      });
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_EQ(outcomes.size(), 8u);
  for (size_t job = 0; job < 8; ++job)
    EXPECT_EQ(outcomes[job].end, job == 5 ? End::kTimedOut : End::kFinished) << job;
  EXPECT_LT(seconds, 60);
}

// A job that exit()s ends the list there (the caller ends the run with its code):
// later jobs never ran one after the other, and what parallel workers wrote for them
// is removed.
TEST(RunCompiles, ExitEndsTheListAtThatJob) {
  for (unsigned workers : {1u, 3u}) {
    Scratch scratch;
    std::vector<CompileOutcome> outcomes =
        RunCompiles(6, Isolated(workers), [&](size_t job, CompileFlags&) {
          if (job == 2) std::exit(7);
          WriteOutput(In(scratch, "out" + std::to_string(job)), "bytes");
          return std::string();
        });
    ASSERT_EQ(outcomes.size(), 3u) << workers;
    EXPECT_EQ(outcomes[2].end, End::kExited);
    EXPECT_EQ(outcomes[2].exit_code, 7);
    EXPECT_TRUE(fs::exists(In(scratch, "out1")));
    for (const char* later : {"out3", "out4", "out5"})
      EXPECT_FALSE(fs::exists(In(scratch, later))) << workers << " " << later;
  }
}

// Runs `work` with this process's stdout and stderr going to files; returns their text.
std::pair<std::string, std::string> Captured(const Scratch& scratch,
                                             const std::function<void()>& work) {
  std::fflush(stdout), std::fflush(stderr);
  int saved[2] = {dup(1), dup(2)};
  int files[2] = {open(In(scratch, "stdout").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600),
                  open(In(scratch, "stderr").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600)};
  dup2(files[0], 1), dup2(files[1], 2);
  work();
  std::fflush(stdout), std::fflush(stderr);
  for (int fd : {1, 2}) dup2(saved[fd - 1], fd), close(saved[fd - 1]), close(files[fd - 1]);
  return {test::ReadFile(In(scratch, "stdout")), test::ReadFile(In(scratch, "stderr"))};
}

// In the parallel run job 0 waits until job 1 has started, which only a second worker
// can do, and the later jobs finish in reverse order. Their text still comes out in job
// order, the text of the crashed job included, as one worker prints it.
TEST(RunCompiles, ParallelWorkersPrintInJobOrder) {
  Scratch scratch;
  const std::string started = In(scratch, "job1-started");
  bool wait_for_job1 = true;
  auto body = [&](size_t job, CompileFlags&) {
    std::printf("out %zu\n", job);
    std::fprintf(stderr, "err %zu\n", job);
    std::fflush(stdout), std::fflush(stderr);
    if (job == 1) std::ofstream(started) << "yes";
    bool overlapped = false;
    for (int i = 0; i < 2000 && job == 0 && wait_for_job1 && !overlapped; ++i) {
      overlapped = fs::exists(started);
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    if (job == 3) std::raise(SIGSEGV);
    std::this_thread::sleep_for(std::chrono::milliseconds(job >= 2 ? (8 - job) * 30 : 0));
    return std::string(overlapped ? "overlapped" : "");
  };
  std::vector<CompileOutcome> parallel, sequential;
  auto parallel_text = Captured(scratch, [&] { parallel = RunCompiles(8, Isolated(3), body); });
  wait_for_job1 = false;
  auto sequential_text = Captured(scratch, [&] { sequential = RunCompiles(8, Isolated(1), body); });
  ASSERT_EQ(parallel.size(), 8u);
  ASSERT_EQ(sequential.size(), 8u);
  EXPECT_EQ(parallel[0].payload, "overlapped");
  EXPECT_EQ(parallel[3].end, End::kCrashed);
  EXPECT_EQ(sequential[3].end, End::kCrashed);
  EXPECT_EQ(parallel_text.first, sequential_text.first);
  EXPECT_EQ(parallel_text.second, sequential_text.second);
  std::string expected;
  for (int job = 0; job < 8; ++job) expected += "out " + std::to_string(job) + "\n";
  EXPECT_EQ(parallel_text.first, expected);
}

// ---------------------------------------------------------------------------------
// The built glslangValidator over lists of files.

struct ToolRun {
  int exit_code = -1;
  std::string out, err;
};

ToolRun RunTool(const Scratch& scratch, const std::string& tool, const std::string& args) {
  std::string command =
      "cd '" + scratch.path() + "' && '" + tool + "' " + args + " >.out 2>.err <.out";
  int status = std::system(command.c_str());
  ToolRun run;
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  run.out = test::ReadFile(In(scratch, ".out"));
  run.err = test::ReadFile(In(scratch, ".err"));
  return run;
}

const char* kDebian = "/usr/bin/glslangValidator";

// Inputs of every kind a compile-only run meets, each under its own name.
void WriteMixedInputs(const Scratch& scratch) {
  for (int i = 0; i < 6; ++i)
    scratch.Write(
        "plain" + std::to_string(i) + ".frag",
        "#version 440\nlayout(location = 0) out vec4 color;\nvoid main() { color = vec4(" +
            std::to_string(i) + ".0); }\n");
  scratch.Write("broken.frag", "#version 440\nvoid main() { undeclared = 1; }\n");
  scratch.Write("old.vert", "#version 110\nvoid main() { gl_Position = vec4(1.0); }\n");
  scratch.Write("es.comp", "#version 310 es\nlayout(local_size_x = 1) in;\nvoid main() {}\n");
  scratch.Write("warning.frag",
                "#version 440\n#extension GL_EXT_unknown_thing : warn\nvoid main() {}\n");
  scratch.Write("crash1.frag", kCrasher);
  scratch.Write("crash2.vert", kCrasher);
}

std::string InternalError(const std::string& name) {
  return "ERROR: " + name +
         ": internal error in glslang 12 (signal SIGSEGV) while compiling; no output written\n";
}

const char* kListWithoutCrashers =
    "plain0.frag broken.frag plain1.frag old.vert es.comp plain2.frag warning.frag plain3.frag";

// Crashers in the middle of the list: one line each; with them taken out, the output
// is Debian's for the same list (which Debian itself cannot run with them in).
TEST(ManyFiles, CrashersInTheListCostOneLineEach) {
  Scratch scratch;
  WriteMixedInputs(scratch);
  ToolRun debian = RunTool(scratch, kDebian, kListWithoutCrashers);
  ToolRun ours = RunTool(scratch, test::ValidatorPath(),
                         "plain0.frag crash1.frag broken.frag plain1.frag old.vert crash2.vert "
                         "es.comp plain2.frag warning.frag crash1.frag plain3.frag");
  EXPECT_EQ(ours.exit_code, 2);
  EXPECT_EQ(debian.exit_code, 2);
  std::string without = ours.out;
  for (const std::string name : {"crash1.frag", "crash2.vert", "crash1.frag"}) {
    size_t at = without.find(name + "\n" + InternalError(name));
    ASSERT_NE(at, std::string::npos) << name << "\n" << ours.out;
    without.erase(at, name.size() + 1 + InternalError(name).size());
  }
  EXPECT_EQ(without, debian.out);
  EXPECT_EQ(ours.err, debian.err);
  ToolRun debian_alone = RunTool(scratch, kDebian, "crash1.frag");
  EXPECT_TRUE(debian_alone.exit_code == -1 || debian_alone.exit_code >= 128)
      << "glslang 12 no longer crashes on the reproducer";
}

TEST(ManyFiles, ThreadedRunPrintsTheSequentialRun) {
  Scratch scratch;
  WriteMixedInputs(scratch);
  ASSERT_EQ(mkfifo(In(scratch, "stall.frag").c_str(), 0600), 0);  // nobody ever writes it
  const std::string lists[] = {
      std::string("--timeout-ms 1000 crash1.frag ") + kListWithoutCrashers +
          " stall.frag crash2.vert plain4.frag plain5.frag",
      std::string(kListWithoutCrashers) + " crash2.vert missing.frag plain5.frag crash1.frag",
      std::string(kListWithoutCrashers) + " crash2.vert plain.unknown_suffix plain5.frag",
      // The second worker gets plain4 and missing2 while the first dies on missing1:
      // only the first usage error may be printed.
      "missing1.frag plain4.frag plain5.frag missing2.frag plain0.frag",
  };
  for (const std::string& list : lists) {
    ToolRun sequential = RunTool(scratch, test::ValidatorPath(), list);
    ToolRun threaded = RunTool(scratch, test::ValidatorPath(), "-t " + list);
    EXPECT_EQ(threaded.out, sequential.out) << list;
    EXPECT_EQ(threaded.err, sequential.err) << list;
    EXPECT_EQ(threaded.exit_code, sequential.exit_code) << list;
    EXPECT_NE(sequential.exit_code, 0) << list;
  }
  ToolRun stalled = RunTool(scratch, test::ValidatorPath(), "-t " + lists[0]);
  EXPECT_NE(stalled.out.find("stall.frag\nERROR: stall.frag: compile exceeded --timeout-ms 1000; "
                             "no output written\ncrash2.vert\n" +
                             InternalError("crash2.vert") + "plain4.frag\n"),
            std::string::npos)
      << stalled.out;
  ToolRun debian = RunTool(scratch, kDebian, std::string("-t ") + kListWithoutCrashers);
  ToolRun ours = RunTool(scratch, test::ValidatorPath(), std::string("-t ") + kListWithoutCrashers);
  EXPECT_EQ(ours.out, debian.out);
  EXPECT_EQ(ours.err, debian.err);
  EXPECT_EQ(ours.exit_code, debian.exit_code);
}

}  // namespace
}  // namespace glint::standalone
