// What containment costs, measured side by side in one run (medians of several rounds,
// so a preempted round on a shared machine does not decide the number):
//   1. the big-stack hand-off (glint/big_stack.h): an empty task run on this thread's
//      256 MB worker vs called directly, per call;
//   2. glslangValidator's worker (StandAlone/child_compiles.h): one run over N small
//      shaders without linking (one worker forked for the run, two messages per file)
//      vs the same run with --no-isolate, per file; and one -V compile per run,
//      isolated vs not (many_files_bench compares the first with Debian's tool);
//   3. glint::CompileGlslIsolated (a glint-compile worker per call, posix_spawn) vs
//      glint_compile_glsl in-process, per compile of a small shader;
//   4. a warm worker (glint_worker_create, then glint_worker_compile) over 200 shader
//      permutations (one source, a define each) vs glint_compile in-process over the
//      same 200, in alternating rounds; the ratio is the isolation goal (at most 1.2).
//      Both sides have compiled once before (glslang's built-in tables, the worker's
//      exec): the worker's start is measured on its own and printed beside, and the
//      ratio with one start paid for the 200 shaders is printed too.
// Usage: isolation_bench [--rounds N] (default 15) [--warm-only] (part 4 alone).
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "glint/glint_c.h"
#include "glint/isolated.h"
#include "glslang/front_end/big_stack.h"

namespace {

using Clock = std::chrono::steady_clock;

const char* kShader = R"(#version 450
layout(location = 0) in vec4 color_in;
layout(location = 0) out vec4 color;
void main() { color = color_in * 2.0; }
)";

double RusageSeconds(int who) {
  rusage usage{};
  getrusage(who, &usage);
  return usage.ru_utime.tv_sec + usage.ru_stime.tv_sec +
         (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}
double SelfCpuSeconds() { return RusageSeconds(RUSAGE_SELF); }
double ChildrenCpuSeconds() { return RusageSeconds(RUSAGE_CHILDREN); }

// CPU seconds of this process and of every waited-for descendant (system()'s shell,
// glslangValidator, its children, glint-compile workers), user + system.
double CpuSeconds() { return SelfCpuSeconds() + ChildrenCpuSeconds(); }

struct Cost {
  double wall = 0;  // seconds per item
  double cpu = 0;
};

double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

// Medians over `rounds` of wall and CPU seconds of `work`, divided by `per`.
Cost PerItem(int rounds, double per, const std::function<void()>& work) {
  std::vector<double> walls, cpus;
  for (int r = 0; r < rounds; ++r) {
    double cpu = CpuSeconds();
    Clock::time_point start = Clock::now();
    work();
    walls.push_back(std::chrono::duration<double>(Clock::now() - start).count() / per);
    cpus.push_back((CpuSeconds() - cpu) / per);
  }
  return {Median(walls), Median(cpus)};
}

void Print(const char* what, Cost isolated, Cost plain) {
  std::printf(
      "%s\n  isolated %.2f ms wall, %.2f ms CPU; in-process %.2f ms wall, %.2f ms CPU;"
      " difference %.2f ms wall, %.2f ms CPU\n",
      what, isolated.wall * 1e3, isolated.cpu * 1e3, plain.wall * 1e3, plain.cpu * 1e3,
      (isolated.wall - plain.wall) * 1e3, (isolated.cpu - plain.cpu) * 1e3);
}

void Run(const std::string& command) {
  if (std::system(command.c_str()) == -1) std::fprintf(stderr, "cannot run %s\n", command.c_str());
}

void BigStackHandOff(int rounds) {
  const int calls = 2000;
  volatile int sink = 0;
  Cost direct = PerItem(rounds, calls, [&] {
    for (int i = 0; i < calls; ++i) sink = sink + 1;
  });
  Cost handed = PerItem(rounds, calls, [&] {
    for (int i = 0; i < calls; ++i) glint::RunOnBigStack([&] { sink = sink + 1; });
  });
  std::printf("big-stack hand-off per call: %.1f us wall, %.1f us CPU (direct call %.3f us)\n",
              handed.wall * 1e6, handed.cpu * 1e6, direct.wall * 1e6);
}

void CommandLine(int rounds, const std::string& tool) {
  namespace fs = std::filesystem;
  char pattern[] = "/tmp/glint-isolation-bench-XXXXXX";
  std::string dir = mkdtemp(pattern);
  const int files = 20;
  std::string names;
  for (int i = 0; i < files; ++i) {
    std::string name = "s" + std::to_string(i) + ".frag";
    std::ofstream(dir + "/" + name) << kShader;
    names += " " + name;
  }
  std::string base = "cd '" + dir + "' && '" + tool + "' ";
  std::string quiet = " >out.log 2>&1";
  Print("glslangValidator, 20 files without linking in one run, per file:",
        PerItem(rounds, files, [&] { Run(base + names + quiet); }),
        PerItem(rounds, files, [&] { Run(base + "--no-isolate" + names + quiet); }));
  Print("glslangValidator -V, one file per run, per run:",
        PerItem(rounds, 1, [&] { Run(base + "-V -o a.spv s0.frag" + quiet); }),
        PerItem(rounds, 1, [&] { Run(base + "--no-isolate -V -o a.spv s0.frag" + quiet); }));
  fs::remove_all(dir);
}

void Library(int rounds, const std::string& worker) {
  const int compiles = 10;
  glint_glsl_input_t input{kShader, GLINT_STAGE_FRAGMENT, nullptr, nullptr, 0};
  glint::GlslInput isolated_input{kShader, glint::GlslStage::kFragment, "", "", false};
  glint::IsolationOptions isolation;
  isolation.worker_path = worker;
  Cost in_process = PerItem(rounds, compiles, [&] {
    for (int i = 0; i < compiles; ++i) glint_result_free(glint_compile_glsl(&input, nullptr));
  });
  Cost isolated = PerItem(rounds, compiles, [&] {
    for (int i = 0; i < compiles; ++i) {
      std::vector<uint32_t> words;
      if (!glint::CompileGlslIsolated(isolated_input, glint::Options(), isolation, words, nullptr))
        std::fprintf(stderr, "isolated compile failed\n");
    }
  });
  Print("library, small fragment shader, per compile (glint-compile worker vs glint_compile_glsl):",
        isolated, in_process);
}

const char* kPermutedShader = R"(#version 450
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0) uniform sampler2D image;
layout(set = 0, binding = 1) uniform Material { vec4 tint; float exposure; };
void main() {
  vec4 sum = vec4(0.0);
  for (int i = 0; i < TAPS; ++i) sum += texture(image, uv + vec2(float(i) * 0.01, 0.0));
  color = sum / float(TAPS) * tint * exposure;
}
)";

