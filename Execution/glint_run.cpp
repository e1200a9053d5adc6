// glint-run: runs a compute or fragment shader on a Vulkan device (lavapipe unless told
// otherwise) and prints timing and buffer checksums. See Usage() for the flags.
//
// Exit status: 0 success, 1 refusal (no device, pipeline failure, missing binding,
// time budget, ...), 2 bad command line.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include "Execution/vk_runner.h"
#include "glint/glint.h"
#include "glslang/front_end/compile_driver.h"
#include "output_file.h"

namespace {

using namespace glint::vk;

const char kUsage[] = R"(usage: glint-run [options] <shader.spv | shader.comp | shader.frag>
  A .spv file is run as is; GLSL (.comp/.frag, or --stage) is compiled with glslang.
  --glint                 run Glint's passes (glint::Process, default options) first
  --target-env ENV        GLSL target environment (vulkan1.0 .. vulkan1.3, spirv1.4)
  --stage comp|frag       stage of a GLSL file whose extension does not say it
  --entry NAME            entry point (default main)
  --device NAME           device name substring, '#index' or 'gpu' (default: lavapipe,
                          or $GLINT_VK_DEVICE)
  --robust-buffer-access auto|off|on|2
                          the device's robust buffer access: auto (default) enables
                          robustBufferAccess where the device has it; off disables it;
                          on requires it; 2 requires robustBufferAccess2 too
                          (VK_EXT_robustness2: out-of-bounds loads read zero, stores are
                          dropped). The line "robust buffer access:" says what is enabled.
  --buffer S:B:SIZE:SRC   buffer for (set S, binding B) of SIZE bytes (0 = automatic),
                          SRC = zeros | seed:N[:bytes|small|unit] | file:PATH
  --auto-buffers SEED     every declared binding not given by --buffer: automatic size,
                          contents seed:SEED:small
  --push-words A,B,..     push constants as 32-bit unsigned words
  --push-floats A,B,..    push constants as 32-bit floats
  --spec ID=VALUE         specialization constant (integer; float bits with ID=f:VALUE)
  --groups X,Y,Z          workgroup count (default 1,1,1)
  --base X,Y,Z            base workgroup for vkCmdDispatchBase (default 0,0,0)
  --size WxH              fragment run: render target size (default 64x64)
  --format rgba8|rgba32f|rgba32ui  fragment run: colour format (default rgba8)
  --png PATH              fragment run: write the image as PNG
  --repeat N              timed repetitions (default 1); the median is reported
  --warmup N              untimed submissions first (default 0)
  --budget-ms MS          time budget per repetition (default 20000)
  --dump S:B:PATH         write the final bytes of buffer (S, B) to PATH
  --print-words N         print the first N 32-bit words of every buffer
)";

struct CommandLine {
  std::string input, stage, env = "vulkan1.0";
  bool glint = false;
  DeviceOptions device;
  ComputeRun compute;
  FragmentRun fragment;
  bool has_auto_buffers = false;
  uint64_t auto_seed = 0;
  std::string png;
  std::vector<std::pair<std::pair<uint32_t, uint32_t>, std::string>> dumps;
  uint32_t print_words = 0;
};

bool Usage(const std::string& problem) {
  std::cerr << "glint-run: " << problem << "\n" << kUsage;
  return false;
}

std::vector<std::string> Split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::stringstream in(text);
  for (std::string part; std::getline(in, part, separator);) parts.push_back(part);
  return parts;
}

bool ParseUnsigned(const std::string& text, uint64_t* value) {
  if (text.empty()) return false;
  char* end = nullptr;
  *value = std::strtoull(text.c_str(), &end, 0);
  return *end == '\0';
}

bool ParseTriple(const std::string& text, std::array<uint32_t, 3>* out) {
  std::vector<std::string> parts = Split(text, ',');
  if (parts.size() != 3) return false;
  for (int i = 0; i < 3; ++i) {
    uint64_t value;
    if (!ParseUnsigned(parts[i], &value)) return false;
    (*out)[i] = static_cast<uint32_t>(value);
  }
  return true;
}

