// What glslc reads out of, and makes of, glslang's preprocessed text: which `#line`
// numbering the text uses (from -std= or its `#version`), the text `glslc -E` prints (the
// preamble's traces removed, the include extension and a `#line` for the top-level file put
// back when files were included), and the stage a `#pragma shader_stage(...)` names, with
// glslc's errors for misplaced, invalid or conflicting pragmas. Lines are located the way
// shaderc 2023.2's glslc locates them, `#line` directives included.
#include "preprocessed_text.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iterator>
#include <string_view>
#include <utility>
#include <vector>

namespace glint::glslc {
namespace {

constexpr std::string_view kWhitespace = " \t\n\r\f\v";

bool StartsWith(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

std::string_view TrimAny(std::string_view text, std::string_view characters) {
  const size_t first = text.find_first_not_of(characters);
  if (first == std::string_view::npos) return {};
  const size_t last = text.find_last_not_of(characters);
  return text.substr(first, last - first + 1);
}

// The pieces of `text` between '\n's, each with its '\n' when `keep_newlines`; nothing is
// produced for the empty piece after a final '\n'.
std::vector<std::string_view> SplitLines(std::string_view text, bool keep_newlines) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    const size_t newline = text.find('\n');
    if (newline == std::string_view::npos) {
      lines.push_back(text);
      break;
    }
    lines.push_back(text.substr(0, keep_newlines ? newline + 1 : newline));
    text.remove_prefix(newline + 1);
  }
  return lines;
}

// The GLSL versions glslc accepts in -std= and in a `#version` it reads itself.
bool IsKnownVersion(int version) {
  static constexpr int kKnownVersions[] = {100, 110, 120, 130, 140, 150, 300, 310, 320,
                                           330, 400, 410, 420, 430, 440, 450, 460};
  return std::find(std::begin(kKnownVersions), std::end(kKnownVersions), version) !=
         std::end(kKnownVersions);
}


// The version and profile of the first "#version" in the text (found anywhere, as glslc
// finds it, not only at the start of a line): the rest of its line with the spaces removed.
bool VersionProfileOfText(std::string_view text, int* version, EProfile* profile) {
  static constexpr std::string_view kVersion = "#version";
  const size_t found = text.find(kVersion);
  if (found == std::string_view::npos) return false;
  std::string_view rest = text.substr(found + kVersion.size());
  rest = rest.substr(0, rest.find('\n'));
  std::string without_spaces;
  for (char c : rest) {
    if (c != ' ') without_spaces += c;
  }
  return ParseVersionProfile(without_spaces, version, profile);
}

// A `#line` directive of glslang's canonical output ("#line 12" or "#line 12 \"a.glsl\"" or
// "#line 12 3"): the line number, as atoi reads it, and the file name or string number, if
// any, without its quotes.
std::pair<int, std::string_view> DecodeLineDirective(std::string_view directive) {
  static constexpr std::string_view kLine = "#line";
  directive.remove_prefix(kLine.size());
  if (StartsWith(directive, " ")) directive.remove_prefix(1);
  // glslc reads the number with atoi, whose glibc form is strtol's value cast to int.
  const int line = static_cast<int>(std::strtol(std::string(directive).c_str(), nullptr, 10));
  const size_t space = directive.find(' ');
  if (space == std::string_view::npos) return {line, {}};
  return {line, TrimAny(directive.substr(space), "\" \n")};
}

std::optional<EShLanguage> StageOfPragmaName(std::string_view name) {
  static constexpr std::pair<std::string_view, EShLanguage> kStages[] = {
      {"vertex", EShLangVertex},
      {"fragment", EShLangFragment},
      {"tesscontrol", EShLangTessControl},
      {"tesseval", EShLangTessEvaluation},
      {"geometry", EShLangGeometry},
      {"compute", EShLangCompute},
      {"raygen", EShLangRayGen},
      {"intersect", EShLangIntersect},
      {"anyhit", EShLangAnyHit},
      {"closest", EShLangClosestHit},
      {"miss", EShLangMiss},
      {"callable", EShLangCallable},
      {"task", EShLangTask},
      {"mesh", EShLangMesh},
  };
  for (const auto& [stage_name, stage] : kStages) {
    if (name == stage_name) return stage;
  }
  return std::nullopt;
}

struct PragmaSite {
  std::string file;   // the input's name, or the file the last `#line` named
  size_t line = 0;    // the logical line, as glslc counts it
  std::string value;  // the stage name between the parentheses
};

std::string Where(const PragmaSite& site) { return site.file + ":" + std::to_string(site.line); }

}  // namespace

