#include "glslang/worker/crash_message.h"

#include <csignal>

namespace glint {

std::string SignalName(int signal_number) {
  switch (signal_number) {
    case SIGSEGV:
      return "SIGSEGV";
    case SIGBUS:
      return "SIGBUS";
    case SIGABRT:
      return "SIGABRT";
    case SIGILL:
      return "SIGILL";
    case SIGFPE:
      return "SIGFPE";
    case SIGKILL:
      return "SIGKILL";
    case SIGXCPU:
      return "SIGXCPU";
    case SIGTERM:
      return "SIGTERM";
    case SIGTRAP:
      return "SIGTRAP";
    case SIGSYS:
      return "SIGSYS";
  }
  return "signal " + std::to_string(signal_number);
}

std::string InternalErrorMessage(int signal_number) {
  return "internal error in glslang 12 (signal " + SignalName(signal_number) + ") while compiling";
}

}  // namespace glint
