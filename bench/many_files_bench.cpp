// glslangValidator over many files in one run (compile only, no -V): Glint's against
// Debian's /usr/bin/glslangValidator (glslang 12), side by side in one run.
//
// Each round runs every tool once over the same files, in alternating order, and the
// medians over the rounds are printed, so a preempted round on a shared machine does
// not decide the number:
//   1. Glint vs glslang, sequential: wall and CPU seconds (user + system of the tool and
//      everything it forked), and the median of the per-round wall ratios (the goal for
//      a drop-in replacement: at most 1.1);
//   2. -t: the speed-up of Glint -t over Glint, and of glslang -t over glslang.
// Every round also checks that both tools printed the same stdout and exit code, and
// that -t printed what the sequential run printed.
//
// Inputs: 200 small shaders the bench writes (vertex, fragment and compute, a few with
// compile errors) into a private temporary directory, or with --inputs DIR the shaders
// under DIR (read where they lie; a file glslang 12 crashes on is left out, since it
// would end Debian's run).
//
// Usage: many_files_bench [--rounds N] [--files N] [--inputs DIR]
// For the -t speed-up on 2 cores: taskset -c 0,1 many_files_bench (Glint's -t uses the
// CPUs the process may run on; glslang's starts 16 threads whatever the machine).
#include <fcntl.h>
#include <sched.h>
#include <spawn.h>
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
#include <sstream>
#include <string>
#include <vector>

extern char** environ;

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

const char* kDebianTool = "/usr/bin/glslangValidator";

struct ToolRun {
  double wall = 0;  // seconds
  double cpu = 0;   // user + system seconds of the tool and its children
  int status = -1;
  std::string out;  // stdout
};

double Seconds(const timeval& time) { return time.tv_sec + time.tv_usec / 1e6; }

// Runs `argv` in `dir` with stdout and stderr to files there; wait4 gives its CPU.
ToolRun Spawn(const std::string& dir, const std::vector<std::string>& argv) {
  std::vector<char*> args;
  for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  const std::string out_path = dir + "/.bench-stdout", err_path = dir + "/.bench-stderr";
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0600);
  posix_spawn_file_actions_addopen(&actions, 2, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0600);
  posix_spawn_file_actions_addchdir_np(&actions, dir.c_str());
  ToolRun run;
  Clock::time_point start = Clock::now();
  pid_t pid = -1;
  if (posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ) == 0) {
    rusage usage{};
    wait4(pid, &run.status, 0, &usage);
    run.cpu = Seconds(usage.ru_utime) + Seconds(usage.ru_stime);
  }
  run.wall = std::chrono::duration<double>(Clock::now() - start).count();
  posix_spawn_file_actions_destroy(&actions);
  std::ifstream file(out_path, std::ios::binary);
  std::ostringstream text;
  text << file.rdbuf();
  run.out = text.str();
  return run;
}

// A small shader of a stage chosen by `i`; every 25th does not compile.
std::pair<std::string, std::string> GeneratedShader(int i) {
  const std::string n = std::to_string(i);
  std::string broken = i % 25 == 7 ? "  undeclared_" + n + " = 1;\n" : "";
  switch (i % 3) {
    case 0:
      return {"s" + n + ".frag",
              "#version 450\nlayout(location = 0) in vec4 color_in;\n"
              "layout(location = 0) out vec4 color;\n"
              "vec4 shade(vec4 c) { return c * " +
                  n +
                  ".0 + vec4(0.5); }\n"
                  "void main() {\n" +
                  broken + "  color = shade(color_in);\n}\n"};
    case 1:
      return {"s" + n + ".vert",
              "#version 450\nlayout(location = 0) in vec3 position;\n"
              "layout(set = 0, binding = 0) uniform Camera { mat4 view_projection; };\n"
              "void main() {\n" +
                  broken + "  gl_Position = view_projection * vec4(position * " + n +
                  ".0, 1.0);\n}\n"};
    default:
      return {"s" + n + ".comp",
              "#version 450\nlayout(local_size_x = 64) in;\n"
              "layout(set = 0, binding = 0) buffer Data { float values[]; };\n"
              "void main() {\n" +
                  broken +
                  "  uint i = gl_GlobalInvocationID.x;\n"
                  "  for (int k = 0; k < " +
                  std::to_string(i % 7 + 1) + "; ++k) values[i] += float(k);\n}\n"};
  }
}

std::vector<std::string> GenerateShaders(const std::string& dir, int count) {
  std::vector<std::string> names;
  for (int i = 0; i < count; ++i) {
    auto [name, text] = GeneratedShader(i);
    std::ofstream(dir + "/" + name, std::ios::binary) << text;
    names.push_back(name);
  }
  return names;
}

bool HasShaderStageSuffix(const fs::path& path) {
  static const char* kSuffixes[] = {".vert", ".frag", ".comp", ".geom", ".tesc", ".tese"};
  std::string ext = path.extension().string();
  return std::any_of(std::begin(kSuffixes), std::end(kSuffixes),
                     [&](const char* suffix) { return ext == suffix; });
}

