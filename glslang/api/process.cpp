// glint::Process and glint::GlslangToSpv, the two entry points of the public API.
//
// Both follow one contract (see glint.h): parse, run Glint's passes in pipeline order
// (RunPipeline; Options::passes may choose them), emit, optionally validate; the caller's vector
// changes only when all of that succeeded. The caller's report receives the diagnostics of every
// run, but access records and pass statistics only from a run that succeeded, so a
// report never describes a module the caller did not get. GlslangToSpv also names
// source lines in the report when the module has none (see GlslangOutsideLines). No exception
// leaves these functions: std::exception (std::bad_alloc included) becomes an error
// diagnostic.
#include <algorithm>
#include <iterator>
#include <memory>
#include <optional>

#include <glslang/Include/PoolAlloc.h>
#include <glslang/Public/ShaderLang.h>
#include <glslang/SPIRV/GlslangToSpv.h>
#include <glslang/SPIRV/Logger.h>

#include "SPIRV/ir/outside_lines.h"
#include "SPIRV/ir/parser.h"
#include "SPIRV/passes/pipeline.h"
#include "SPIRV/validate.h"
#include "glint/glint.h"
#include "glint/report_format.h"
#include "glslang/api/exception_text.h"
#include "glslang/api/validation_target.h"
#include "glslang/front_end/big_stack.h"
#include "glslang/front_end/debug_scope_guard.h"
#include "glslang/front_end/glslang_log.h"
#include "glslang/front_end/glslang_process.h"
#include "glslang/front_end/lines_forecast.h"

