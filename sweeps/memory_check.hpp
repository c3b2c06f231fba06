// Whether a sweep's largest points fit in memory together, checked before anything runs.
#pragma once

#include "analysis/measure.hpp"
#include "sweeps/config.hpp"
#include "sweeps/shard.hpp"

namespace cosda {

// InputError naming the largest point if the `jobs` largest do not fit in `available_bytes`.
void check_memory(const SweepConfig& c, const Shard& shard, int jobs, double available_bytes);

}  // namespace cosda
