// Joining the folders of `cosda sweep CONFIG --shard K/N`, K = 1..N, into the rows one
// unsharded sweep would have written.
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

// Reads each folder's meta.json and points.csv. Throws InputError (one line, "cosda merge:
// ...") for shards of different configs or shardings, a shard given twice or missing, and
// rows outside their slice, repeated or missing, and rows that break a row's invariants
// (row_defect(), sweeps/journal.hpp), naming the file and line.
MergedSweep merge_shards(const std::vector<std::string>& dirs);

}  // namespace cosda
