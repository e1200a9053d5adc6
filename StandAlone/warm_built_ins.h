// Building glslang's built-in symbol tables once, before isolated children fork.
//
// glslang builds its tables of built-in functions and variables on the first compile
// for each #version / profile and stage (about 85 ms of CPU for GLSL 450) and keeps
// them for the life of the process. A worker forked after they exist inherits them
// copy-on-write; a worker forked before builds them itself, again after every crash,
// and with -t once in each worker. So before the compile-only run forks its workers, the
// parent compiles a trivial shader for each distinct "#version N [profile]" and stage
// among the inputs. This also keeps what glslang prints while it builds them (a
// version whose built-ins do not parse prints "Unable to parse built-ins" and the
// built-in text) to once per run, as glslang's own single process prints it, however
// many workers there are.
//
// Safe to run in the parent: the text compiled is generated here from the version
// number and a known profile word only (never the input's own text), and its result is
// discarded. Unreadable files, anything but a regular file (a FIFO would block), stdin
// and files without a known stage are skipped (the worker reports them as it would). Runs on the calling thread: the parent stays
// single-threaded, as fork requires.
#ifndef GLINT_STANDALONE_WARM_BUILT_INS_H
#define GLINT_STANDALONE_WARM_BUILT_INS_H

#include <optional>
#include <string>
#include <vector>

#include "command_line.h"

namespace glint::standalone {

// "#version 450 core" for a source whose first #version directive says so; nullopt
// when there is none or it is not a plain number with an optional known profile.
std::optional<std::string> VersionLineOf(const std::string& source);

// Compiles one trivial shader per distinct version line and stage of `files` (see
// above).
// Assumes ShInitialize() was called.
void WarmBuiltIns(const CommandLine& line, const std::vector<std::string>& files);

}  // namespace glint::standalone

#endif  // GLINT_STANDALONE_WARM_BUILT_INS_H
