// The corpus suite's folder and manifests (docs/CORPUS.md). This file alone is compiled
// with GLINT_CORPUS_DIR (gtests/CMakeLists.txt, from CMake's GLINT_CORPUS), so that
// choosing a corpus rebuilds one file, not every suite.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <sstream>

#include "test_support.h"

namespace glint::test {

std::string CorpusRoot() { return GLINT_CORPUS_DIR; }

namespace {

std::vector<std::string> ManifestFolders(const std::string& root) {
  std::vector<std::string> folders;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(root, error))
    if (std::filesystem::is_regular_file(entry.path() / "OK_manifest.tsv"))
      folders.push_back(entry.path().filename().string());
  std::sort(folders.begin(), folders.end());
  return folders;
}

}  // namespace

uint64_t CorpusManifestDigest() {
  uint64_t hash = 1469598103934665603ull;  // FNV-1a over folder names and manifest texts
  for (const std::string& folder : ManifestFolders(CorpusRoot())) {
    std::string text = folder + '\0' + ReadFile(CorpusRoot() + "/" + folder + "/OK_manifest.tsv");
    for (unsigned char c : text) hash = (hash ^ c) * 1099511628211ull;
  }
  return hash;
}

std::vector<CorpusShader> ReadCorpusManifests() {
  std::vector<CorpusShader> shaders;
  const std::string corpus = CorpusRoot();
  if (corpus.empty()) {
    ADD_FAILURE() << "no corpus: configure with -DGLINT_CORPUS=DIR (docs/CORPUS.md)";
    return shaders;
  }
  std::vector<std::string> folders = ManifestFolders(corpus);
  if (folders.empty()) ADD_FAILURE() << "no <folder>/OK_manifest.tsv under " << corpus;
  for (const std::string& folder : folders) {
    const std::string root = corpus + "/" + folder + "/";
    std::istringstream manifest(ReadFile(root + "OK_manifest.tsv"));
    for (std::string row; std::getline(manifest, row);) {
      if (row.empty() || row[0] == '#') continue;
      std::istringstream fields(row);
      CorpusShader shader;
      std::string path, validity;
      std::getline(fields, path, '\t');
      std::getline(fields, shader.stage, '\t');
      std::getline(fields, shader.manifest_env, '\t');
      std::getline(fields, validity, '\t');
      shader.folder = folder;
      shader.path = root + path;
      shader.glslang_valid = validity == "valOK";
      if (std::filesystem::is_regular_file(shader.path))
        shaders.push_back(shader);
      else
        ADD_FAILURE() << folder << "/OK_manifest.tsv names a missing file: " << path;
    }
  }
  return shaders;
}

}  // namespace glint::test