bool ParseContents(const std::vector<std::string>& parts, size_t first, BufferContents* out) {
  const std::string& kind = parts[first];
  if (kind == "zeros") {
    *out = BufferContents::Zeros();
    return parts.size() == first + 1;
  }
  if (kind == "file" && parts.size() >= first + 2) {
    std::string path = parts[first + 1];
    for (size_t i = first + 2; i < parts.size(); ++i) path += ":" + parts[i];
    *out = BufferContents::File(path);
    return true;
  }
  uint64_t seed;
  if (kind != "seed" || parts.size() < first + 2 || !ParseUnsigned(parts[first + 1], &seed))
    return false;
  BufferContents::Pattern pattern = BufferContents::Pattern::kBytes;
  if (parts.size() == first + 3) {
    if (parts[first + 2] == "small")
      pattern = BufferContents::Pattern::kSmallUints;
    else if (parts[first + 2] == "unit")
      pattern = BufferContents::Pattern::kUnitFloats;
    else if (parts[first + 2] != "bytes")
      return false;
  }
  *out = BufferContents::Seeded(seed, pattern);
  return parts.size() <= first + 3;
}

bool ParseBuffer(const std::string& text, BufferBinding* out) {
  std::vector<std::string> parts = Split(text, ':');
  uint64_t set, binding, size;
  if (parts.size() < 4 || !ParseUnsigned(parts[0], &set) || !ParseUnsigned(parts[1], &binding) ||
      !ParseUnsigned(parts[2], &size))
    return false;
  out->set = static_cast<uint32_t>(set);
  out->binding = static_cast<uint32_t>(binding);
  out->size = size;
  return ParseContents(parts, 3, &out->contents);
}

bool ParsePush(const std::string& text, bool floats, std::vector<uint8_t>* out) {
  for (const std::string& part : Split(text, ',')) {
    uint32_t word;
    if (floats) {
      char* end = nullptr;
      float value = std::strtof(part.c_str(), &end);
      if (*end) return false;
      std::memcpy(&word, &value, 4);
    } else {
      uint64_t value;
      if (!ParseUnsigned(part, &value)) return false;
      word = static_cast<uint32_t>(value);
    }
    out->insert(out->end(), reinterpret_cast<uint8_t*>(&word),
                reinterpret_cast<uint8_t*>(&word) + 4);
  }
  return true;
}

bool ParseSpec(const std::string& text, std::map<uint32_t, uint64_t>* out) {
  size_t equals = text.find('=');
  uint64_t id, value;
  if (equals == std::string::npos || !ParseUnsigned(text.substr(0, equals), &id)) return false;
  std::string value_text = text.substr(equals + 1);
  if (value_text.rfind("f:", 0) == 0) {
    float number = std::strtof(value_text.c_str() + 2, nullptr);
    uint32_t bits;
    std::memcpy(&bits, &number, 4);
    value = bits;
  } else if (!ParseUnsigned(value_text, &value)) {
    return false;
  }
  (*out)[static_cast<uint32_t>(id)] = value;
  return true;
}

bool ParseSize(const std::string& text, uint32_t* width, uint32_t* height) {
  std::vector<std::string> parts = Split(text, 'x');
  uint64_t w, h;
  if (parts.size() != 2 || !ParseUnsigned(parts[0], &w) || !ParseUnsigned(parts[1], &h))
    return false;
  *width = static_cast<uint32_t>(w);
  *height = static_cast<uint32_t>(h);
  return true;
}

bool ParseFormat(const std::string& text, ColorFormat* format) {
  if (text == "rgba8")
    *format = ColorFormat::kRgba8Unorm;
  else if (text == "rgba32f")
    *format = ColorFormat::kRgba32Float;
  else if (text == "rgba32ui")
    *format = ColorFormat::kRgba32Uint;
  else
    return false;
  return true;
}

bool ParseRobustness(const std::string& text, DeviceOptions* device) {
  if (text != "auto" && text != "off" && text != "on" && text != "2") return false;
  device->robust_buffer_access = text != "off";
  device->require_robust_buffer_access = text == "on" || text == "2";
  device->robust_buffer_access2 = text == "2";
  return true;
}

