// glslc's resource limits (resource_limits.h).
#include "resource_limits.h"

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <sstream>
#include <utility>
#include <vector>

#include <glslang/Public/ResourceLimits.h>

namespace glint::glslc {
namespace {

struct NamedLimit {
  const char* name;
  int TBuiltInResource::*field;
};

// The limits glslc names, in the order --show-limits prints them (the order of
// TBuiltInResource's integer fields from maxLights to maxSamples; each name is the
// field's with its first letter capitalized).
const std::vector<NamedLimit>& NamedLimits() {
  static const std::vector<NamedLimit> limits = {
    {"MaxLights", &TBuiltInResource::maxLights},
    {"MaxClipPlanes", &TBuiltInResource::maxClipPlanes},
    {"MaxTextureUnits", &TBuiltInResource::maxTextureUnits},
    {"MaxTextureCoords", &TBuiltInResource::maxTextureCoords},
    {"MaxVertexAttribs", &TBuiltInResource::maxVertexAttribs},
    {"MaxVertexUniformComponents", &TBuiltInResource::maxVertexUniformComponents},
    {"MaxVaryingFloats", &TBuiltInResource::maxVaryingFloats},
    {"MaxVertexTextureImageUnits", &TBuiltInResource::maxVertexTextureImageUnits},
    {"MaxCombinedTextureImageUnits", &TBuiltInResource::maxCombinedTextureImageUnits},
    {"MaxTextureImageUnits", &TBuiltInResource::maxTextureImageUnits},
    {"MaxFragmentUniformComponents", &TBuiltInResource::maxFragmentUniformComponents},
    {"MaxDrawBuffers", &TBuiltInResource::maxDrawBuffers},
    {"MaxVertexUniformVectors", &TBuiltInResource::maxVertexUniformVectors},
    {"MaxVaryingVectors", &TBuiltInResource::maxVaryingVectors},
    {"MaxFragmentUniformVectors", &TBuiltInResource::maxFragmentUniformVectors},
    {"MaxVertexOutputVectors", &TBuiltInResource::maxVertexOutputVectors},
    {"MaxFragmentInputVectors", &TBuiltInResource::maxFragmentInputVectors},
    {"MinProgramTexelOffset", &TBuiltInResource::minProgramTexelOffset},
    {"MaxProgramTexelOffset", &TBuiltInResource::maxProgramTexelOffset},
    {"MaxClipDistances", &TBuiltInResource::maxClipDistances},
    {"MaxComputeWorkGroupCountX", &TBuiltInResource::maxComputeWorkGroupCountX},
    {"MaxComputeWorkGroupCountY", &TBuiltInResource::maxComputeWorkGroupCountY},
    {"MaxComputeWorkGroupCountZ", &TBuiltInResource::maxComputeWorkGroupCountZ},
    {"MaxComputeWorkGroupSizeX", &TBuiltInResource::maxComputeWorkGroupSizeX},
    {"MaxComputeWorkGroupSizeY", &TBuiltInResource::maxComputeWorkGroupSizeY},
    {"MaxComputeWorkGroupSizeZ", &TBuiltInResource::maxComputeWorkGroupSizeZ},
    {"MaxComputeUniformComponents", &TBuiltInResource::maxComputeUniformComponents},
    {"MaxComputeTextureImageUnits", &TBuiltInResource::maxComputeTextureImageUnits},
    {"MaxComputeImageUniforms", &TBuiltInResource::maxComputeImageUniforms},
    {"MaxComputeAtomicCounters", &TBuiltInResource::maxComputeAtomicCounters},
    {"MaxComputeAtomicCounterBuffers", &TBuiltInResource::maxComputeAtomicCounterBuffers},
    {"MaxVaryingComponents", &TBuiltInResource::maxVaryingComponents},
    {"MaxVertexOutputComponents", &TBuiltInResource::maxVertexOutputComponents},
    {"MaxGeometryInputComponents", &TBuiltInResource::maxGeometryInputComponents},
    {"MaxGeometryOutputComponents", &TBuiltInResource::maxGeometryOutputComponents},
    {"MaxFragmentInputComponents", &TBuiltInResource::maxFragmentInputComponents},
    {"MaxImageUnits", &TBuiltInResource::maxImageUnits},
    {"MaxCombinedImageUnitsAndFragmentOutputs", &TBuiltInResource::maxCombinedImageUnitsAndFragmentOutputs},
    {"MaxCombinedShaderOutputResources", &TBuiltInResource::maxCombinedShaderOutputResources},
    {"MaxImageSamples", &TBuiltInResource::maxImageSamples},
    {"MaxVertexImageUniforms", &TBuiltInResource::maxVertexImageUniforms},
    {"MaxTessControlImageUniforms", &TBuiltInResource::maxTessControlImageUniforms},
    {"MaxTessEvaluationImageUniforms", &TBuiltInResource::maxTessEvaluationImageUniforms},
    {"MaxGeometryImageUniforms", &TBuiltInResource::maxGeometryImageUniforms},
    {"MaxFragmentImageUniforms", &TBuiltInResource::maxFragmentImageUniforms},
    {"MaxCombinedImageUniforms", &TBuiltInResource::maxCombinedImageUniforms},
    {"MaxGeometryTextureImageUnits", &TBuiltInResource::maxGeometryTextureImageUnits},
    {"MaxGeometryOutputVertices", &TBuiltInResource::maxGeometryOutputVertices},
    {"MaxGeometryTotalOutputComponents", &TBuiltInResource::maxGeometryTotalOutputComponents},
    {"MaxGeometryUniformComponents", &TBuiltInResource::maxGeometryUniformComponents},
    {"MaxGeometryVaryingComponents", &TBuiltInResource::maxGeometryVaryingComponents},
    {"MaxTessControlInputComponents", &TBuiltInResource::maxTessControlInputComponents},
    {"MaxTessControlOutputComponents", &TBuiltInResource::maxTessControlOutputComponents},
    {"MaxTessControlTextureImageUnits", &TBuiltInResource::maxTessControlTextureImageUnits},
    {"MaxTessControlUniformComponents", &TBuiltInResource::maxTessControlUniformComponents},
    {"MaxTessControlTotalOutputComponents", &TBuiltInResource::maxTessControlTotalOutputComponents},
    {"MaxTessEvaluationInputComponents", &TBuiltInResource::maxTessEvaluationInputComponents},
    {"MaxTessEvaluationOutputComponents", &TBuiltInResource::maxTessEvaluationOutputComponents},
    {"MaxTessEvaluationTextureImageUnits", &TBuiltInResource::maxTessEvaluationTextureImageUnits},
    {"MaxTessEvaluationUniformComponents", &TBuiltInResource::maxTessEvaluationUniformComponents},
    {"MaxTessPatchComponents", &TBuiltInResource::maxTessPatchComponents},
    {"MaxPatchVertices", &TBuiltInResource::maxPatchVertices},
    {"MaxTessGenLevel", &TBuiltInResource::maxTessGenLevel},
    {"MaxViewports", &TBuiltInResource::maxViewports},
    {"MaxVertexAtomicCounters", &TBuiltInResource::maxVertexAtomicCounters},
    {"MaxTessControlAtomicCounters", &TBuiltInResource::maxTessControlAtomicCounters},
    {"MaxTessEvaluationAtomicCounters", &TBuiltInResource::maxTessEvaluationAtomicCounters},
    {"MaxGeometryAtomicCounters", &TBuiltInResource::maxGeometryAtomicCounters},
    {"MaxFragmentAtomicCounters", &TBuiltInResource::maxFragmentAtomicCounters},
    {"MaxCombinedAtomicCounters", &TBuiltInResource::maxCombinedAtomicCounters},
    {"MaxAtomicCounterBindings", &TBuiltInResource::maxAtomicCounterBindings},
    {"MaxVertexAtomicCounterBuffers", &TBuiltInResource::maxVertexAtomicCounterBuffers},
    {"MaxTessControlAtomicCounterBuffers", &TBuiltInResource::maxTessControlAtomicCounterBuffers},
    {"MaxTessEvaluationAtomicCounterBuffers", &TBuiltInResource::maxTessEvaluationAtomicCounterBuffers},
    {"MaxGeometryAtomicCounterBuffers", &TBuiltInResource::maxGeometryAtomicCounterBuffers},
    {"MaxFragmentAtomicCounterBuffers", &TBuiltInResource::maxFragmentAtomicCounterBuffers},
    {"MaxCombinedAtomicCounterBuffers", &TBuiltInResource::maxCombinedAtomicCounterBuffers},
    {"MaxAtomicCounterBufferSize", &TBuiltInResource::maxAtomicCounterBufferSize},
    {"MaxTransformFeedbackBuffers", &TBuiltInResource::maxTransformFeedbackBuffers},
    {"MaxTransformFeedbackInterleavedComponents", &TBuiltInResource::maxTransformFeedbackInterleavedComponents},
    {"MaxCullDistances", &TBuiltInResource::maxCullDistances},
    {"MaxCombinedClipAndCullDistances", &TBuiltInResource::maxCombinedClipAndCullDistances},
    {"MaxSamples", &TBuiltInResource::maxSamples},
  };
  return limits;
}

// Names glslc accepts and ignores: TBuiltInResource::limits' flags.
bool IgnoredLimitName(const std::string& name) {
  static const char* const kIgnored[] = {
      "nonInductiveForLoops", "whileLoops", "doWhileLoops", "generalUniformIndexing",
      "generalAttributeMatrixVectorIndexing", "generalVaryingIndexing", "generalSamplerIndexing",
      "generalVariableIndexing", "generalConstantMatrixVectorIndexing"};
  for (const char* ignored : kIgnored)
    if (name == ignored) return true;
  return false;
}

// A whole token read as a decimal int (a sign allowed), as glslc reads a limit's value.
bool ParseDecimalInt(const std::string& token, int* value) {
  if (token.empty()) return false;
  char* end = nullptr;
  errno = 0;
  long parsed = std::strtol(token.c_str(), &end, 10);
  if (errno != 0 || *end != '\0' || parsed < INT_MIN || parsed > INT_MAX) return false;
  // strtol skips leading white space; a token never has any, but a lone sign has no digits.
  if (end == token.c_str()) return false;
  *value = static_cast<int>(parsed);
  return true;
}

}  // namespace

TBuiltInResource ShadercDefaultLimits() {
  TBuiltInResource limits = *GetDefaultResources();
  // Where shaderc's table differs from glslang's.
  limits.maxLights = 8;
  limits.maxTextureUnits = 2;
  limits.maxTextureCoords = 8;
  limits.maxVertexAttribs = 16;
  limits.maxVaryingFloats = 60;
  limits.maxVertexTextureImageUnits = 16;
  limits.maxTextureImageUnits = 16;
  limits.maxFragmentUniformComponents = 1024;
  limits.maxDrawBuffers = 8;
  limits.maxVertexUniformVectors = 256;
  limits.maxVaryingVectors = 15;
  limits.maxFragmentUniformVectors = 256;
  limits.maxComputeUniformComponents = 512;
  limits.maxGeometryUniformComponents = 512;
  limits.maxGeometryVaryingComponents = 60;
  limits.maxFragmentAtomicCounterBuffers = 0;
  limits.maxAtomicCounterBufferSize = 32;
  return limits;
}

std::string LimitsText(const TBuiltInResource& limits) {
  std::string text;
  for (const NamedLimit& limit : NamedLimits())
    text += std::string(limit.name) + " " + std::to_string(limits.*limit.field) + "\n";
  return text;
}

bool ParseLimits(const std::string& text, TBuiltInResource* limits, std::string* error) {
  std::istringstream tokens(text);
  std::vector<std::pair<int TBuiltInResource::*, int>> settings;
  std::string name;
  while (tokens >> name) {
    int TBuiltInResource::*field = nullptr;
    for (const NamedLimit& limit : NamedLimits())
      if (name == limit.name) field = limit.field;
    if (!field && !IgnoredLimitName(name)) {
      *error = "invalid resource limit: " + name;
      return false;
    }
    std::string value_text;
    if (!(tokens >> value_text)) {
      *error = "missing value after limit: " + name;
      return false;
    }
    int value = 0;
    if (!ParseDecimalInt(value_text, &value)) {
      *error = "invalid integer: " + value_text;
      return false;
    }
    if (field) settings.emplace_back(field, value);
  }
  for (const auto& [field, value] : settings) limits->*field = value;
  return true;
}

bool SetLimit(size_t index, int value, TBuiltInResource* limits) {
  if (index >= NamedLimits().size()) return false;
  limits->*NamedLimits()[index].field = value;
  return true;
}

}  // namespace glint::glslc
