// Reading glslc's inputs (input_files.h).
#include "input_files.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <sys/stat.h>

namespace glint::glslc {

bool ReadInputFile(const std::string& path, std::string* text, std::string* why) {
  why->clear();
  if (path == "-") {
    std::ostringstream all;
    all << std::cin.rdbuf();
    *text = all.str();
    return true;
  }
  // A directory opens but cannot be read (glslc aborts there); say so instead.
  struct stat info;
  if (stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode)) {
    *why = ": Is a directory";
    return false;
  }
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    if (access(path.c_str(), R_OK) != 0) *why = std::string(": ") + std::strerror(errno);
    return false;
  }
  text->assign(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
  return !file.bad();
}

std::string DisplayName(const std::string& path) { return path == "-" ? "<stdin>" : path; }

}  // namespace glint::glslc
