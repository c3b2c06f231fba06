// The memory bound of one `cosda count` or `cosda stream` point, checked before it runs so an
// infeasible size is an InputError naming the flags instead of std::bad_alloc minutes later.
#pragma once

#include <optional>
#include <string_view>

#include "analysis/measure.hpp"
#include "sweeps/args.hpp"

namespace cosda {

// Bytes the kernels of `p` hold at their peak: the exact closed forms' peak in elements
// (analysis/exact.hpp) times `scalar_bytes`. The forms cover one block without the stabilised
// mode; a two-block point is bounded by its first block's form times the layers (the second
// block is the first's single-output kind or the same variant, never larger), and the
// stabilised mode keeps the same buffers. nullopt when no form covers the point.
std::optional<double> kernel_peak_bytes(const Point& p, double scalar_bytes);

// --memory-limit of `a` in bytes (K, M, G, T suffixes), by default the memory available now:
// MemAvailable of /proc/meminfo, else the free pages sysconf reports; 0 when unknown.
double memory_limit_bytes(const Args& a);

// Throws InputError, led by `command`, when `need_bytes` exceeds `limit_bytes` (> 0): names
// the point, both sizes, and --n/--d/--memory-limit as the ways out.
void check_point_memory(std::string_view command, const Point& p, double need_bytes,
                        double limit_bytes);

}  // namespace cosda
