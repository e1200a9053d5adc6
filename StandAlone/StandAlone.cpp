// glslangValidator, Glint edition: glslang 12's command line (same flags, messages,
// output files and exit codes, see command_line.h) with Glint's passes run on the SPIR-V
// glslang generates, and on .spv inputs.
//
// Where glslang 12 differs from what Glint promises, Glint wins: an output file that
// cannot be written is an error (exit 1, glslang prints the message but exits 0), and
// no output file is ever left half-written (output_file.h: regular files are replaced
// atomically, devices and pipes written in place, every write checked).
#include <sys/stat.h>

#include <cctype>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>

#include <glslang/Public/ResourceLimits.h>
#include <glslang/SPIRV/GLSL.std.450.h>
#include <glslang/SPIRV/GlslangToSpv.h>
#include <glslang/SPIRV/disassemble.h>

#include "SPIRV/ir/parser.h"
#include "SPIRV/validate.h"
#include "child_compiles.h"
#include "command_line.h"
#include "glint/report_format.h"
#include "glslang/worker/crash_message.h"
#include "glslang/worker/wire_format.h"
#include "glslang/worker/worker_protocol.h"
#include "output_file.h"
#include "output_paths.h"
#include "report_files.h"
#include "spirv_file_format.h"
#include "warm_built_ins.h"

// glslang's own report after each hundred compiles in memory-leak mode (-m); its header
// (OSDependent/osinclude.h) is not installed, the function is in libOSDependent.
namespace glslang {
void OS_DumpMemoryCounters();
}

