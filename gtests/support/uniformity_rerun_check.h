// Checks that the uniformity solver's passing over of blocks whose reads did not rise
// (SPIRV/analysis/uniformity/fact_reads.h) is exact: the same facts with the same causes,
// rounds and call-context runs as running every block in every round. Used by the
// fact-reads suite on its own shaders, by the relevance suite on its shaders, and by the
// corpus suite on every corpus shader.
#ifndef GLINT_GTESTS_SUPPORT_UNIFORMITY_RERUN_CHECK_H
#define GLINT_GTESTS_SUPPORT_UNIFORMITY_RERUN_CHECK_H

#include <cstdint>
#include <string>

#include "SPIRV/ir/module.h"

namespace glint::test {

struct RerunComparison {
  std::string difference;       // empty when the two agree; else the first difference
  uint64_t passes_tracked = 0;  // block passes, passing over unchanged blocks
  uint64_t passes_every = 0;    // block passes, every block in every round
  uint64_t facts_compared = 0;  // values, blocks, loads, functions and memory roots
};

// Solves every entry point of `module` twice, with and without
// UniformityOptions::rerun_every_block, once for the facts findings can depend on and
// once for every fact, and compares each solver's outcome (refusal, rounds, call-context
// runs and most rounds) and every fact with its cause: each value, block (with and
// without call sites), followed load, function return and kill, and memory root.
RerunComparison CompareRerunEveryBlock(spirv::Module& module);

}  // namespace glint::test

#endif  // GLINT_GTESTS_SUPPORT_UNIFORMITY_RERUN_CHECK_H