namespace glint {

bool Report::HasErrors() const {
  for (const Diagnostic& d : diagnostics)
    if (d.severity == Severity::kError) return true;
  return false;
}

namespace {

// Appends everything `from` holds to `into`, in order.
template <class T>
void AppendAll(std::vector<T>&& from, std::vector<T>& into) {
  into.insert(into.end(), std::make_move_iterator(from.begin()), std::make_move_iterator(from.end()));
}

void AppendReport(Report&& from, Report& into) {
  AppendAll(std::move(from.diagnostics), into.diagnostics);
  AppendAll(std::move(from.suppressed), into.suppressed);
  AppendAll(std::move(from.accesses), into.accesses);
  AppendAll(std::move(from.passes), into.passes);
  AppendAll(std::move(from.tables), into.tables);
}

// Records a diagnostic. Must not throw: it also runs inside the exception handlers.
void Record(Report* report, Severity severity, const char* origin,
            const std::string& message) noexcept {
  if (!report) return;
  try {
    Diagnostic diagnostic;
    diagnostic.severity = severity;
    diagnostic.origin = origin;
    diagnostic.message = message;
    report->diagnostics.push_back(std::move(diagnostic));
  } catch (...) {
    // Out of memory while reporting: an error's false return still tells the caller.
  }
}

// Records an error and returns false.
bool Fail(Report* report, const char* origin, const std::string& message) noexcept {
  Record(report, Severity::kError, origin, message);
  return false;
}

// Moves what a successful run found into the caller's report.
void MergeSucceeded(Report& from, Report* into) {
  if (!into) return;
  for (Diagnostic& d : from.diagnostics) into->diagnostics.push_back(std::move(d));
  for (AccessRecord& a : from.accesses) into->accesses.push_back(std::move(a));
  for (PassStatistic& p : from.passes) into->passes.push_back(std::move(p));
  for (TableRecord& t : from.tables) into->tables.push_back(std::move(t));
  for (SuppressedDiagnostic& d : from.suppressed) into->suppressed.push_back(std::move(d));
}

// A failed run keeps only its diagnostics: its records describe a discarded module.
void MergeFailed(Report& from, Report* into) {
  if (!into) return;
  for (Diagnostic& d : from.diagnostics) into->diagnostics.push_back(std::move(d));
  for (SuppressedDiagnostic& d : from.suppressed) into->suppressed.push_back(std::move(d));
}

// Where the module came from: glslang's intermediate and code generation options
// (GlslangToSpv), or nothing (Process). Decides the validation target.
struct Origin {
  const glslang::TIntermediate* intermediate = nullptr;
  const glslang::SpvOptions* spv_options = nullptr;
};

// Options::validate: spirv-val for the target and rules validation_target.h resolves.
bool ValidateOutput(const std::vector<uint32_t>& output, const Options& options,
                    const Origin& origin, Report& report) {
  ValidationTarget target =
      ValidationTargetFor(options, origin.intermediate, origin.spv_options, output);
  std::string problem = spirv::Validate(output, target.env, target.rules);
  return problem.empty() || Fail(&report, "spirv-val", problem);
}

// Whether every pass the options ask for only improves the module or warns (the
// defaults: hoisting constant tables, uniformity warnings), so that writing the module
// as it came keeps every promise. Robust access, specialization, a requested range
// report or an explicit pass list are promises that only the passes can keep.
bool OnlyOptionalPasses(const Options& options) {
  return !options.robust_access && !options.collect_ranges && options.spec_constants.empty() &&
         options.passes.empty();
}

// glslang 12 writes a few modules that are not SPIR-V (an instruction of over 65,535
// words, whose word count wraps: under -gVS an OpString of a long source text, or an
// OpConstantComposite of a huge constant array), and Debian's glslangValidator writes
// them and exits 0. Where
// the options promise nothing the passes alone can keep, Glint writes the same bytes,
// so a drop-in build behaves as before, and says in one warning that its passes did not
// run and why; otherwise that is an error.
bool PassThroughUnreadable(const std::vector<uint32_t>& input, const Options& options,
                           const std::string& error, Report& report,
                           std::vector<uint32_t>& output) {
  if (!OnlyOptionalPasses(options))
    return Fail(&report, "parse", "malformed SPIR-V from glslang: " + error);
  Record(&report, Severity::kWarning, "parse",
         "glslang wrote a module that is not valid SPIR-V (" + error +
             "); it is written as glslang made it and Glint's passes did not run");
  output = input;
  return true;
}

// "" when the parser's input limits (words, instructions) let `input` through, else
// which limit it is over: such a module may be valid SPIR-V, and is never called
// malformed for its size. A malformed word count ends the count (the parser says why).
std::string InputLimitProblem(const std::vector<uint32_t>& input) {
  std::string too_large = spirv::CheckModuleSize(input.size());
  if (!too_large.empty()) return too_large;
  size_t instructions = 0;
  for (size_t at = 5; at < input.size(); ++instructions) {
    uint32_t count = input[at] >> 16;
    if (count == 0) break;
    if (instructions >= spirv::kMaxInstructions)
      return "the module has more than " + std::to_string(spirv::kMaxInstructions) +
             " instructions (Glint's input limit kMaxInstructions)";
    at += count;
  }
  return "";
}

// Whether the parser's input limits let `input` through and every instruction's word
// count is sane: what the parser refuses cheaply is never validated first (spirv-val's
// time grows faster than linearly on some modules).
bool WithinParserLimits(const std::vector<uint32_t>& input) {
  if (input.size() < 5 || !InputLimitProblem(input).empty()) return false;
  for (size_t at = 5; at < input.size();) {
    uint32_t count = input[at] >> 16;
    if (count == 0) return false;
    at += count;
  }
  return true;
}

// A module over the input limits: glslang's own output is written as it came where
// the options promise nothing only the passes keep (as an unreadable one is); any
// other is an error that names the limit, never "malformed".
bool OverInputLimit(const std::vector<uint32_t>& input, const Options& options, bool check_input,
                    const std::string& too_large, Report& report, std::vector<uint32_t>& output) {
  if (check_input)
    return Fail(&report, "parse", "the module is over Glint's input limit: " + too_large);
  if (!OnlyOptionalPasses(options))
    return Fail(&report, "parse",
                "glslang wrote a module over Glint's input limit (" + too_large +
                    "); Glint's passes cannot run on it");
  Record(&report, Severity::kWarning, "parse",
         "glslang wrote a module over Glint's input limit (" + too_large +
             "); it is written as glslang made it and Glint's passes did not run");
  output = input;
  return true;
}

// Parses, runs the pipeline and emits into `output`. `check_input` runs spirv-val's
// core rules (universal environment of the module's own version) first, so passes
// never see a module that merely parses; glslang's own output skips it. `spent_input`
// is `input` itself where the caller has no further use for it: a module no pass
// changed is then moved into `output`, not copied (a copy of every word, as much as a
// tenth of a large shader's parse).
bool RunPasses(const std::vector<uint32_t>& input, const Options& options, bool check_input,
               const Origin& origin, Report& report, std::vector<uint32_t>& output,
               std::shared_ptr<spirv::OutsideLinesSource> outside_lines = nullptr,
               std::optional<spirv::Module> parsed = std::nullopt,
               std::vector<uint32_t>* spent_input = nullptr) {
  std::string error;
  // The input is checked before Glint's IR is built, so the validator's memory and the
  // IR's are never held at once (the peak is the larger, not the sum); a module that
  // fails it is parsed afterwards only to say which of the two it fails. One over the
  // parser's size limit is refused by the parser at once, never validated.
  std::string too_large = InputLimitProblem(input);
  if (!too_large.empty()) {
    if (!OverInputLimit(input, options, check_input, too_large, report, output)) return false;
    return !options.validate || ValidateOutput(output, options, origin, report);
  }
  bool validate = check_input && WithinParserLimits(input);
  std::string problem = validate ? spirv::Validate(input, spirv::TargetEnv::kUniversal) : "";
  // `parsed` is `input` already parsed (the stripping parse: GenerateStripped).
  std::optional<spirv::Module> module =
      parsed ? std::move(parsed) : spirv::ParseModule(input, &error);
  if (!module && !check_input) {
    if (!PassThroughUnreadable(input, options, error, report, output)) return false;
    return !options.validate || ValidateOutput(output, options, origin, report);
  }
  if (!module) return Fail(&report, "parse", "malformed SPIR-V: " + error);
  if (!problem.empty()) return Fail(&report, "spirv-val", "invalid SPIR-V input: " + problem);
  module->outside_lines = std::move(outside_lines);
  // The passes report into a report of their own, appended to the caller's after.
  Report found;
  spirv::PassContext context{options, &found};
  spirv::PassResult result = spirv::RunPipeline(*module, context);
  AppendReport(std::move(found), report);
  if (result.status == spirv::PassStatus::kFailed) return Fail(&report, "glint", result.message);
  if (result.status == spirv::PassStatus::kChanged)
    output = module->Encode();
  else if (spent_input == &input)
    output = std::move(*spent_input);
  else
    output = input;
  // Specialization writes the user's values into the module, and a value may make it
  // invalid in ways no pass checks by name: such output is always validated.
  bool validate_output = options.validate || !options.spec_constants.empty();
  if (validate_output && !ValidateOutput(output, options, origin, report)) return false;
  return !report.HasErrors();
}

// The shared body of both entry points: runs into scratch state, then commits the
// output to `spirv` and the findings to `report` only as the contract allows.
bool ProcessInto(const std::vector<uint32_t>& input, std::vector<uint32_t>& spirv,
                 const Options& options, bool check_input, Report* report) {
  Report scratch;
  std::vector<uint32_t> output;
  if (!RunPasses(input, options, check_input, Origin{}, scratch, output)) {
    MergeFailed(scratch, report);
    return false;
  }
  MergeSucceeded(scratch, report);
  spirv.swap(output);
  return true;
}

// glslang's GlslangToSpv allocates from the calling thread's pool allocator, which
// glslang 12 only installs while parsing or linking on that thread; a thread that
// never parsed has none (a null dereference), and one whose last TProgram is gone has
// a dangling one. This gives the call a pool of its own and restores the previous
// pointer (never dereferenced) afterwards, so any thread may call GlslangToSpv.
//
// In libglint.so glslang is Glint's own hidden copy, which the embedder's
// glslang::InitializeProcess never reached, and that copy keeps the thread's pool in a
// thread-local slot that only its InitializeProcess creates. So the first call
// takes the library's reference on glslang's process state (glslang_process.h; where the
// copy is the embedder's own, with static linking, the extra reference is harmless).
class ScopedThreadPool {
 public:
  ScopedThreadPool() : previous_(&InitializedPool()) { glslang::SetThreadPoolAllocator(&pool_); }
  ~ScopedThreadPool() { glslang::SetThreadPoolAllocator(previous_); }
  ScopedThreadPool(const ScopedThreadPool&) = delete;
  ScopedThreadPool& operator=(const ScopedThreadPool&) = delete;

