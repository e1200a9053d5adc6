// glslc's diagnostics: glslang's info logs rewritten line by line into glslc's form
// ("file:line: error: message"), warnings dropped or promoted (-w, -Werror), errors and
// warnings counted for the summary line ("1 warning and 2 errors generated.") that glslc
// prints after all inputs. The rules are those of shaderc 2023.2's glslc (the behaviour of
// Debian's /usr/bin/glslc, which the tests compare with).
#ifndef GLINT_GLSLC_MESSAGES_H
#define GLINT_GLSLC_MESSAGES_H

#include <cstddef>
#include <string>

namespace glint::glslc {

// What -w and -Werror ask.
struct WarningPolicy {
  bool suppress = false;  // -w (and -M): every warning is dropped, not counted
  bool as_errors = false; // -Werror: every warning that is kept becomes an error
};

// The counts over every input of one run.
struct MessageCounts {
  size_t warnings = 0;
  size_t errors = 0;
};

// Rewrites one glslang info log for the input whose display name is `name` (the path as
// given, or "<stdin>"): appends the lines glslc prints to `out` and adds what it counts
// to `counts`. Returns the number of errors counted from this log (a pass fails when it
// is not zero, or glslang said so).
//   - ignored lines: empty ones, glslang's "Warning, version N is not yet complete; ..."
//     for N in 310 400 410 420 430 440 450, and "Linked <stage> stage:";
//   - "ERROR: " / "WARNING: " lines: the location "SOURCE:LINE: " found as glslc finds it
//     (the first two colons with only digits between them and a space after the second),
//     printed "SOURCE:LINE: error: MESSAGE" (SOURCE "-1" is "<command line>"); without a
//     location "NAME: error: MESSAGE", except glslang's "N compilation errors." summary,
//     which is dropped;
//   - "Warning, " lines (global warnings): "NAME: warning: REST";
//   - any other line: "NAME: " and the line, not counted.
size_t RewriteGlslangLog(const std::string& log, const std::string& name,
                         const WarningPolicy& policy, std::string* out, MessageCounts* counts);

// The summary line after all inputs ("" when nothing was counted), with its newline:
// "2 warnings generated.", "1 error generated.", "3 warnings and 1 error generated.".
std::string SummaryLine(const MessageCounts& counts);

}  // namespace glint::glslc

#endif  // GLINT_GLSLC_MESSAGES_H
