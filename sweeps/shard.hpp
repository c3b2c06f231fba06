// Slices of a sweep's grid, run apart (cosda sweep --shard K/N) and joined by cosda merge.
#pragma once

#include <cstddef>
#include <string>

namespace cosda {

// The K-th (1-based) of N disjoint slices of a grid: the points whose grid_points() index i
// has i % N == K - 1, so every slice gets a share of the cheap and of the expensive points.
struct Shard {
  int k = 1, n = 1;
  bool whole() const { return n == 1; }
  bool holds(std::size_t index) const { return int(index % std::size_t(n)) == k - 1; }
};
// Parses "K/N" (1 <= K <= N); throws InputError naming --shard otherwise.
Shard parse_shard(const std::string& text);

}  // namespace cosda
