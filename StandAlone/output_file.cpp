#include "output_file.h"

#include <unistd.h>

#include <cstdio>
#include <fstream>

#include <glslang/SPIRV/GlslangToSpv.h>

namespace glint::standalone {

bool WriteAtomically(const std::string& path, const std::function<void(const std::string&)>& write) {
  const std::string temporary = path + ".glint-tmp-" + std::to_string(getpid());
  {
    std::ofstream probe(temporary, std::ios::binary | std::ios::trunc);
    if (!probe) return false;
  }
  write(temporary);
  std::ifstream written(temporary, std::ios::binary);
  if (!written || std::rename(temporary.c_str(), path.c_str()) != 0) {
    std::remove(temporary.c_str());
    return false;
  }
  return true;
}

bool WriteSpirv(const std::string& path, const std::vector<uint32_t>& words, bool hex,
                const char* variable_name) {
  const std::vector<unsigned int> spirv(words.begin(), words.end());
  // glslang's own writers give the exact formats glslangValidator produces.
  return WriteAtomically(path, [&](const std::string& temporary) {
    if (hex) glslang::OutputSpvHex(spirv, temporary.c_str(), variable_name);
    else glslang::OutputSpvBin(spirv, temporary.c_str());
  });
}

}  // namespace glint::standalone
