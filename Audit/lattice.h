// The lattice of workgroups an audit runs (docs/AUDIT_LATTICE.md says why these):
// along each dimension the first and the last group and as many evenly spaced between
// as the group budget allows, then every combination of those positions. The corners
// of the grid are always in it. When the whole grid fits the budget, the lattice is the
// whole grid (and the audit runs it as one ordinary dispatch).
//
// Refuses (false + message naming the budget) a budget smaller than the corners, and a
// grid with a zero dimension.
#ifndef GLINT_AUDIT_LATTICE_H
#define GLINT_AUDIT_LATTICE_H

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace glint::audit {

using Groups = std::array<uint32_t, 3>;

// A box of contiguous groups: one vkCmdDispatchBase(base, count).
struct GroupBox {
  Groups base = {0, 0, 0};
  Groups count = {1, 1, 1};
  uint64_t GroupCount() const { return uint64_t{count[0]} * count[1] * count[2]; }
};

struct Lattice {
  Groups grid = {1, 1, 1};
  std::array<std::vector<uint32_t>, 3> positions;  // sampled group ids, ascending

  uint64_t GroupCount() const;      // sampled groups: the product of positions' sizes
  uint64_t GridGroupCount() const;  // all groups of the grid
  bool IsWholeGrid() const { return GroupCount() == GridGroupCount(); }
  // The sampled groups as few boxes as contiguous runs allow (runs per dimension,
  // every combination), in x-fastest order.
  std::vector<GroupBox> Boxes() const;
};

bool ChooseLattice(const Groups& grid, uint64_t group_budget, Lattice* lattice, std::string* error);

// `count` evenly spaced positions in [0, size - 1], first and last included
// (count <= size; count 1 gives {0}).
std::vector<uint32_t> EvenlySpaced(uint32_t size, uint32_t count);

}  // namespace glint::audit

#endif  // GLINT_AUDIT_LATTICE_H
