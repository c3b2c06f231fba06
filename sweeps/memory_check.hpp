// Whether a sweep's largest points fit in memory together, checked before anything runs.
#pragma once

#include "analysis/measure.hpp"
#include "sweeps/config.hpp"
#include "sweeps/shard.hpp"

namespace cosda {

// Memory a point needs while it is measured, in bytes: a bound from the exact closed forms
// (peak live elements of every block and head, doubled for the measurement's own buffers).
double point_memory_bytes(const Point& p);
// Throws InputError when the `jobs` largest points of the plan would not fit together in
// `available_bytes`, naming the largest point and the ways out.
void check_memory(const SweepConfig& c, const Shard& shard, int jobs, double available_bytes);
// MemAvailable of /proc/meminfo in bytes (0 when unknown).
double available_memory_bytes();

}  // namespace cosda