// CPU seconds the running children of this process (a warm worker and its threads) have
// used so far, from the scheduler's nanosecond counts (/proc/PID/task/TID/schedstat):
// what RUSAGE_CHILDREN tells only once a child is reaped, readable between rounds.
double RunningChildrenCpuSeconds() {
  namespace fs = std::filesystem;
  double seconds = 0;
  std::error_code error;
  for (const auto& task : fs::directory_iterator("/proc/self/task", error)) {
    std::ifstream children(task.path() / "children");
    for (long pid; children >> pid;) {
      fs::path threads = "/proc/" + std::to_string(pid) + "/task";
      for (const auto& thread : fs::directory_iterator(threads, error)) {
        std::ifstream stat(thread.path() / "schedstat");
        double on_cpu_ns = 0;
        if (stat >> on_cpu_ns) seconds += on_cpu_ns / 1e9;
      }
    }
  }
  return seconds;
}

// A worker that has exec'd and built glslang's tables: created, given its first compile.
glint_worker_t* StartedWorker(const std::string& worker_path, glint_input_t* input) {
  glint_worker_t* worker = glint_worker_create(worker_path.c_str(), 10000, 2ull << 30);
  glint_result_free(glint_worker_compile(worker, input, nullptr));
  return worker;
}

// One worker's start, as a host pays it once per worker: StartedWorker, then its end.
// CPU is the worker's (RUSAGE_CHILDREN once reaped) plus this process's.
Cost WorkerStart(const std::string& worker_path, glint_input_t* input) {
  double cpu = CpuSeconds();
  Clock::time_point start = Clock::now();
  glint_worker_t* worker = StartedWorker(worker_path, input);
  double wall = std::chrono::duration<double>(Clock::now() - start).count();
  glint_worker_free(worker);
  return {wall, CpuSeconds() - cpu};
}

