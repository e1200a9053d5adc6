#include "lattice.h"

namespace glint::audit {
namespace {

uint64_t Product(const std::array<uint32_t, 3>& counts) {
  return uint64_t{counts[0]} * counts[1] * counts[2];
}

// Maximal runs of consecutive positions, as (first, length).
std::vector<std::pair<uint32_t, uint32_t>> Runs(const std::vector<uint32_t>& positions) {
  std::vector<std::pair<uint32_t, uint32_t>> runs;
  for (uint32_t position : positions) {
    if (!runs.empty() && runs.back().first + runs.back().second == position) {
      ++runs.back().second;
    } else {
      runs.push_back({position, 1});
    }
  }
  return runs;
}

// The dimension whose sampling is coarsest (largest gap between neighbours) among
// those that can take one more position within the budget; -1 when none can.
int CoarsestGrowableDimension(const Groups& grid, const std::array<uint32_t, 3>& counts,
                              uint64_t budget) {
  int best = -1;
  double best_gap = 0;
  for (int d = 0; d < 3; ++d) {
    if (counts[d] >= grid[d]) continue;
    std::array<uint32_t, 3> grown = counts;
    ++grown[d];
    if (Product(grown) > budget) continue;
    double gap = counts[d] <= 1 ? grid[d] : double(grid[d] - 1) / (counts[d] - 1);
    if (best < 0 || gap > best_gap) best = d, best_gap = gap;
  }
  return best;
}

}  // namespace

std::vector<uint32_t> EvenlySpaced(uint32_t size, uint32_t count) {
  if (count <= 1) return {0};
  std::vector<uint32_t> positions;
  const uint64_t span = size - 1, steps = count - 1;
  // Rounded to nearest; strictly increasing because the spacing is at least 1.
  for (uint64_t i = 0; i < count; ++i)
    positions.push_back(static_cast<uint32_t>((i * span + steps / 2) / steps));
  return positions;
}

uint64_t Lattice::GroupCount() const {
  return uint64_t{positions[0].size()} * positions[1].size() * positions[2].size();
}

uint64_t Lattice::GridGroupCount() const { return Product(grid); }

std::vector<GroupBox> Lattice::Boxes() const {
  std::vector<GroupBox> boxes;
  auto x_runs = Runs(positions[0]), y_runs = Runs(positions[1]), z_runs = Runs(positions[2]);
  for (auto [z, z_count] : z_runs)
    for (auto [y, y_count] : y_runs)
      for (auto [x, x_count] : x_runs) boxes.push_back({{x, y, z}, {x_count, y_count, z_count}});
  return boxes;
}

bool ChooseLattice(const Groups& grid, uint64_t group_budget, Lattice* lattice,
                   std::string* error) {
  if (grid[0] == 0 || grid[1] == 0 || grid[2] == 0) {
    *error = "the dispatch has no groups (a dimension is 0)";
    return false;
  }
  // The corners: first and last along every dimension that has two.
  std::array<uint32_t, 3> counts;
  for (int d = 0; d < 3; ++d) counts[d] = grid[d] >= 2 ? 2 : 1;
  if (Product(counts) > group_budget) {
    *error = "group budget " + std::to_string(group_budget) + " is smaller than the " +
             std::to_string(Product(counts)) + " corner groups of the grid; 0 groups ran";
    return false;
  }
  for (int d; (d = CoarsestGrowableDimension(grid, counts, group_budget)) >= 0;) ++counts[d];
  lattice->grid = grid;
  for (int d = 0; d < 3; ++d) lattice->positions[d] = EvenlySpaced(grid[d], counts[d]);
  return true;
}

}  // namespace glint::audit
