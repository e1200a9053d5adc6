// glslc: shaderc 2023.2's command line over Glint (options.h, compile.h, outputs.h).
// Every input is compiled in command-line order, all of them even when one fails; each
// input's output is written before its messages; the summary line comes last; the exit
// code is 0 only when every input succeeded.
#include <iostream>
#include <string>
#include <vector>

#include "compile.h"
#include "input_files.h"
#include "glslang/front_end/front_end.h"
#include "messages.h"
#include "options.h"
#include "outputs.h"

int main(int argc, char** argv) {
  using namespace glint::glslc;
  std::vector<std::string> args(argv + 1, argv + argc);
  GlslcOptions options;
  ParseOutcome parsed = ParseCommandLine(args, &options);
  std::cout << parsed.out;
  std::cerr << parsed.err;
  if (!parsed.proceed) return parsed.exit_code;

  glint::frontend::ScopedGlslangProcess glslang_process;
  MessageCounts counts;
  bool all_ok = true;
  for (const InputFile& input : options.inputs) {
    CompileResult result = CompileInput(input, options, &counts);
    std::string error;
    if (result.ok && result.has_output) {
      std::string bytes;
      if (options.dependencies == DependencyMode::kAsOutput) {
        bytes = DependencyRule(DependencyTarget(input, options), DisplayName(input.path), result.included);
      } else if (options.output_type == OutputType::kBinary) {
        bytes = FormatBinary(result.words, options.format.value_or(BinaryFormat::kBinary));
      } else {
        bytes = result.text;
      }
      if (!WriteOutput(OutputName(input, options), bytes, &error)) result.ok = false;
    }
    std::cerr << error << result.messages;
    if (options.dependencies == DependencyMode::kBesideOutput && result.writes_dependency_rule) {
      std::string dependency_error;
      if (!WriteOutput(DependencyFile(input, options),
                       DependencyRule(DependencyTarget(input, options), DisplayName(input.path),
                                      result.included),
                       &dependency_error)) {
        std::cerr << dependency_error;
        result.ok = false;
      }
    }
    all_ok &= result.ok;
  }
  std::cerr << SummaryLine(counts);
  return all_ok ? 0 : 1;
}