void WarmWorker(int rounds, const std::string& worker_path) {
  const int shaders = 200;
  std::vector<glint_input_t*> inputs;
  for (int i = 0; i < shaders; ++i) {
    glint_input_t* input = glint_input_create();
    glint_input_set_source(input, kPermutedShader);
    glint_input_set_stage(input, GLINT_STAGE_FRAGMENT);
    glint_input_add_define(input, "TAPS", std::to_string(i % 16 + 1).c_str());
    glint_input_add_define(input, "PERMUTATION", std::to_string(i).c_str());
    inputs.push_back(input);
  }
  auto compile_in_process = [&] {
    for (glint_input_t* input : inputs) glint_result_free(glint_compile(input, nullptr));
  };
  compile_in_process();  // glslang's built-ins for this process, paid once like the worker's
  // What a worker's start costs, paid once per worker (median of three starts).
  std::vector<double> start_walls, start_cpus;
  for (int i = 0; i < 3; ++i) {
    Cost start = WorkerStart(worker_path, inputs[0]);
    start_walls.push_back(start.wall);
    start_cpus.push_back(start.cpu);
  }
  Cost start{Median(start_walls), Median(start_cpus)};
  // Then one worker, started and given its first compile before the rounds (as the
  // in-process side was), serves rounds that alternate with in-process rounds. Each
  // pair of rounds gives a ratio, and the median ratio is the figure: a machine whose
  // speed drifts (a shared virtual machine's does, by a third) weighs on both rounds of
  // a pair alike. CPU: this process's (RUSAGE_SELF) plus the worker's (its threads'
  // scheduler time, read between rounds).
  glint_worker_t* worker = StartedWorker(worker_path, inputs[0]);
  std::vector<double> in_walls, warm_walls, in_cpus, warm_cpus, wall_ratios, cpu_ratios;
  for (int r = 0; r < rounds; ++r) {
    double cpu = SelfCpuSeconds();
    Clock::time_point begin = Clock::now();
    compile_in_process();
    in_walls.push_back(std::chrono::duration<double>(Clock::now() - begin).count() / shaders);
    in_cpus.push_back((SelfCpuSeconds() - cpu) / shaders);
    cpu = SelfCpuSeconds() + RunningChildrenCpuSeconds();
    begin = Clock::now();
    for (glint_input_t* input : inputs) {
      glint_result_t* result = glint_worker_compile(worker, input, nullptr);
      if (!glint_result_succeeded(result)) std::fprintf(stderr, "warm worker compile failed\n");
      glint_result_free(result);
    }
    warm_walls.push_back(std::chrono::duration<double>(Clock::now() - begin).count() / shaders);
    warm_cpus.push_back((SelfCpuSeconds() + RunningChildrenCpuSeconds() - cpu) / shaders);
    wall_ratios.push_back(warm_walls.back() / in_walls.back());
    cpu_ratios.push_back(warm_cpus.back() / in_cpus.back());
  }
  glint_worker_free(worker);
  Cost in_process{Median(in_walls), Median(in_cpus)};
  Cost warm{Median(warm_walls), Median(warm_cpus)};
  std::printf("library, a worker's start (glint_worker_create to its first result, paid once "
              "per worker; median of 3): %.1f ms wall, %.1f ms CPU\n",
              start.wall * 1e3, start.cpu * 1e3);
  Print("library, 200 shader permutations, per shader (one warm worker vs glint_compile):", warm,
        in_process);
  std::sort(wall_ratios.begin(), wall_ratios.end());
  std::sort(cpu_ratios.begin(), cpu_ratios.end());
  std::printf("  warm worker / in-process, median of %d paired rounds: %.2fx wall (%.2f-%.2f), "
              "%.2fx CPU (%.2f-%.2f) (goal: at most 1.2x)\n",
              rounds, Median(wall_ratios), wall_ratios.front(), wall_ratios.back(),
              Median(cpu_ratios), cpu_ratios.front(), cpu_ratios.back());
  std::printf("  with one start for these 200 shaders: %.2fx wall, %.2fx CPU\n",
              (warm.wall * shaders + start.wall) / (in_process.wall * shaders),
              (warm.cpu * shaders + start.cpu) / (in_process.cpu * shaders));
  for (glint_input_t* input : inputs) glint_input_free(input);
}

}  // namespace

int main(int argc, char** argv) {
  int rounds = 15;
  bool warm_only = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--rounds") == 0 && i + 1 < argc)
      rounds = std::max(1, std::atoi(argv[i + 1]));
    warm_only |= std::strcmp(argv[i], "--warm-only") == 0;
  }
  const std::string binary = GLINT_BINARY_DIR;
  WarmWorker(rounds, binary + "/glslang/glint-compile");
  if (warm_only) return 0;
  BigStackHandOff(rounds);
  CommandLine(rounds, binary + "/StandAlone/glslangValidator");
  Library(rounds, binary + "/glslang/glint-compile");
  return 0;
}
