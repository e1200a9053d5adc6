// Initial buffer contents: zeros, given bytes, a file, or a pattern from a seed
// (splitmix64, so a seed gives the same bytes on every machine).
#include <cstring>
#include <fstream>
#include <iterator>

#include "vk_runner.h"

namespace glint::vk {

BufferContents BufferContents::Zeros() { return BufferContents{}; }

BufferContents BufferContents::Bytes(std::vector<uint8_t> bytes) {
  BufferContents contents;
  contents.source = Source::kBytes;
  contents.bytes = std::move(bytes);
  return contents;
}

BufferContents BufferContents::File(std::string path) {
  BufferContents contents;
  contents.source = Source::kFile;
  contents.path = std::move(path);
  return contents;
}

BufferContents BufferContents::Seeded(uint64_t seed, Pattern pattern) {
  BufferContents contents;
  contents.source = Source::kSeeded;
  contents.seed = seed;
  contents.pattern = pattern;
  return contents;
}

namespace {

uint64_t SplitMix64(uint64_t* state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// One 32-bit word of `pattern`.
uint32_t PatternWord(BufferContents::Pattern pattern, uint64_t* state) {
  uint64_t random = SplitMix64(state);
  switch (pattern) {
    case BufferContents::Pattern::kSmallUints:
      return static_cast<uint32_t>(random % 16);
    case BufferContents::Pattern::kUnitFloats: {
      float value = static_cast<float>(random >> 40) / static_cast<float>(1ull << 24);
      uint32_t word;
      std::memcpy(&word, &value, sizeof(word));
      return word;
    }
    case BufferContents::Pattern::kBytes:
      break;
  }
  return static_cast<uint32_t>(random);
}

}  // namespace

bool FillContents(const BufferContents& contents, uint64_t size, std::vector<uint8_t>* bytes,
                  std::string* error) {
  switch (contents.source) {
    case BufferContents::Source::kZeros:
      bytes->assign(size, 0);
      return true;
    case BufferContents::Source::kBytes:
      *bytes = contents.bytes;
      break;
    case BufferContents::Source::kFile: {
      std::ifstream in(contents.path, std::ios::binary);
      if (!in) {
        *error = "cannot read buffer contents from '" + contents.path + "'";
        return false;
      }
      bytes->assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
      break;
    }
    case BufferContents::Source::kSeeded: {
      uint64_t state = contents.seed;
      bytes->assign(size, 0);
      for (uint64_t offset = 0; offset < size; offset += 4) {
        uint32_t word = PatternWord(contents.pattern, &state);
        std::memcpy(bytes->data() + offset, &word, std::min<uint64_t>(4, size - offset));
      }
      return true;
    }
  }
  // Given bytes or a file: padded with zeros (or cut) to an explicit size.
  if (size) bytes->resize(size, 0);
  return true;
}

uint64_t Fnv1a(const std::vector<uint8_t>& bytes) {
  uint64_t hash = 0xcbf29ce484222325ull;
  for (uint8_t byte : bytes) hash = (hash ^ byte) * 0x100000001b3ull;
  return hash;
}

}  // namespace glint::vk
