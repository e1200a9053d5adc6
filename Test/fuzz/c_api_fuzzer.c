/*
 * libFuzzer target: Glint's C API (glint/glint_c.h), written in C as its users write it,
 * so enum arguments may hold any int, as they may in C.
 *
 * Header byte 0 bit 64 (SPIR-V mode) claims a word count past the buffer and over
 * GLINT_MAX_MODULE_WORDS (or near SIZE_MAX, by byte 14's low bit): it must be refused
 * without a word being read.
 *
 * Input layout (make_seeds.py writes seeds in it):
 *   bytes 0..15   the header below: flags, option values and enum selectors
 *   bytes 16..    glint_process_spirv: the SPIR-V words;
 *                 glint_compile_glsl: the entry point name and the file name, each
 *                 NUL-terminated (missing ones are empty strings)
 * An enum selector byte picks a value in [-1, count] (both ends out of range) or, from
 * 0xF0 up, one of a few far-out ints; every setter must return 1 exactly for a value of
 * its enum and 0 otherwise, and leave the options usable either way.
 *
 * The GLSL sources are a fixed set (below), chosen by a header byte: the text of a GLSL
 * compile is fuzzed by glsl_isolated_fuzzer through the isolating entry point, because
 * glslang 12 itself crashes on some inputs and this entry point runs it in-process.
 *
 * Checked on every call: a result comes back; succeeded is 0 or 1; a failure has no
 * SPIR-V and at least one error diagnostic; a success has SPIR-V and no error; every
 * accessor, in and out of range, returns what glint_c.h promises, and every string it
 * returns is readable (ASan sees each byte through strlen).
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "glint/glint_c.h"

enum {
  kHeaderSize = 16,
  kNullOptions = 1,
  kGlsl = 2,
  kDebugInfo = 4,
  kNullEntryPoint = 8,
  kNullFileName = 16,
  kNullInput = 32,
  kCountPastTheBuffer = 64
};

static void Broken(const char* property) {
  fprintf(stderr, "c_api_fuzzer: broken property: %s\n", property);
  fflush(stderr);
  abort();
}

static void Check(int holds, const char* property) {
  if (!holds) Broken(property);
}

static const int kFarOut[] = {INT_MIN, -77, 6,   7,    77, 255, 256, 65536,
                              INT_MAX, -2,  100, 1000, 12, 13,  42,  99};

/* Maps a selector byte to an int around an enum of `count` values (0 .. count-1). */
static int Selected(uint8_t selector, int count) {
  if (selector >= 0xF0) return kFarOut[selector - 0xF0];
  return selector % (count + 2) - 1;
}

/* Each setter must accept exactly its enum's values. */
static void SetOptions(glint_options_t* options, const uint8_t* h) {
  int v;
  uint32_t subgroup;
  Check(glint_options_set_hoist_constant_tables(options, h[1]) == 1, "hoist setter");
  Check(glint_options_set_robust_access(options, h[2]) == 1, "robust setter");
  Check(glint_options_set_collect_ranges(options, h[3]) == 1, "collect setter");
  Check(glint_options_set_validate(options, h[4]) == 1, "validate setter");
  v = Selected(h[5], 3);
  Check(glint_options_set_range_analysis(options, (glint_range_analysis_t)v) == (v >= 0 && v < 3),
        "range-analysis setter accepts exactly its enum");
  v = Selected(h[6], 4);
  Check(glint_options_set_uniformity(options, (glint_severity_t)v) == (v >= 0 && v < 4),
        "uniformity setter accepts exactly its enum");
  v = Selected(h[7], 7);
  Check(glint_options_set_target_env(options, (glint_target_env_t)v) == (v >= 0 && v < 7),
        "target-env setter accepts exactly its enum");
  subgroup = h[9] == 0xFF ? UINT32_MAX : h[9];
  Check(glint_options_set_subgroup_size(options, subgroup) ==
            (subgroup <= 128 && (subgroup & (subgroup - 1)) == 0),
        "subgroup setter accepts exactly 0 and the powers of two up to 128");
  Check(glint_options_set_max_workgroups(options, h[9], h[9], h[13] == 0xFF ? UINT32_MAX : 1) ==
            (h[9] != 0),
        "max-workgroups setter refuses a mix of 0 and not");
  for (uint8_t i = 0; i < h[10] % 4; ++i)
    Check(glint_options_set_spec_constant(options, i * h[11], (uint64_t)h[12] << (8 * i)) == 1,
          "spec-constant setter");
}