// The shaders directly under `inputs`, sorted, as absolute paths, less those glslang 12
// crashes on (they would end Debian's whole run): one Glint run over all of them names
// each in its "internal error in glslang 12" line.
std::vector<std::string> ExistingShaders(const std::string& inputs, const std::string& dir,
                                         const std::string& glint) {
  std::vector<std::string> names;
  for (const fs::directory_entry& entry : fs::directory_iterator(inputs))
    if (entry.is_regular_file() && HasShaderStageSuffix(entry.path()))
      names.push_back(fs::absolute(entry.path()).string());
  std::sort(names.begin(), names.end());
  std::vector<std::string> argv{glint};
  argv.insert(argv.end(), names.begin(), names.end());
  const std::string out = Spawn(dir, argv).out;
  std::vector<std::string> kept;
  for (const std::string& name : names)
    if (out.find("ERROR: " + name + ": internal error in glslang 12") == std::string::npos)
      kept.push_back(name);
  std::printf("%zu of %zu shaders under %s (the others crash glslang 12)\n", kept.size(),
              names.size(), inputs.c_str());
  return kept;
}

double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

struct Series {
  std::vector<double> wall, cpu;
  void Add(const ToolRun& run) { wall.push_back(run.wall), cpu.push_back(run.cpu); }
};

std::vector<std::string> Command(const std::string& tool, bool threaded,
                                 const std::vector<std::string>& files) {
  std::vector<std::string> argv{tool};
  if (threaded) argv.push_back("-t");
  argv.insert(argv.end(), files.begin(), files.end());
  return argv;
}

void PrintPair(const char* what, const char* a, const Series& sa, const char* b, const Series& sb) {
  std::vector<double> ratios;
  for (size_t i = 0; i < sa.wall.size(); ++i) ratios.push_back(sa.wall[i] / sb.wall[i]);
  std::printf(
      "%s\n  %s: %.3f s wall, %.3f s CPU\n  %s: %.3f s wall, %.3f s CPU\n"
      "  median of per-round wall ratios %s / %s: %.2f (CPU medians: %.2f)\n",
      what, a, Median(sa.wall), Median(sa.cpu), b, Median(sb.wall), Median(sb.cpu), a, b,
      Median(ratios), Median(sa.cpu) / Median(sb.cpu));
}

// One round: the four runs, in an order that alternates from round to round.
void Round(int round, const std::string& dir, const std::string& glint,
           const std::vector<std::string>& files, Series series[4], int* mismatches) {
  const std::string tools[4] = {glint, kDebianTool, glint, kDebianTool};
  ToolRun runs[4];
  for (int k = 0; k < 4; ++k) {
    int which = round % 2 ? 3 - k : k;
    runs[which] = Spawn(dir, Command(tools[which], which >= 2, files));
    series[which].Add(runs[which]);
  }
  bool same = runs[0].out == runs[1].out && runs[0].status == runs[1].status &&
              runs[2].out == runs[0].out && runs[2].status == runs[0].status;
  if (!same) ++*mismatches;
}

}  // namespace

int main(int argc, char** argv) {
  int rounds = 11, count = 200;
  std::string inputs;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--rounds") == 0) rounds = std::max(1, std::atoi(argv[i + 1]));
    if (std::strcmp(argv[i], "--files") == 0) count = std::max(1, std::atoi(argv[i + 1]));
    if (std::strcmp(argv[i], "--inputs") == 0) inputs = argv[i + 1];
  }
  const std::string glint = std::string(GLINT_BINARY_DIR) + "/StandAlone/glslangValidator";
  char pattern[] = "/tmp/glint-many-files-bench-XXXXXX";
  const std::string dir = mkdtemp(pattern);
  std::vector<std::string> files =
      inputs.empty() ? GenerateShaders(dir, count) : ExistingShaders(inputs, dir, glint);
  Series series[4];  // glint, glslang, glint -t, glslang -t
  int mismatches = 0;
  for (int round = 0; round < rounds; ++round) Round(round, dir, glint, files, series, &mismatches);
  fs::remove_all(dir);
  cpu_set_t cpus;
  CPU_ZERO(&cpus);
  sched_getaffinity(0, sizeof cpus, &cpus);
  std::printf("%zu files, %d rounds, %d CPUs usable\n", files.size(), rounds, CPU_COUNT(&cpus));
  PrintPair("sequential:", "glint", series[0], "glslang", series[1]);
  PrintPair("-t speed-up (Glint: one worker per usable CPU):", "glint", series[0], "glint -t",
            series[2]);
  PrintPair("-t speed-up (glslang: 16 threads):", "glslang", series[1], "glslang -t", series[3]);
  std::printf("rounds whose stdout or exit code differed between the runs: %d\n", mismatches);
  return mismatches == 0 ? 0 : 1;
}
