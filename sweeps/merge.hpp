// The folders of `cosda sweep CONFIG --shard K/N`, K = 1..N, joined into one unsharded sweep.
#pragma once

#include <string>
#include <vector>

#include "sweeps/config.hpp"
#include "sweeps/points.hpp"

namespace cosda {

struct MergedSweep {
  SweepConfig config;          // parsed from the shards' meta.json
  std::vector<SweepRow> rows;  // every grid point, in grid order
  int shards = 0;
};

// Reads each folder's meta.json and points.csv. InputError ("cosda merge: ...") for shards of
// other configs or shardings, a shard twice or missing, and rows outside their slice, repeated,
// missing or failing row_defect() (naming file and line).
MergedSweep merge_shards(const std::vector<std::string>& dirs);

}  // namespace cosda