static void CheckNullHandles(void) {
  Check(glint_options_set_robust_access(NULL, 1) == 0, "setter on NULL options");
  Check(glint_options_set_target_env(NULL, GLINT_TARGET_VULKAN_1_0) == 0, "setter on NULL options");
  Check(glint_result_succeeded(NULL) == 0 && glint_result_spirv(NULL) == NULL &&
            glint_result_report(NULL) == NULL && glint_report_diagnostic_count(NULL) == 0,
        "accessors on NULL");
}

static void ReadString(const char* text, const char* property) {
  Check(text != NULL, property);
  (void)strlen(text);
}

static void CheckDiagnostics(const glint_report_t* report) {
  size_t count = glint_report_diagnostic_count(report), i, r;
  glint_diagnostic_t d;
  for (i = 0; i < count; ++i) {
    Check(glint_report_diagnostic(report, i, &d) == 1, "diagnostic in range");
    Check(d.severity >= GLINT_SEVERITY_OFF && d.severity <= GLINT_SEVERITY_ERROR, "severity");
    ReadString(d.origin, "origin");
    ReadString(d.file, "file");
    ReadString(d.message, "message");
    ReadString(d.text, "text");
    for (r = 0; r < d.reason_count; ++r)
      ReadString(glint_report_diagnostic_reason(report, i, r), "reason");
    Check(glint_report_diagnostic_reason(report, i, d.reason_count) == NULL, "reason past the end");
  }
  Check(glint_report_diagnostic(report, count, &d) == 0, "diagnostic past the end");
  Check(glint_report_diagnostic(report, 0, NULL) == 0, "diagnostic into NULL");
}

static void CheckRecords(const glint_report_t* report) {
  size_t i, count = glint_report_access_count(report);
  glint_access_record_t a;
  glint_pass_statistic_t p;
  for (i = 0; i < count; ++i) {
    Check(glint_report_access(report, i, &a) == 1, "access in range");
    ReadString(a.file, "access file");
    ReadString(a.instruction, "access instruction");
    ReadString(a.object, "access object");
    ReadString(a.reason, "access reason");
    ReadString(a.verdict, "access verdict");
  }
  Check(glint_report_access(report, count, &a) == 0, "access past the end");
  count = glint_report_pass_count(report);
  for (i = 0; i < count; ++i) {
    Check(glint_report_pass(report, i, &p) == 1, "pass in range");
    ReadString(p.pass, "pass name");
  }
  Check(glint_report_pass(report, count, &p) == 0, "pass past the end");
}

static void CheckResult(const glint_result_t* result) {
  const glint_report_t* report;
  int succeeded;
  if (!result) Broken("a result comes back (memory did not run out here)");
  succeeded = glint_result_succeeded(result);
  report = glint_result_report(result);
  Check(report != NULL, "a result has a report");
  if (succeeded) {
    Check(glint_result_spirv_size(result) > 0 && glint_result_spirv(result) != NULL,
          "success has SPIR-V");
    Check(!glint_report_has_errors(report), "success has no error");
  } else {
    Check(glint_result_spirv_size(result) == 0 && glint_result_spirv(result) == NULL,
          "failure has no SPIR-V");
    Check(glint_report_has_errors(report), "failure says why");
  }
  CheckDiagnostics(report);
  CheckRecords(report);
}