namespace glint::standalone {
namespace {

enum ExitCode { kSuccess = 0, kFailUsage = 1, kFailCompile = 2, kFailLink = 3 };

const char* g_executable = "glslangValidator";

// glslangValidator's usage error: one line on stderr, exit 1.
[[noreturn]] void Fail(const std::string& message) {
  std::fflush(stdout);
  std::fprintf(stderr, "%s: Error: %s (use -h for usage)\n", g_executable, message.c_str());
  std::exit(kFailUsage);
}

[[noreturn]] void Usage() {
  PrintUsage();
  std::exit(kFailUsage);
}

void PutsIfNonEmpty(const std::string& text) {
  if (!text.empty()) std::puts(text.c_str());
}

void StderrIfNonEmpty(const std::string& text) {
  if (!text.empty()) std::fprintf(stderr, "%s\n", text.c_str());
}

// Reads a source file the way glslangValidator does (text up to the first NUL), within
// what is left of `budget`. What cannot be opened is glslang's usage error; a
// directory or a source over its limit gets the same exit with the reason (glslang 12
// would compile a directory as an empty shader, and read any size).
std::string ReadSource(const std::string& name, frontend::SourceBudget& budget) {
  std::string text;
  bool open_failed = false;
  std::string problem = frontend::ReadFileWithin(name, budget.NextLimit(),
                                                 frontend::FileKinds::kAnyButDirectory,
                                                 budget.NextLimitName(), &text, &open_failed);
  if (open_failed) Fail("unable to open input file");
  if (!problem.empty()) Fail("unable to read input file " + name + ": " + problem);
  budget.Take(text.size());
  return text.substr(0, text.find('\0'));
}

std::string ReadStdin(frontend::SourceBudget& budget) {
  std::string text;
  std::string problem =
      frontend::ReadDescriptorWithin(0, budget.NextLimit(), budget.NextLimitName(), &text);
  if (!problem.empty()) Fail("unable to read stdin: " + problem);
  budget.Take(text.size());
  return text.substr(0, text.find('\0'));
}

// A top-level source of a compile of its own (no linking; the -c config file).
std::string ReadLoneSource(const CommandLine& line, const std::string& name) {
  frontend::SourceBudget budget(line.glslang.source_limits);
  return line.read_stdin ? ReadStdin(budget) : ReadSource(name, budget);
}

struct Run {
  CommandLine line;
  bool compile_failed = false;
  bool link_failed = false;
  bool output_failed = false;
  std::vector<std::string> output_files;
  RunReport report;  // for --report=html|sarif
};

// The name at the end of a .conf that no value follows, if glslang's decoder reaches it
// (it stops at the first value that is not a number): glslang 12 reads past the end of
// the text there and throws std::out_of_range, which aborts glslangValidator. Names and
// values are separated by glslang's delimiters.
std::optional<std::string> ConfNameWithoutValue(const std::string& text) {
  const char* delimiters = " \t\n\r";
  size_t at = 0;
  while ((at = text.find_first_not_of(delimiters, at)) != std::string::npos) {
    size_t name_end = text.find_first_of(delimiters, at);
    size_t value = text.find_first_not_of(delimiters, name_end);
    if (value == std::string::npos) return text.substr(at, name_end - at);
    if (text[value] != '-' && !std::isdigit(static_cast<unsigned char>(text[value])))
      return std::nullopt;  // glslang prints its own error and stops here
    at = text.find_first_of(delimiters, value);
  }
  return std::nullopt;
}

// Like glslangValidator: a .conf starts from nothing (glslang 12 decodes it into a
// zeroed TBuiltInResource), so a limit the file omits is 0 and a flag false, not the
// default; built-ins that no longer parse then fail with glslang's own messages.
void LoadResources(const CommandLine& line, TBuiltInResource* resources) {
  if (line.config_file.empty()) {
    *resources = *GetDefaultResources();
    return;
  }
  *resources = TBuiltInResource{};
  frontend::SourceBudget budget(line.glslang.source_limits);
  std::string config = ReadSource(line.config_file, budget);
  if (std::optional<std::string> name = ConfNameWithoutValue(config))
    Fail("bad .conf file " + line.config_file + ": its last name, '" + *name +
         "', is not followed by a number");
  DecodeResourceLimits(resources, config.data());
}

EShLanguage StageOf(const CommandLine& line, const std::string& file, bool* hlsl) {
  std::optional<EShLanguage> stage =
      line.stage_name ? StageFromName(*line.stage_name) : StageFromFileName(file, hlsl);
  if (!stage) Usage();
  return *stage;
}

// ---------------------------------------------------------------------------------
// Compile only (no -V/-G/-l/-E): glslang's per-file compile without linking.

// Folds what a compile (in a child or not, child_compiles.h) did into the run. A body
// that exit()ed (a usage error) ends the run with its code, as it would in-process.
// Returns the body's payload, or the line saying the compile did not finish.
std::string Settle(Run& run, const CompileOutcome& outcome, const std::string& names) {
  if (outcome.end == CompileOutcome::End::kExited) {
    std::fflush(stdout);
    std::exit(outcome.exit_code);
  }
  if (outcome.end != CompileOutcome::End::kFinished) {
    run.compile_failed = true;
    return UnfinishedLine(outcome, names, run.line.timeout_ms);
  }
  run.compile_failed |= outcome.flags.compile_failed;
  run.link_failed |= outcome.flags.link_failed;
  run.output_failed |= outcome.flags.output_failed;
  return outcome.payload;
}

// Runs `compile` once, or in memory-leak mode (-m) 100 x 100 times with glslang's
// memory report after each hundred, as glslangValidator does. Returns the last result.
template <typename Compile>
auto RepeatForMemoryLeakMode(const CommandLine& line, Compile compile) -> decltype(compile()) {
  if (!line.memory_leak_mode) return compile();
  decltype(compile()) result{};
  for (int hundreds = 0; hundreds < 100; ++hundreds) {
    for (int i = 0; i < 100; ++i) result = compile();
    glslang::OS_DumpMemoryCounters();
  }
  std::fflush(stdout);
  return result;
}

// glslangValidator keeps what a .hlsl suffix says in a process-wide setting: compiling
// without linking, every file after a .hlsl one is read as HLSL too.
bool HlslSoFar(const CommandLine& line, const std::string& name) {
  if (line.stage_name) return false;
  for (const std::string& file : line.files) {
    bool hlsl = false;
    StageFromFileName(file, &hlsl);
    if (hlsl) return true;
    if (file == name) return false;
  }
  return false;
}

// One file, compiled without linking: its info log.
std::string CompileOneWithoutLinking(const CommandLine& line, const std::string& name,
                                     CompileFlags& flags) {
  bool hlsl = false;
  EShLanguage stage = StageOf(line, name, &hlsl);
  std::string text = ReadLoneSource(line, name);
  if (line.defines_given) Fail("-D and -U options require -l (linking)\n");
  CommandLine with_hlsl = line;
  with_hlsl.glslang.hlsl |= hlsl || HlslSoFar(line, name);
  ShHandle compiler = ShConstructCompiler(stage, 0);
  const char* strings[] = {text.c_str()};
  auto compile = [&] {
    return ShCompile(compiler, strings, 1, nullptr, EShOptNone, &line.glslang.resources, 0,
                     line.glslang.default_version, false, MessagesFor(with_hlsl));
  };
  int ok = RepeatForMemoryLeakMode(line, compile);
  flags.compile_failed |= ok == 0;
  std::string log = line.suppress_info_log ? "" : ShGetInfoLog(compiler);
  ShDestruct(compiler);
  return log;
}

// The compiles' logs under their names. With --stdin, glslangValidator lists the
// files named on the command line, then "stdin", and shows the one compile (of stdin)
// under the first of them.
void PrintLogsWithoutLinking(const CommandLine& line, const std::vector<std::string>& results) {
  std::vector<std::string> names = line.files;
  std::vector<std::string> logs = results;
  if (line.read_stdin) {
    names.push_back("stdin");
    logs.resize(names.size());
  }
  for (size_t i = 0; i < names.size(); ++i) {
    if (names.size() > 1 || !logs[i].empty()) PutsIfNonEmpty(names[i]);
    PutsIfNonEmpty(logs[i]);
  }
}

// Each file is its own compile. Isolated, one worker process compiles them one after
// the other (a fresh one after a crash or time-out), or with -t one worker per core
// (child_compiles.h); glslang's built-in symbol tables are made once, before the
// workers fork. --no-isolate compiles them here, one after the other, -t or not.
void CompileWithoutLinking(Run& run) {
  const CommandLine& line = run.line;
  if (line.debug) Fail("cannot generate debug information unless linking to generate code");
  std::vector<std::string> names = line.read_stdin ? std::vector<std::string>{"stdin"} : line.files;
  std::vector<std::string> results;
  ShInitialize();
  // Not with a .conf: its limits may make the built-ins fail to parse, and glslang prints
  // that from each compile that tries to build them (a warm-up would print it once more).
  if (line.isolate && !line.read_stdin && names.size() > 1 && line.config_file.empty())
    WarmBuiltIns(line, names);
  BatchSettings settings;
  settings.isolate = line.isolate;
  settings.timeout_ms = line.timeout_ms;
  settings.memory_mb = line.max_memory_mb;
  settings.max_workers = line.multi_threaded ? UsableCores() : 1;
  std::vector<CompileOutcome> outcomes =
      RunCompiles(names.size(), settings, [&](size_t job, CompileFlags& flags) {
        return CompileOneWithoutLinking(line, names[job], flags);
      });
  for (size_t i = 0; i < outcomes.size(); ++i)
    results.push_back(Settle(run, outcomes[i], names[i]));
  PrintLogsWithoutLinking(line, results);
  // Isolated, the parent's built-in tables were shared copy-on-write with the workers:
  // tearing them down faults in every page again, for memory exit frees anyway.
  if (!line.isolate) ShFinalize();
}

// ---------------------------------------------------------------------------------
// Compile, link, generate SPIR-V, run Glint.

std::vector<frontend::SourceUnit> ReadUnits(CommandLine& line) {
  std::vector<frontend::SourceUnit> units;
  frontend::SourceBudget budget(line.glslang.source_limits);
  if (line.read_stdin) {
    units.push_back({"stdin", ReadStdin(budget), StageOf(line, "stdin", nullptr)});
    return units;
  }
  for (const std::string& file : line.files) {
    bool hlsl = false;
    EShLanguage stage = StageOf(line, file, &hlsl);
    line.glslang.hlsl |= hlsl;
    units.push_back({file, ReadSource(file, budget), stage});
  }
  return units;
}

// Glint's diagnostics keep quiet where glslang's log does: -s prints none (glslang's
// errors go too), --quiet no warnings or notes (it keeps glslang's errors). Unprinted,
// they still count: --uniformity=error still fails the compile.
bool PrintsDiagnostic(const CommandLine& line, const Diagnostic& diagnostic) {
  if (line.suppress_info_log) return false;
  return !line.quiet || diagnostic.severity == Severity::kError;
}

void PrintGlintReport(const CommandLine& line, const Report& report) {
  for (const Diagnostic& diagnostic : report.diagnostics)
    if (PrintsDiagnostic(line, diagnostic))
      std::printf("%s\n", FormatDiagnostic(diagnostic).c_str());
  if (line.dump_ranges) std::printf("%s", FormatRangeReport(report, line.dump_ranges_json).c_str());
}

// Writes the module like glslangValidator: file, then -H disassembly.
void WriteModule(Run& run, const std::string& file, const std::vector<uint32_t>& words) {
  const CommandLine& line = run.line;
  const char* variable = line.variable_name ? line.variable_name->c_str() : nullptr;
  std::string bytes = line.hex ? SpirvHexText(words, variable) : SpirvBinaryBytes(words);
  output::WriteResult written = WriteOutput(file, bytes);
  if (!written.ok()) {
    // glslang's line for a file it cannot open; Glint's own for a failed write.
    if (written.failure == output::WriteFailure::kOpen)
      std::printf("ERROR: Failed to open file: %s\n", file.c_str());
    else
      std::printf("ERROR: Failed to write file: %s: %s\n", file.c_str(), written.reason.c_str());
    run.output_failed = true;
    return;
  }
  run.output_files.push_back(file);
  if (!line.spirv_tools_disassemble && line.human_readable)
    spv::Disassemble(std::cout, std::vector<unsigned int>(words.begin(), words.end()));
  std::cout.flush();
}

// glslang's SPIR-V (glslang 12's alone with --no-glint, else followed by Glint).
frontend::GlintOutput Generate(const CommandLine& line, const glslang::TIntermediate& intermediate,
                               const glslang::SpvOptions& spv_options,
                               const std::string& source_name) {
  if (line.run_glint) {
    Options options = GlintOptionsFor(line, frontend::GlintTargetEnv(line.glslang));
    return frontend::GenerateWithGlint(intermediate, spv_options, options, source_name);
  }
  frontend::GlintOutput output;
  output.words = frontend::GenerateSpirv(intermediate, spv_options, &output.glslang_log);
  output.ok = true;
  return output;
}

// --spirv-val: SPIRV-Tools' findings join glslang's log. glslang 12 prints them and
// still writes the module (exit 0), and so does Glint when glslang's own module fails
// the same way; a module that only fails after Glint's passes is Glint's fault: an
// error, exit 2, nothing written. False when the stage must stop there.
bool ValidateStage(Run& run, const glslang::TIntermediate& intermediate,
                   const glslang::SpvOptions& spv_options, std::vector<uint32_t>& words,
                   std::string& log) {
  std::string findings;
  frontend::ValidateLikeGlslang(intermediate, spv_options, words, &findings);
  if (!findings.empty() && run.line.run_glint) {
    std::vector<uint32_t> glslang_words = frontend::GenerateSpirv(intermediate, spv_options, nullptr);
    std::string glslang_findings;
    frontend::ValidateLikeGlslang(intermediate, spv_options, glslang_words, &glslang_findings);
    if (glslang_findings.empty()) {
      std::printf("%s%sERROR: Glint's output fails spirv-val, glslang's own module passes; no "
                  "output written\n",
                  log.c_str(), findings.c_str());
      run.compile_failed = true;
      return false;
    }
  }
  log += findings;
  return true;
}

// One stage's output in glslangValidator's order: --spirv-dis text, glslang's log
// (with --spirv-val's findings), the file, -H text; then Glint's diagnostics and report.
void GenerateStage(Run& run, glslang::TIntermediate& intermediate, EShLanguage stage,
                   const std::string& source_name) {
  const CommandLine& line = run.line;
  glslang::SpvOptions spv_options = SpvOptionsFor(line);
  frontend::GlintOutput output = Generate(line, intermediate, spv_options, source_name);
  std::string& log = output.glslang_log;
  run.report.Add(output.report);
  if (!output.ok || output.report.HasErrors()) {
    std::printf("%s", log.c_str());
    PrintGlintReport(line, output.report);
    run.compile_failed = true;
    return;
  }
  if (line.spirv_tools_validate && !ValidateStage(run, intermediate, spv_options, output.words, log))
    return;
  if (line.spirv_tools_disassemble) std::cout << frontend::DisassembleLikeGlslang(output.words);
  std::cout.flush();
  if (line.memory_leak_mode) return;  // glslangValidator's -m prints and writes no more
  std::printf("%s", log.c_str());
  std::fflush(stdout);
  WriteModule(run, BinaryName(line, stage), output.words);
  std::fflush(stdout);
  PrintGlintReport(line, output.report);
}

// A file name as make reads it in a rule: a backslash before space, ':', '#', '[', ']'
// and a backslash, and '$' doubled (the characters glslangValidator's depfile escapes).
std::string MakeEscaped(const std::string& name) {
  std::string escaped;
  for (char c : name) {
    if (c != 0 && std::strchr(" :#[]\\", c)) escaped += '\\';
    if (c == '$') escaped += '$';
    escaped += c;
  }
  return escaped;
}

// "output: source included..." per output file, like glslangValidator's --depfile.
// glslang says nothing when the depfile cannot be written; Glint says so and exits 1.
void WriteDepfile(Run& run, const std::vector<std::string>& sources) {
  std::string text;
  for (const std::string& output : run.output_files) {
    text += MakeEscaped(output) + ":";
    for (const std::string& source : sources) text += " " + MakeEscaped(source);
    text += "\n";
  }
  output::WriteResult written = WriteOutput(*run.line.depfile, text);
  if (written.ok()) return;
  std::printf("ERROR: %s\n", output::DescribeFailure(*run.line.depfile, written).c_str());
  run.output_failed = true;
}

void PrintUnitLogs(const Run& run, const frontend::Compilation& compilation) {
  const CommandLine& line = run.line;
  for (size_t i = 0; i < compilation.units.size(); ++i) {
    const frontend::UnitLog& unit = compilation.units[i];
    if (!line.glslang.source_entry_point.empty() && line.glslang.entry_point.empty())
      std::printf(
          "Warning: Changing source entry point name without setting an entry-point name.\n"
          "Use '-e <name>'.\n");
    if (line.preprocess) {
      PutsIfNonEmpty(compilation.preprocessed[i]);
      StderrIfNonEmpty(unit.info_log);
      StderrIfNonEmpty(unit.debug_log);
      continue;
    }
    if (line.suppress_info_log || line.memory_leak_mode) continue;
    if (!line.quiet) PutsIfNonEmpty(unit.name);
    PutsIfNonEmpty(unit.info_log);
    PutsIfNonEmpty(unit.debug_log);
  }
}

// One compile, link and SPIR-V generation of `units`; `record_sources` adds them to the
// report (once, when memory-leak mode repeats this).
void CompileAndLinkUnits(Run& run, const std::vector<frontend::SourceUnit>& units,
                         bool record_sources) {
  const CommandLine& line = run.line;
  std::unique_ptr<frontend::Compilation> compilation =
      frontend::Compile(units, line.glslang, line.preprocess);
  if (record_sources) {
    for (const frontend::SourceUnit& unit : units) run.report.AddSource(unit.name, &unit.text);
    for (const std::string& included : compilation->included_files)
      run.report.AddSource(included, nullptr, line.glslang.source_limits.per_source);
  }
  run.compile_failed |= compilation->compile_failed;
  run.link_failed |= compilation->link_failed;
  PrintUnitLogs(run, *compilation);
  if (!line.preprocess && !line.suppress_info_log && !line.memory_leak_mode) {
    PutsIfNonEmpty(compilation->program_info_log);
    PutsIfNonEmpty(compilation->program_debug_log);
  }
  if (line.dump_reflection) {
    compilation->program().buildReflection(line.reflection_options);
    compilation->program().dumpReflection();
  }
  if (line.spirv) {
    if (run.compile_failed || run.link_failed) {
      std::printf("SPIR-V is not generated for failed compile or link\n");
    } else {
      for (int stage = 0; stage < EShLangCount; ++stage) {
        glslang::TIntermediate* intermediate =
            compilation->Intermediate(static_cast<EShLanguage>(stage));
        if (!intermediate) continue;
        std::string source_name = units.front().name;
        for (const frontend::SourceUnit& unit : units)
          if (unit.stage == stage) source_name = unit.name;
        GenerateStage(run, *intermediate, static_cast<EShLanguage>(stage), source_name);
      }
    }
  }
  if (line.depfile && !(run.compile_failed || run.link_failed)) {
    std::vector<std::string> sources;
    for (const frontend::SourceUnit& unit : units) sources.push_back(unit.name);
    sources.insert(sources.end(), compilation->included_files.begin(),
                   compilation->included_files.end());
    WriteDepfile(run, sources);
  }
}

void CompileAndLink(Run& run) {
  frontend::ScopedGlslangProcess process;
  CommandLine& line = run.line;
  std::vector<frontend::SourceUnit> units = ReadUnits(line);
  FinishGlslangSettings(line);
  bool first = true;
  RepeatForMemoryLeakMode(line, [&] {
    CompileAndLinkUnits(run, units, first);
    first = false;
    return 0;
  });
}

// The linked program is one compile (one child when isolated); the report files
// (--report) are written by it, as they describe it.
void CompileAndLinkIsolated(Run& run, int argc, char** argv) {
  const CommandLine& line = run.line;
  std::string names = "stdin";
  if (!line.read_stdin) {
    names.clear();
    for (const std::string& file : line.files) names += (names.empty() ? "" : ", ") + file;
  }
  CompileOutcome outcome = RunCompile(
      line.isolate, line.timeout_ms,
      [&](CompileFlags& flags) {
        CompileAndLink(run);
        if (!WriteReportFiles(run.line, argc, argv, run.report)) run.output_failed = true;
        flags = {run.compile_failed, run.link_failed, run.output_failed};
        return std::string();
      },
      line.max_memory_mb);
  std::string unfinished = Settle(run, outcome, names);
  if (outcome.end != CompileOutcome::End::kFinished) std::printf("%s\n", unfinished.c_str());
}

// ---------------------------------------------------------------------------------
// .spv inputs: Glint's passes only.

// Refuses a module over the IR's size limit (spirv::kMaxModuleWords) from the file's
// size, before reading it; what is not a regular file (a device, a FIFO) is refused as
// an unreadable include is, and no read goes past the limit and one more byte.
bool ReadSpirv(const std::string& name, std::vector<uint32_t>* words) {
  struct stat status {};
  if (stat(name.c_str(), &status) == 0 && S_ISREG(status.st_mode)) {
    std::string too_big = spirv::CheckModuleSize(static_cast<uint64_t>(status.st_size) / 4);
    if (!too_big.empty()) {
      std::printf("ERROR: %s: %s\n", name.c_str(), too_big.c_str());
      return false;
    }
  }
  std::string bytes;
  bool open_failed = false;
  std::string problem = frontend::ReadFileWithin(
      name, spirv::kMaxModuleWords * 4, frontend::FileKinds::kRegularOnly,
      "Glint's input limit kMaxModuleWords (32 MiB)", &bytes, &open_failed);
  if (open_failed) Fail("unable to open input file");
  if (!problem.empty()) {
    std::printf("ERROR: %s: cannot read the module: %s\n", name.c_str(), problem.c_str());
    return false;
  }
  if (bytes.empty() || bytes.size() % 4 != 0) {
    std::printf("ERROR: %s: malformed SPIR-V: %zu bytes is not a whole number of words\n",
                name.c_str(), bytes.size());
    return false;
  }
  words->resize(bytes.size() / 4);
  std::memcpy(words->data(), bytes.data(), bytes.size());
  return true;
}

TargetEnv SpirvInputEnv(const CommandLine& line) {
  if (line.glslang.client == glslang::EShClientNone) return TargetEnv::kUniversal;
  return frontend::GlintTargetEnv(line.glslang);
}

// The time limit of a .spv input's job: --timeout-ms, else kSpirvInputTimeoutMs when
// isolated (a module of unknown origin may make validation or a pass run for minutes).
uint32_t SpirvTimeoutMs(const CommandLine& line) {
  if (line.timeout_ms) return line.timeout_ms;
  return line.isolate ? kSpirvInputTimeoutMs : 0;
}

// The .spv job, run in a child when isolated: Glint's passes (Process validates the
// input first) and, under --spirv-val, the output's validation. Its payload: the
// validator's finding, then the result as a worker::Response (words only on success).
std::string RunSpirvJob(const CommandLine& line, TargetEnv env, std::vector<uint32_t> words) {
  worker::Response response;
  response.succeeded =
      !line.run_glint || (Process(words, GlintOptionsFor(line, env), &response.report) &&
                          !response.report.HasErrors());
  std::string validation;
  if (response.succeeded && line.spirv_tools_validate)
    validation = spirv::Validate(words, env);
  if (response.succeeded) response.words = std::move(words);
  wire::Writer out;
  out.String(validation);
  out.String(worker::EncodeResponse(response));
  return out.bytes();
}

// The line for a .spv job that did not finish: the time limit by name (the default's
// too), a crash by signal (in Glint: glslang does not run on a .spv input).
std::string SpirvUnfinishedLine(const CompileOutcome& outcome, const CommandLine& line,
                                const std::string& name) {
  if (outcome.end == CompileOutcome::End::kTimedOut && !line.timeout_ms)
    return "ERROR: " + name + ": processing exceeded the time limit for .spv inputs, " +
           std::to_string(kSpirvInputTimeoutMs) +
           " ms by default (--timeout-ms sets another); no output written";
  if (outcome.end == CompileOutcome::End::kCrashed)
    return "ERROR: " + name + ": internal error (signal " + SignalName(outcome.signal) +
           ") while processing the module; no output written";
  return UnfinishedLine(outcome, name, line.timeout_ms);
}

void ProcessSpirvFile(Run& run, const std::string& name) {
  const CommandLine& line = run.line;
  if (!line.quiet) std::printf("%s\n", name.c_str());
  std::vector<uint32_t> words;
  if (!ReadSpirv(name, &words)) return void(run.compile_failed = true);
  for (ReportSource& source : SourcesFromSpirv(words))
    run.report.AddSource(source.name, &source.text);
  run.report.has_line_information &= ModuleHasLineInformation(words);
  TargetEnv env = SpirvInputEnv(line);
  std::fflush(stdout);
  CompileOutcome outcome = RunCompile(
      line.isolate, SpirvTimeoutMs(line),
      [&](CompileFlags&) { return RunSpirvJob(line, env, words); }, line.max_memory_mb);
  if (outcome.end != CompileOutcome::End::kFinished) {
    std::printf("%s\n", SpirvUnfinishedLine(outcome, line, name).c_str());
    return void(run.compile_failed = true);
  }
  worker::Response response;
  std::string problem, encoded;
  wire::Reader in(outcome.payload);
  if (!in.String(&problem) || !in.String(&encoded) || !in.Done() ||
      !worker::DecodeResponse(encoded, &response)) {
    std::printf(
        "ERROR: %s: internal error: the result of processing did not decode; no "
        "output written\n",
        name.c_str());
    return void(run.compile_failed = true);
  }
  Report& report = response.report;
  words = std::move(response.words);
  if (!response.succeeded) {
    for (Diagnostic diagnostic : report.diagnostics) {
      if (diagnostic.location.file.empty() && diagnostic.location.line == 0)
        diagnostic.message = name + ": " + diagnostic.message;
      std::printf("%s\n", FormatDiagnostic(diagnostic).c_str());
    }
    run.report.Add(report);
    return void(run.compile_failed = true);
  }
  run.report.Add(report);
  // --spirv-val on a .spv input (Glint's own path, no glslang to match): invalid output
  // for the target is an error, and nothing is written.
  if (!problem.empty()) {
    std::printf("error: SPIRV-Tools Validation Errors\nerror: %s\n", problem.c_str());
    std::printf("ERROR: %s: the output fails spirv-val; no output written\n", name.c_str());
    return void(run.compile_failed = true);
  }
  if (line.spirv_tools_disassemble) std::cout << frontend::DisassembleLikeGlslang(words);
  std::cout.flush();
  WriteModule(run, SpirvOutputName(line, name), words);
  PrintGlintReport(line, report);
}

void ProcessSpirvInputs(Run& run) {
  if (run.line.timeout_ms && !run.line.isolate)
    Fail("--timeout-ms needs isolation (drop --no-isolate)");
  for (const std::string& file : run.line.files) {
    if (!IsSpirvFile(file)) Fail("cannot mix .spv inputs with shader sources: " + file);
    if (run.line.binary_file && run.line.files.size() > 1)
      Fail("-o names one output but several .spv inputs were given");
  }
  for (const std::string& file : run.line.files) ProcessSpirvFile(run, file);
}

// ---------------------------------------------------------------------------------

void PrintVersions(bool bare) {
  glslang::Version version = glslang::GetVersion();
  std::printf("%s%d:%d.%d.%d%s\n",
              bare ? "" : "Glslang Version: ", glslang::GetSpirvGeneratorVersion(), version.major,
              version.minor, version.patch, version.flavor);
  if (bare) return;
  std::string spirv_version;
  glslang::GetSpirvVersion(spirv_version);
  std::printf("ESSL Version: %s\n", glslang::GetEsslVersionString());
  std::printf("GLSL Version: %s\n", glslang::GetGlslVersionString());
  std::printf("SPIR-V Version %s\n", spirv_version.c_str());
  std::printf("GLSL.std.450 Version %d, Revision %d\n", GLSLstd450Version, GLSLstd450Revision);
  std::printf("Khronos Tool ID %d\n", glslang::GetKhronosToolId());
  std::printf("SPIR-V Generator Version %d\n", glslang::GetSpirvGeneratorVersion());
  std::printf("GL_KHR_vulkan_glsl version %d\n", 100);
  std::printf("ARB_GL_gl_spirv version %d\n", 100);
}

CommandLine ParseOrExit(int argc, char** argv) {
  try {
    return ParseCommandLine(argc, argv);
  } catch (const ShowUsage& usage) {
    std::fputs(usage.preamble.c_str(), stdout);
    Usage();
  } catch (const CommandLineError& error) {
    if (!error.bare) Fail(error.what());
    std::printf("%s\n", error.what());
    std::exit(kFailUsage);
  }
}

int Main(int argc, char** argv) {
  if (argc > 0) g_executable = argv[0];
  Run run;
  run.line = ParseOrExit(argc, argv);
  CommandLine& line = run.line;
  if (line.dump_config) {
    std::printf("%s", GetDefaultTBuiltInResourceString().c_str());
    if (line.files.empty() && !line.read_stdin) return kSuccess;
  }
  if (line.print_bare_version || line.print_versions) {
    PrintVersions(line.print_bare_version);
    if (line.files.empty() && !line.read_stdin) return kSuccess;
  }
  if (line.files.empty() && !line.read_stdin) Usage();
  std::string clash = OutputPathClash(line);
  if (!clash.empty()) Fail(clash + "; nothing written");
  if (!line.read_stdin && IsSpirvFile(line.files.front())) {
    ProcessSpirvInputs(run);
  } else {
    LoadResources(line, &line.glslang.resources);
    if (line.glslang.hlsl && !(line.preprocess || line.spirv))
      Fail("HLSL requires SPIR-V code generation (or preprocessing only)");
    if (line.timeout_ms && !line.isolate) Fail("--timeout-ms needs isolation (drop --no-isolate)");
    if (line.link || line.preprocess)
      CompileAndLinkIsolated(run, argc, argv);  // writes the reports
    else
      CompileWithoutLinking(run);
  }
  bool reports_written =
      !line.read_stdin && IsSpirvFile(line.files.front()) ? false : line.link || line.preprocess;
  if (!reports_written && !WriteReportFiles(line, argc, argv, run.report)) run.output_failed = true;
  std::fflush(stdout);
  if (run.compile_failed) return kFailCompile;
  if (run.link_failed) return kFailLink;
  if (run.output_failed) return kFailUsage;
  return kSuccess;
}

}  // namespace
}  // namespace glint::standalone

int main(int argc, char** argv) { return glint::standalone::Main(argc, argv); }