// One flag with its value; false (after printing usage) when it is malformed.
bool ParseFlag(const std::string& flag, const std::string& value, CommandLine* cl) {
  bool ok = true;
  uint64_t number = 0;
  if (flag == "--target-env")
    cl->env = value;
  else if (flag == "--stage")
    cl->stage = value;
  else if (flag == "--entry")
    cl->compute.shader.entry_point = value;
  else if (flag == "--device")
    cl->device.device = value;
  else if (flag == "--robust-buffer-access")
    ok = ParseRobustness(value, &cl->device);
  else if (flag == "--buffer") {
    BufferBinding buffer;
    ok = ParseBuffer(value, &buffer);
    cl->compute.buffers.push_back(buffer);
  } else if (flag == "--auto-buffers") {
    ok = ParseUnsigned(value, &cl->auto_seed);
    cl->has_auto_buffers = true;
  } else if (flag == "--push-words")
    ok = ParsePush(value, false, &cl->compute.push_constants);
  else if (flag == "--push-floats")
    ok = ParsePush(value, true, &cl->compute.push_constants);
  else if (flag == "--spec")
    ok = ParseSpec(value, &cl->compute.shader.spec_constants);
  else if (flag == "--groups")
    ok = ParseTriple(value, &cl->compute.group_count);
  else if (flag == "--base")
    ok = ParseTriple(value, &cl->compute.base_group);
  else if (flag == "--size")
    ok = ParseSize(value, &cl->fragment.width, &cl->fragment.height);
  else if (flag == "--format")
    ok = ParseFormat(value, &cl->fragment.format);
  else if (flag == "--png")
    cl->png = value;
  else if (flag == "--repeat")
    ok = ParseUnsigned(value, &number) && (cl->compute.repetitions = number) > 0;
  else if (flag == "--warmup")
    ok = ParseUnsigned(value, &number) && ((cl->compute.warmup_runs = number), true);
  else if (flag == "--budget-ms")
    ok = ParseUnsigned(value, &number) && (cl->compute.time_budget_ms = number) > 0;
  else if (flag == "--print-words")
    ok = ParseUnsigned(value, &number) && ((cl->print_words = number), true);
  else if (flag == "--dump") {
    std::vector<std::string> parts = Split(value, ':');
    uint64_t set, binding;
    ok = parts.size() >= 3 && ParseUnsigned(parts[0], &set) && ParseUnsigned(parts[1], &binding);
    if (ok)
      cl->dumps.push_back({{set, binding}, value.substr(parts[0].size() + parts[1].size() + 2)});
  } else
    return Usage("unknown flag " + flag);
  return ok || Usage("bad value for " + flag + ": '" + value + "'");
}

bool ParseCommandLine(int argc, char** argv, CommandLine* cl) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--glint")
      cl->glint = true;
    else if (arg == "-h" || arg == "--help")
      return Usage("help");
    else if (arg.rfind("--", 0) == 0) {
      if (i + 1 >= argc) return Usage("missing value for " + arg);
      if (!ParseFlag(arg, argv[++i], cl)) return false;
    } else if (cl->input.empty())
      cl->input = arg;
    else
      return Usage("more than one input file");
  }
  if (cl->input.empty()) return Usage("no input file");
  if (cl->stage.empty()) {
    size_t dot = cl->input.rfind('.');
    std::string extension = dot == std::string::npos ? "" : cl->input.substr(dot + 1);
    if (extension == "comp" || extension == "frag") cl->stage = extension;
  }
  return true;
}

// The module to run: the .spv file, or GLSL compiled by glslang; then Glint's passes.
bool LoadShader(const CommandLine& cl, std::vector<uint32_t>* words, std::string* error) {
  std::ifstream in(cl.input, std::ios::binary);
  if (!in) {
    *error = "cannot read '" + cl.input + "'";
    return false;
  }
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  bool is_binary = bytes.size() >= 4 && static_cast<uint8_t>(bytes[0]) == 0x03 &&
                   static_cast<uint8_t>(bytes[1]) == 0x02;
  if (is_binary) {
    if (bytes.size() % 4) {
      *error = "'" + cl.input + "' is not a whole number of SPIR-V words";
      return false;
    }
    words->resize(bytes.size() / 4);
    std::memcpy(words->data(), bytes.data(), bytes.size());
  } else if (!glint::frontend::CompileSourceToSpirv(
                 {bytes, cl.stage.empty() ? "comp" : cl.stage, cl.env}, words, error)) {
    return false;
  }
  if (!cl.glint) return true;
  glint::Report report;
  if (glint::Process(*words, glint::Options{}, &report)) return true;
  *error = "Glint's passes failed:";
  for (const glint::Diagnostic& diagnostic : report.diagnostics)
    *error += "\n" + glint::FormatDiagnostic(diagnostic);
  return false;
}

// Adds a seeded buffer for every declared binding the command line did not describe.
void AddAutomaticBuffers(const ShaderInterface& interface, const CommandLine& cl,
                         std::vector<BufferBinding>* buffers) {
  for (const BindingInfo& info : interface.bindings) {
    bool given = false;
    for (const BufferBinding& buffer : *buffers)
      given = given || (buffer.set == info.set && buffer.binding == info.binding);
    if (given) continue;
    BufferBinding buffer;
    buffer.set = info.set;
    buffer.binding = info.binding;
    buffer.contents = BufferContents::Seeded(cl.auto_seed + info.set * 1000 + info.binding,
                                             BufferContents::Pattern::kSmallUints);
    buffers->push_back(buffer);
  }
}