 private:
  static glslang::TPoolAllocator& InitializedPool() {
    AcquireGlslangProcess();
    return glslang::GetThreadPoolAllocator();
  }

  glslang::TPoolAllocator pool_;
  glslang::TPoolAllocator* previous_;
};

// glslang's code generation into `words`; false (with a diagnostic) when it fails.
bool GenerateWithGlslang(const glslang::TIntermediate& intermediate,
                         const glslang::SpvOptions* spv_options, Report& report,
                         std::vector<uint32_t>& words) {
  glslang::SpvOptions copied = spv_options ? *spv_options : glslang::SpvOptions();
  spv::SpvBuildLogger logger;
  // GlslangToSpv recurses once per nesting level of the AST: run it on a big stack.
  RunOnBigStack([&] {
    ScopedThreadPool pool;
    frontend::GuardedGlslangToSpv(intermediate, words, &logger, &copied);
  });
  frontend::AppendGlslangLog(logger.getAllMessages(), &report.diagnostics);
  if (words.empty()) return Fail(&report, "glslang", "glslang produced no SPIR-V");
  return !report.HasErrors();
}

// Lines for a module glslang generated without them (SPIRV/ir/outside_lines.h): when a
// finding first asks for a line, glslang generates the module again with OpLine and the
// two are aligned. The module analysed and written stays the one without lines, so the
// output never changes because something was said; a compile that reports nothing pays
// nothing, one that does pays a second code generation (not a second pipeline run).
class GlslangOutsideLines : public spirv::OutsideLinesSource {
 public:
  GlslangOutsideLines(const glslang::TIntermediate& intermediate,
                      const glslang::SpvOptions* spv_options, const std::vector<uint32_t>& plain)
      : intermediate_(intermediate),
        options_(spv_options ? *spv_options : glslang::SpvOptions()),
        plain_(plain) {}

