// The memory bound of one `cosda count` or `cosda stream` point, checked before it runs so an
// infeasible size is an InputError naming the flags instead of std::bad_alloc minutes later.
#pragma once

#include <optional>
#include <string_view>

#include "analysis/measure.hpp"
#include "sweeps/args.hpp"

namespace cosda {

// Bytes the kernels of `p` hold at their peak: the exact forms' peak elements of one plain block
// times `scalar_bytes` and the layers; a bound, as a second block is never larger and the
// stabilised mode keeps the same buffers. nullopt when no form covers the point.
std::optional<double> kernel_peak_bytes(const Point& p, double scalar_bytes);

// --memory-limit in bytes, by default MemAvailable, else sysconf's free pages; 0 when unknown.
double memory_limit_bytes(const Args& a);

// InputError led by `command` if `need_bytes` > `limit_bytes` (> 0), naming sizes and ways out.
void check_point_memory(std::string_view command, const Point& p, double need_bytes,
                        double limit_bytes);

}  // namespace cosda
