// The words Glint uses when a compile in a helper process (glslangValidator's child,
// the glint-compile worker) ends abnormally, so the command line and the library say
// the same thing: "internal error in glslang 12 (signal SIGSEGV) while compiling".
#ifndef GLINT_GLSLANG_WORKER_CRASH_MESSAGE_H
#define GLINT_GLSLANG_WORKER_CRASH_MESSAGE_H

#include <string>

namespace glint {

// "SIGSEGV", "SIGABRT", ... for the signals a crash or a limit raises; "signal N" for
// any other.
std::string SignalName(int signal_number);

// "internal error in glslang 12 (signal SIGSEGV) while compiling".
std::string InternalErrorMessage(int signal_number);

}  // namespace glint

#endif  // GLINT_GLSLANG_WORKER_CRASH_MESSAGE_H
