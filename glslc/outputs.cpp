// What glslc writes and where (outputs.h). Output names are made as glslc makes them:
// relative to the working directory, from the input's last path component; only the six
// classic stage extensions keep theirs ("a.vert" -> "a.vert.spv"), any other extension
// is cut at the last '.' of the whole argument ("x.rgen" -> "x.spv").
#include "outputs.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>

#include "output_file.h"

namespace glint::glslc {
namespace {

std::string BaseName(const std::string& path) {
  size_t slash = path.find_last_of("/\\");
  std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  return base == "." || base == ".." ? "" : base;
}

// The name glslc makes from the input's: `extension` appended to the base name, after
// cutting anything but a classic stage extension.
std::string CandidateName(const std::string& path, const std::string& extension) {
  size_t dot = path.rfind('.');
  std::string suffix = dot == std::string::npos ? "" : path.substr(dot + 1);
  static const char* const kKept[] = {"vert", "frag", "tesc", "tese", "geom", "comp"};
  for (const char* kept : kKept)
    if (suffix == kept) return BaseName(path) + extension;
  return BaseName(dot == std::string::npos ? path : path.substr(0, dot)) + extension;
}

char HexDigit(uint32_t nibble) { return "0123456789abcdef"[nibble & 0xf]; }

}  // namespace

std::string OutputName(const InputFile& input, const GlslcOptions& options) {
  if (options.output_name) return *options.output_name;
  if (options.needs_linking) return "a.spv";
  return CandidateName(input.path, options.output_extension);
}

std::string FormatBinary(const std::vector<uint32_t>& words, BinaryFormat format) {
  if (format == BinaryFormat::kBinary)
    return std::string(reinterpret_cast<const char*>(words.data()), words.size() * 4);
  if (words.empty()) return "";
  std::string numbers;
  numbers.reserve(words.size() * 12);
  for (size_t i = 0; i < words.size(); ++i) {
    if (i) numbers += i % 4 == 0 ? ",\n" : ",";
    numbers += "0x";
    for (int shift = 28; shift >= 0; shift -= 4) numbers += HexDigit(words[i] >> shift);
  }
  if (format == BinaryFormat::kNumbers) return numbers + "\n";
  return "{" + numbers + "}\n";
}

std::string DependencyTarget(const InputFile& input, const GlslcOptions& options) {
  if (options.dependency_target) return *options.dependency_target;
  bool preprocess_only = options.output_type == OutputType::kPreprocessed;
  if (options.output_name && !preprocess_only) return *options.output_name;
  std::string extension =
      preprocess_only || options.needs_linking ? ".spv" : options.output_extension;
  return CandidateName(input.path, extension);
}

std::string DependencyFile(const InputFile& input, const GlslcOptions& options) {
  if (options.dependency_file) return *options.dependency_file;
  GlslcOptions without_target = options;
  without_target.dependency_target.reset();
  return DependencyTarget(input, without_target) + ".d";
}

std::string DependencyRule(const std::string& target, const std::string& source,
                           const std::unordered_set<std::string>& included) {
  std::string rule = target + ": " + source;
  for (const std::string& path : included) rule += " " + path;
  return rule + "\n";
}

bool WriteOutput(const std::string& name, const std::string& bytes, std::string* error) {
  if (name == "-") {
    std::cout.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    std::cout.flush();
    if (!std::cout) {
      *error = "glslc: error: error writing to standard output\n";
      return false;
    }
    return true;
  }
  output::WriteResult written = output::WriteOutputFile(name, bytes);
  if (written.ok()) return true;
  if (written.failure == output::WriteFailure::kOpen) {
    *error = "glslc: error: cannot open output file: '" + name + "'";
    if (access(name.c_str(), W_OK) != 0 && errno != EISDIR)
      *error += std::string(": ") + std::strerror(errno);
    *error += "\n";
  } else {
    *error = "glslc: error: error writing to output file: '" + name + "'\n";
  }
  return false;
}

}  // namespace glint::glslc
