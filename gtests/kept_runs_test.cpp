// Tests of KeptRuns (SPIRV/analysis/facts/kept_runs.h): every run reads back what was kept,
// however many chunks the runs after it needed.
#include "SPIRV/analysis/facts/kept_runs.h"

#include <gtest/gtest.h>

#include <vector>

namespace glint::spirv {
namespace {

TEST(KeptRuns, RunsStayWhereTheyWereKeptAcrossChunks) {
  KeptRuns<uint32_t> kept;
  std::vector<std::vector<uint32_t>> lists;
  std::vector<KeptRun<uint32_t>> runs;
  for (uint32_t n = 0; n < 3000; ++n) {  // several chunks of kChunkElements
    std::vector<uint32_t> list;
    for (uint32_t k = 0; k < n % 7; ++k) list.push_back(n * 10 + k);
    lists.push_back(list);
    runs.push_back(kept.Keep(list));
  }
  std::vector<uint32_t> large(3 * KeptRuns<uint32_t>::kChunkElements + 5, 9u);
  KeptRun<uint32_t> large_run = kept.Keep(large);  // larger than a chunk: one of its own
  for (size_t i = 0; i < lists.size(); ++i) {
    ASSERT_EQ(runs[i].size(), lists[i].size()) << i;
    EXPECT_EQ(runs[i].empty(), lists[i].empty());
    EXPECT_EQ(runs[i].ToVector(), lists[i]) << i;
  }
  EXPECT_EQ(large_run.ToVector(), large);
  EXPECT_EQ(large_run.front(), 9u);
  EXPECT_EQ(large_run.back(), 9u);
  KeptRun<uint32_t> none = kept.Keep({});
  EXPECT_TRUE(none.empty());
  EXPECT_EQ(none.begin(), none.end());
}

}  // namespace
}  // namespace glint::spirv