// ParseVersionProfile (preprocessed_text.h). Anything after the profile word is not
// looked at.
bool ParseVersionProfile(std::string_view text, int* version, EProfile* profile) {
  constexpr size_t kShortest = 3;  // a version number alone
  constexpr size_t kLongest = 16;  // a version number and "compatibility"
  if (text.size() < kShortest || text.size() > kLongest ||
      !std::isdigit(static_cast<unsigned char>(text.front()))) {
    return false;
  }
  const size_t digits_end = text.find_first_not_of("0123456789");
  const std::string_view digits = text.substr(0, digits_end);
  // Leading zeros are accepted ("0450" is 450). 16 digits can overflow an int: the value
  // saturates, and is then not a known version, as when a stream fails to read it.
  constexpr int kSaturated = 1000000;
  int value = 0;
  for (char digit : digits) value = std::min(value * 10 + (digit - '0'), kSaturated);
  *version = value;
  if (!IsKnownVersion(*version)) return false;

  std::string_view after =
      digits_end == std::string_view::npos ? std::string_view() : text.substr(digits_end);
  after = TrimAny(after, kWhitespace);
  const std::string_view word = after.substr(0, after.find_first_of(kWhitespace));
  if (word.empty()) {
    *profile = ENoProfile;
  } else if (word == "core") {
    *profile = ECoreProfile;
  } else if (word == "es") {
    *profile = EEsProfile;
  } else if (word == "compatibility") {
    *profile = ECompatibilityProfile;
  } else {
    return false;
  }
  return true;
}

bool NextLineSemantics(const std::string& preprocessed, int forced_version,
                       EProfile forced_profile) {
  int version = forced_version;
  EProfile profile = forced_profile;
  if (forced_version == 0 && !VersionProfileOfText(preprocessed, &version, &profile)) {
    // glslang's own default when the source has no (readable) #version.
    version = 110;
    profile = ENoProfile;
  }
  return profile == EEsProfile || version >= 330;
}

std::string PreprocessedOutput(const std::string& preprocessed, const std::string& name,
                               size_t include_requests, bool next_line) {
  const std::vector<std::string_view> lines = SplitLines(preprocessed, /*keep_newlines=*/true);
  const bool includes = include_requests > 0;

  // The preamble ends with the include extension line: everything before it comes from the
  // preamble (its #defines leave blank lines), everything after it from the source.
  size_t extension_index = lines.size();
  size_t version_index = lines.size();
  for (size_t i = 0; i < lines.size(); ++i) {
    if (lines[i] == kIncludeExtensionLine) {
      if (extension_index == lines.size()) extension_index = i;
    } else if (StartsWith(lines[i], "#version")) {
      version_index = i;
      break;
    }
  }

  std::string output;
  // With includes, the output carries the include extension for the source, and #version
  // has to come before it: it moves to the top and leaves a blank line where it was, so
  // the lines of the source keep their numbers.
  if (includes && version_index < lines.size()) output.append(lines[version_index]);
  for (size_t i = 0; i < extension_index && i < lines.size(); ++i) {
    if (TrimAny(lines[i], kWhitespace).empty()) continue;
    output.append(lines[i]);
  }
  if (includes) {
    output.append(kIncludeExtensionLine);
    // Under the old #line semantics `#line 0` numbers the next line 1.
    output.append("#line ").append(next_line ? "1" : "0");
    output.append(" \"").append(name).append("\"\n");
  }
  for (size_t i = extension_index + 1; i < lines.size(); ++i) {
    output.append(includes && i == version_index ? std::string_view("\n") : lines[i]);
  }
  return output;
}

StagePragma FindStagePragma(const std::string& preprocessed, const std::string& name,
                            bool next_line) {
  static constexpr std::string_view kPragma = "#pragma shader_stage";
  const std::vector<std::string_view> lines = SplitLines(preprocessed, /*keep_newlines=*/false);

  std::vector<PragmaSite> pragmas;
  // Physical line indices; lines.size() stands for "none".
  size_t first_pragma_index = lines.size();
  size_t first_code_index = lines.size();
  std::string file = name;
  size_t logical_line = 1;
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string_view line = TrimAny(lines[i], kWhitespace);
    if (StartsWith(line, kPragma)) {
      // glslang prints the pragma's tokens with no space between them:
      // "#pragma shader_stage(vertex)".
      const std::string_view value = TrimAny(line.substr(kPragma.size()), "()");
      pragmas.push_back({file, logical_line, std::string(value)});
      if (first_pragma_index == lines.size()) first_pragma_index = i;
    } else if (!line.empty() && line.front() != '#' && first_code_index == lines.size()) {
      first_code_index = i;
    }

    if (StartsWith(line, "#line")) {
      const auto [number, source] = DecodeLineDirective(line);
      // A negative number wraps around, as it does in glslc's unsigned counter.
      logical_line = static_cast<size_t>(number);
      if (!source.empty()) file = std::string(source);
      if (!next_line) ++logical_line;
    } else {
      ++logical_line;
    }
  }

  StagePragma result;
  if (pragmas.empty()) return result;
  result.found = true;

  const PragmaSite& first = pragmas.front();
  if (first_pragma_index > first_code_index) {
    result.errors += Where(first) +
                     ": error: '#pragma': the first 'shader_stage' #pragma must appear before "
                     "any non-preprocessing code\n";
  }
  const std::optional<EShLanguage> stage = StageOfPragmaName(first.value);
  if (!stage) {
    result.errors += Where(first) + ": error: '#pragma': invalid stage for 'shader_stage' " +
                     "#pragma: '" + first.value + "'\n";
  }
  for (size_t i = 1; i < pragmas.size(); ++i) {
    const PragmaSite& later = pragmas[i];
    if (later.value == first.value) continue;
    result.errors += Where(later) + ": error: '#pragma': conflicting stages for 'shader_stage' " +
                     "#pragma: '" + later.value + "' (was '" + first.value + "' at " +
                     Where(first) + ")\n";
  }
  if (result.errors.empty()) result.stage = stage;
  return result;
}

}  // namespace glint::glslc