/* Small shaders, one per stage, and two that glslang refuses. */
static const char* const kSources[] = {
    "#version 450\nlayout(location=0) in vec4 p;\nvoid main() { gl_Position = p; }\n",
    "#version 450\nlayout(vertices=3) out;\nvoid main() { gl_TessLevelOuter[gl_InvocationID] = "
    "1.0; }\n",
    "#version 450\nlayout(triangles) in;\nvoid main() { gl_Position = gl_in[0].gl_Position; }\n",
    "#version 450\nlayout(points) in;\nlayout(points, max_vertices=1) out;\nvoid main() { "
    "EmitVertex(); }\n",
    "#version 450\nlayout(location=0) in flat int i;\nlayout(location=0) out vec4 c;\n"
    "const float t[4] = float[4](0.1, 0.2, 0.3, 0.4);\n"
    "void main() { c = vec4(t[i]); if (dFdx(c.x) > 0.0) discard; }\n",
    "#version 450\nlayout(local_size_x=8) in;\nlayout(std430, binding=0) buffer B { uint d[]; };\n"
    "shared uint s[8];\nvoid main() { uint i = gl_LocalInvocationID.x; s[i] = d[i];\n"
    "  if (d[0] > 3u) barrier();\n  d[gl_GlobalInvocationID.x + 1u] = s[i ^ 1u]; }\n",
    "#version 450\nvoid main() { undeclared = 1; }\n",
    "not GLSL at all {",
};

/* The entry point and file name strings that follow the header. */
static const char* NextString(const uint8_t** at, const uint8_t* end, char* buffer, size_t room) {
  size_t n = 0;
  while (*at < end && **at != 0 && n + 1 < room) buffer[n++] = (char)*(*at)++;
  if (*at < end) ++*at;
  buffer[n] = 0;
  return buffer;
}

static glint_result_t* CompileGlsl(const uint8_t* h, const uint8_t* rest, const uint8_t* end,
                                   const glint_options_t* options) {
  char entry[64], file[64];
  glint_glsl_input_t input;
  const uint8_t* at = rest;
  memset(&input, 0, sizeof input);
  input.source = kSources[h[13] % (sizeof kSources / sizeof kSources[0])];
  input.stage = (glint_stage_t)Selected(h[8], 6);
  input.entry_point = NextString(&at, end, entry, sizeof entry);
  input.file_name = NextString(&at, end, file, sizeof file);
  if (h[0] & kNullEntryPoint) input.entry_point = NULL;
  if (h[0] & kNullFileName) input.file_name = NULL;
  input.generate_debug_info = (h[0] & kDebugInfo) != 0;
  return glint_compile_glsl((h[0] & kNullInput) ? NULL : &input, options);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const uint8_t* h = data;
  glint_options_t* options = NULL;
  glint_result_t* result;
  if (size < kHeaderSize) return 0;
  CheckNullHandles();
  if (!(h[0] & kNullOptions)) {
    options = glint_options_create();
    Check(options != NULL, "options are created");
    SetOptions(options, h);
  }
  if (h[0] & kGlsl) {
    result = CompileGlsl(h, data + kHeaderSize, data + size, options);
  } else {
    size_t count = (size - kHeaderSize) / 4;
    uint32_t* words = (uint32_t*)malloc(count ? count * 4 : 4);
    Check(words != NULL, "memory for the words");
    memcpy(words, data + kHeaderSize, count * 4);
    if (h[0] & kCountPastTheBuffer) {
      /* A count the buffer does not back, over the module limit: refused before any word
       * is read (ASan sees a read past the buffer), near SIZE_MAX too (no wrap). */
      size_t claimed = (h[14] & 1) ? SIZE_MAX - h[15] : (size_t)GLINT_MAX_MODULE_WORDS + 1 + h[15];
      result = glint_process_spirv(words, claimed, options);
      Check(result != NULL && !glint_result_succeeded(result),
            "a count over the module limit is refused");
    } else {
      result = glint_process_spirv(words, count, options);
    }
    free(words);
  }
  CheckResult(result);
  glint_result_free(result);
  glint_options_free(options);
  return 0;
}
