#include "output_paths.h"

#include <sys/stat.h>

#include <filesystem>
#include <optional>
#include <system_error>
#include <vector>

namespace glint::standalone {

bool IsSpirvFile(const std::string& name) {
  return name.size() > 4 && name.compare(name.size() - 4, 4, ".spv") == 0;
}

std::string BinaryName(const CommandLine& line, EShLanguage stage) {
  if (line.binary_file) return *line.binary_file;
  return std::string(StageName(stage)) + ".spv";
}

std::string SpirvOutputName(const CommandLine& line, const std::string& input) {
  if (line.binary_file) return *line.binary_file;
  return input.substr(0, input.size() - 4) + ".glint.spv";
}

namespace {

namespace fs = std::filesystem;

struct NamedPath {
  std::string role;  // "the input", "-o", "--report=html", ...
  std::string path;  // as the user gave it
  bool default_name = false;
};

// A device or FIFO is written in place, so two outputs naming it do not replace it.
bool IsWrittenInPlace(const std::string& path) {
  struct stat status {};
  return stat(path.c_str(), &status) == 0 && !S_ISREG(status.st_mode) && !S_ISDIR(status.st_mode);
}

bool SameFile(const std::string& a, const std::string& b) {
  std::error_code error;
  if (fs::exists(a, error) && fs::exists(b, error)) return fs::equivalent(a, b, error);
  fs::path resolved_a = fs::weakly_canonical(fs::absolute(a, error), error);
  fs::path resolved_b = fs::weakly_canonical(fs::absolute(b, error), error);
  return !error && resolved_a == resolved_b;
}

std::vector<NamedPath> Inputs(const CommandLine& line) {
  std::vector<NamedPath> inputs;
  if (!line.read_stdin)
    for (const std::string& file : line.files) inputs.push_back({"the input", file});
  if (!line.config_file.empty()) inputs.push_back({"the .conf file", line.config_file});
  return inputs;
}

// The SPIR-V outputs: -o, or the default names (per .spv input, or per stage when
// glslang generates SPIR-V; a file of no known stage is refused later by usage).
void AddSpirvOutputs(const CommandLine& line, std::vector<NamedPath>* outputs) {
  if (line.binary_file) return outputs->push_back({"-o", *line.binary_file});
  bool spirv_inputs = !line.read_stdin && !line.files.empty() && IsSpirvFile(line.files.front());
  for (const std::string& file : line.files) {
    if (spirv_inputs) {
      outputs->push_back({"the output", SpirvOutputName(line, file), true});
      continue;
    }
    if (!line.spirv || line.preprocess) continue;
    bool hlsl = false;
    std::optional<EShLanguage> stage =
        line.stage_name ? StageFromName(*line.stage_name) : StageFromFileName(file, &hlsl);
    if (stage) outputs->push_back({"the output", BinaryName(line, *stage), true});
  }
}

std::vector<NamedPath> Outputs(const CommandLine& line) {
  std::vector<NamedPath> outputs;
  AddSpirvOutputs(line, &outputs);
  if (line.depfile) outputs.push_back({"--depfile", *line.depfile});
  if (line.html_report) outputs.push_back({"--report=html", *line.html_report});
  if (line.sarif_report) outputs.push_back({"--report=sarif", *line.sarif_report});
  return outputs;
}

std::string Clash(const NamedPath& output, const NamedPath& other) {
  return output.role + " " + output.path + " would overwrite " + other.role + " " + other.path;
}

}  // namespace

std::string OutputPathClash(const CommandLine& line) {
  std::vector<NamedPath> inputs = Inputs(line), outputs = Outputs(line);
  for (const NamedPath& output : outputs) {
    if (IsWrittenInPlace(output.path)) continue;
    for (const NamedPath& input : inputs)
      if (SameFile(output.path, input.path)) return Clash(output, input);
  }
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (IsWrittenInPlace(outputs[i].path)) continue;
    for (size_t j = 0; j < i; ++j) {
      if (outputs[i].default_name && outputs[j].default_name) continue;
      if (SameFile(outputs[i].path, outputs[j].path)) return Clash(outputs[i], outputs[j]);
    }
  }
  return "";
}

}  // namespace glint::standalone