// A buffer dump, written like every output file of the project (output_file.h).
bool WriteBytes(const std::string& path, const std::vector<uint8_t>& bytes, std::string* error) {
  glint::output::WriteResult written = glint::output::WriteOutputFile(
      path, std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
  if (!written.ok()) *error = glint::output::DescribeFailure(path, written);
  return written.ok();
}

void PrintTiming(const Timing& timing) {
  std::printf("pipeline creation: %.3f ms\n", timing.pipeline_ms);
  std::printf("time (%s, %u runs): median %.3f ms, min %.3f ms, max %.3f ms, first %.3f ms\n",
              timing.method.c_str(), timing.runs, timing.median_ms, timing.min_ms, timing.max_ms,
              timing.first_ms);
  std::printf("processor time (this process, submit to fence): median %.3f ms\n",
              timing.cpu_median_ms);
}

bool PrintBuffers(const CommandLine& cl, const std::vector<BufferData>& buffers,
                  std::string* error) {
  for (const BufferData& buffer : buffers) {
    std::printf("buffer (set %u, binding %u): %zu bytes, fnv1a64 %016llx\n", buffer.set,
                buffer.binding, buffer.bytes.size(),
                static_cast<unsigned long long>(Fnv1a(buffer.bytes)));
    for (uint32_t i = 0; i < cl.print_words && 4 * i + 4 <= buffer.bytes.size(); ++i) {
      uint32_t word;
      std::memcpy(&word, buffer.bytes.data() + 4 * i, 4);
      std::printf("%s%u", i % 8 ? " " : "  ", word);
      if (i % 8 == 7 || i + 1 == cl.print_words) std::printf("\n");
    }
    for (const auto& [key, path] : cl.dumps)
      if (key.first == buffer.set && key.second == buffer.binding &&
          !WriteBytes(path, buffer.bytes, error))
        return false;
  }
  return true;
}

bool Run(CommandLine& cl, std::string* error) {
  std::vector<uint32_t> words;
  if (!LoadShader(cl, &words, error)) return false;
  std::unique_ptr<Context> context = Context::Create(cl.device, error);
  if (!context) return false;
  std::printf("device: %s\n", context->DeviceName().c_str());
  std::printf("robust buffer access: %s\n", context->RobustBufferAccess2()  ? "robustBufferAccess2"
                                            : context->RobustBufferAccess() ? "robustBufferAccess"
                                                                            : "off");
  std::optional<ShaderInterface> interface =
      ReadShaderInterface(words, cl.compute.shader.entry_point, error);
  if (!interface) return false;
  if (cl.has_auto_buffers) AddAutomaticBuffers(*interface, cl, &cl.compute.buffers);
  cl.compute.shader.spirv = words;
  if (interface->stage != ShaderStage::kFragment) {
    ComputeResult result;
    if (!context->RunCompute(cl.compute, &result, error)) return false;
    PrintTiming(result.timing);
    return PrintBuffers(cl, result.buffers, error);
  }
  FragmentRun& run = cl.fragment;
  run.shader = cl.compute.shader;
  run.buffers = cl.compute.buffers;
  run.push_constants = cl.compute.push_constants;
  run.repetitions = cl.compute.repetitions;
  run.warmup_runs = cl.compute.warmup_runs;
  run.time_budget_ms = cl.compute.time_budget_ms;
  FragmentResult result;
  if (!context->RunFragment(run, &result, error)) return false;
  PrintTiming(result.timing);
  std::printf("image %ux%u: fnv1a64 %016llx\n", result.image.width, result.image.height,
              static_cast<unsigned long long>(Fnv1a(result.image.pixels)));
  if (!cl.png.empty() && !WritePng(result.image, cl.png, error)) return false;
  return PrintBuffers(cl, result.buffers, error);
}

}  // namespace

int main(int argc, char** argv) {
  CommandLine cl;
  if (!ParseCommandLine(argc, argv, &cl)) return 2;
  std::string error;
  if (!Run(cl, &error)) {
    std::fprintf(stderr, "glint-run: ERROR: %s\n", error.c_str());
    return 1;
  }
  return 0;
}
