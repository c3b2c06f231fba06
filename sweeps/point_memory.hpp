// The memory bound of one `cosda count` or `cosda stream` point, checked before it runs so an
// infeasible size is an InputError naming the flags instead of std::bad_alloc minutes later.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "analysis/measure.hpp"
#include "sweeps/args.hpp"
#include "sweeps/run_checks.hpp"

namespace cosda {

// Bytes the kernels of `p` hold at their peak: the exact forms' peak elements of one plain block
// times `scalar_bytes` and the layers; a bound, as a second block is never larger and the
// stabilised mode keeps the same buffers. nullopt when no form covers the point.
std::optional<double> kernel_peak_bytes(const Point& p, double scalar_bytes);

// MemAvailable in bytes, else sysconf's free pages; 0 when unknown.
double available_memory_bytes();

// --memory-limit in bytes, by default available_memory_bytes().
inline double memory_limit_bytes(const Args& a) {
  return a.bytes("memory-limit").value_or(available_memory_bytes());
}

// InputError in `s`'s names (CLI: "cosda count: --n ..."; Python: "n ...") if `need_bytes` >
// `limit_bytes` (> 0), naming the sizes and the ways out (`tokens` > 0: a stream of that many,
// whose outputs count). Python has no --memory-limit.
void check_point_memory(const Spelling& s, const Point& p, double need_bytes, double limit_bytes,
                        std::int64_t tokens = 0);

}  // namespace cosda