 protected:
  std::optional<spirv::OutsideLines> Make() override {
    glslang::SpvOptions with_lines = options_;
    with_lines.generateDebugInfo = true;
    with_lines.stripDebugInfo = false;
    with_lines.validate = false;
    with_lines.disassemble = false;
    Report repeated_log;  // glslang's messages, already reported by the first generation
    std::vector<uint32_t> located;
    // Findings that cannot be located stay unlocated (never guessed), and the compile
    // goes on: a failure here (glslang's, the alignment's, memory) is not the module's.
    try {
      if (!GenerateWithGlslang(intermediate_, &with_lines, repeated_log, located))
        return std::nullopt;
      std::string unaligned;
      return spirv::AlignOutsideLines(plain_, located, &unaligned);
    } catch (const std::exception&) {
      return std::nullopt;
    }
  }

 private:
  const glslang::TIntermediate& intermediate_;
  const glslang::SpvOptions options_;
  const std::vector<uint32_t>& plain_;  // outlives the pipeline run (GlslangToSpv's words)
};

// Uniformity filters that name source lines need the findings' lines to decide what is
// reported, silenced, and whether the compile fails (--uniformity=error), even when the
// caller takes no report.
bool UniformityNeedsLines(const Options& options) {
  return options.uniformity != Severity::kOff &&
         std::any_of(options.uniformity_filters.begin(), options.uniformity_filters.end(),
                     [](const UniformityFilter& filter) { return !filter.file.empty(); });
}

// Whether the compile reports something at a source line whatever the shader: robust
// access and the range report record every access with its line.
bool ReportsSurely(const Options& options) {
  return options.robust_access || options.collect_ranges;
}

// Whether a pass that reports at source lines runs (the uniformity check, constant
// tables) and is likely to report (front_end/lines_forecast.h): then the compile
// generates with lines first, as a compile that surely reports does, instead of
// generating again when the first finding asks for its line. Either way the module and
// the report are the same; a wrong forecast costs instructions only.
bool ReportsLikely(const glslang::TIntermediate& intermediate, const Options& options) {
  const std::vector<std::string> pipeline = spirv::PipelineFor(options);
  auto runs = [&](const char* pass) {
    return std::find(pipeline.begin(), pipeline.end(), pass) != pipeline.end();
  };
  LinesForecastPasses passes;
  passes.uniformity = options.uniformity != Severity::kOff && runs("uniformity");
  passes.constant_tables = runs("hoist-constant-tables");
  return LinesLikelyAsked(intermediate, passes);
}

// Whether glslang's module without lines is exactly the one with lines stripped
// (spirv::ParseModuleStrippingLines): GLSL (HLSL goes through glslang's optimizer, which may
// treat lines differently), no debug information asked for, nothing glslang does to the
// module after generating it (stripping, optimizing, validating, printing).
bool StripsExactly(const glslang::TIntermediate& intermediate,
                   const glslang::SpvOptions* spv_options) {
  if (intermediate.getSource() != glslang::EShSourceGlsl) return false;
  if (!spv_options) return true;
  return !spv_options->generateDebugInfo && !spv_options->stripDebugInfo &&
         !spv_options->emitNonSemanticShaderDebugInfo && !spv_options->optimizeSize &&
         !spv_options->validate && !spv_options->disassemble;
}

// For a compile that will surely, or likely, ask for lines: glslang generates the module once, with
// lines, and they are stripped into a table (outside_lines.h), instead of generating it
// a second time when the first line is asked. Leaves `words` empty when glslang or the
// strip refuses; the caller then generates without lines.
void GenerateStripped(const glslang::TIntermediate& intermediate,
                      const glslang::SpvOptions* spv_options, Report& findings,
                      std::vector<uint32_t>& words, std::optional<spirv::Module>& module,
                      std::shared_ptr<spirv::OutsideLinesSource>& lines) {
  glslang::SpvOptions with_lines = spv_options ? *spv_options : glslang::SpvOptions();
  with_lines.generateDebugInfo = true;
  std::vector<uint32_t> located;
  if (!GenerateWithGlslang(intermediate, &with_lines, findings, located)) return;
  // One walk strips, renumbers and parses: the pipeline gets the module already built.
  std::string refused;
  std::optional<spirv::StrippedParse> stripped =
      spirv::ParseModuleStrippingLines(located, &refused);
  if (!stripped) return;
  words = std::move(stripped->words);
  module = std::move(stripped->module);
  lines = std::make_shared<spirv::MadeOutsideLines>(std::move(stripped->lines));
}

}  // namespace

bool Process(std::vector<uint32_t>& spirv, const Options& options, Report* report) {
  try {
    return ProcessInto(spirv, spirv, options, /*check_input=*/true, report);
  } catch (const std::exception& e) {
    return Fail(report, "glint", capi::ExceptionText(e));
  } catch (...) {
    return Fail(report, "glint", "internal error: unknown exception");
  }
}

bool GlslangToSpv(const glslang::TIntermediate& intermediate, std::vector<uint32_t>& spirv,
                  const glslang::SpvOptions* spv_options, const Options& options, Report* report) {
  try {
    Report findings;  // glslang's log, then what the passes say
    std::vector<uint32_t> words, output;
    std::shared_ptr<spirv::OutsideLinesSource> lines;
    std::optional<spirv::Module> parsed;
    if (report && StripsExactly(intermediate, spv_options) &&
        (ReportsSurely(options) || ReportsLikely(intermediate, options)))
      GenerateStripped(intermediate, spv_options, findings, words, parsed, lines);
    if (words.empty()) {
      findings = Report();
      if (!GenerateWithGlslang(intermediate, spv_options, findings, words)) {
        MergeFailed(findings, report);
        return false;
      }
      if ((report || UniformityNeedsLines(options)) && !ModuleHasLineInformation(words))
        lines = std::make_shared<GlslangOutsideLines>(intermediate, spv_options, words);
    }
    if (!RunPasses(words, options, /*check_input=*/false, Origin{&intermediate, spv_options},
                   findings, output, std::move(lines), std::move(parsed), &words)) {
      MergeFailed(findings, report);
      return false;
    }
    MergeSucceeded(findings, report);
    spirv.swap(output);
    return true;
  } catch (const std::exception& e) {
    return Fail(report, "glint", capi::ExceptionText(e));
  } catch (...) {
    return Fail(report, "glint", "internal error: unknown exception");
  }
}

std::string FormatDiagnostic(const Diagnostic& diagnostic) {
  static const char* const kLabels[] = {"", "NOTE", "WARNING", "ERROR"};
  const std::string& file = diagnostic.location.file;
  // Sized once and appended in place: a warning of many reasons is formatted for every
  // compile that reports it.
  size_t size = 24 + file.size() + diagnostic.message.size();
  for (const std::string& reason : diagnostic.reasons) size += 5 + reason.size();
  std::string text;
  text.reserve(size);
  text += kLabels[static_cast<int>(diagnostic.severity)];
  text += ": ";
  if (!file.empty() || diagnostic.location.line) {
    // An unnamed source is string 0, as glslang prints its own messages ("0:71: ").
    if (file.empty())
      text += '0';
    else
      text += file;
    text += ':';
    text += std::to_string(diagnostic.location.line);
    text += ": ";
  }
  text += diagnostic.message;
  for (const std::string& reason : diagnostic.reasons) {
    text += "\n    ";
    text += reason;
  }
  return text;
}

}  // namespace glint
