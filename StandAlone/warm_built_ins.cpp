#include "warm_built_ins.h"

#include <cctype>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>

#include <glslang/Public/ShaderLang.h>

namespace glint::standalone {

std::optional<std::string> VersionLineOf(const std::string& source) {
  size_t at = source.find("#version");
  if (at == std::string::npos) return std::nullopt;
  std::istringstream words(source.substr(at + 8, source.find('\n', at) - at - 8));
  std::string number, profile, extra;
  words >> number >> profile >> extra;
  if (number.empty() || number.size() > 4 || !extra.empty()) return std::nullopt;
  for (char c : number)
    if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
  if (!profile.empty() && profile != "core" && profile != "compatibility" && profile != "es")
    return std::nullopt;
  return "#version " + number + (profile.empty() ? "" : " " + profile);
}

namespace {

void CompileTrivial(const CommandLine& line, const std::string& version, EShLanguage stage) {
  const std::string text = version + "\nvoid main() {}\n";
  const char* strings[] = {text.c_str()};
  ShHandle compiler = ShConstructCompiler(stage, 0);
  ShCompile(compiler, strings, 1, nullptr, EShOptNone, &line.glslang.resources, 0,
            line.glslang.default_version, false, MessagesFor(line));
  ShDestruct(compiler);
}

}  // namespace

void WarmBuiltIns(const CommandLine& line, const std::vector<std::string>& files) {
  std::set<std::string> done;
  for (const std::string& file : files) {
    bool hlsl = false;
    std::optional<EShLanguage> stage =
        line.stage_name ? StageFromName(*line.stage_name) : StageFromFileName(file, &hlsl);
    // Only regular files: opening a FIFO would block the parent, where no --timeout-ms
    // runs (the worker that compiles it is bounded).
    std::error_code error;
    if (!stage || hlsl || !std::filesystem::is_regular_file(file, error)) continue;
    std::ifstream in(file, std::ios::binary);
    if (!in) continue;
    std::string head(4096, '\0');
    in.read(head.data(), static_cast<std::streamsize>(head.size()));
    head.resize(static_cast<size_t>(in.gcount()));
    std::optional<std::string> version = VersionLineOf(head.substr(0, head.find('\0')));
    if (!version || !done.insert(*version + " " + std::to_string(*stage)).second) continue;
    CompileTrivial(line, *version, *stage);
  }
}

}  // namespace glint::standalone
