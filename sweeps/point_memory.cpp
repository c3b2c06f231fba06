#include "sweeps/point_memory.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <fstream>
#include <string>

#include "analysis/exact.hpp"
#include "io/errors.hpp"

namespace cosda {
namespace {

std::string size_text(double bytes) {
  if (bytes < 1024.0) return fmt::format("{:.0f} bytes", bytes);
  const char* unit[] = {"KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  for (bytes /= 1024.0; bytes >= 1024.0 && u < 3; ++u) bytes /= 1024.0;
  return fmt::format("{:.1f} {}", bytes, unit[u]);
}

}  // namespace

std::optional<double> kernel_peak_bytes(const Point& p, double scalar_bytes) {
  if (!skip_reason(p).empty()) return std::nullopt;
  const std::optional<Cost> c = exact::evaluate_block(p);
  if (!c) return std::nullopt;
  return double(c->peak) * scalar_bytes * double(p.layers);
}

double available_memory_bytes() {
  std::ifstream in("/proc/meminfo");
  std::string key, unit;
  double kib = 0;
  while (in >> key >> kib >> unit)
    if (key == "MemAvailable:") return kib * 1024.0;
  const long pages = ::sysconf(_SC_AVPHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? double(pages) * double(page) : 0.0;
}

void check_point_memory(const Spelling& s, const Point& p, double need_bytes, double limit_bytes,
                        std::int64_t tokens) {
  if (limit_bytes <= 0 || need_bytes <= limit_bytes) return;
  throw InputError(s.error(fmt::format(
      "{}{} needs about {} ({}), more than the {} of {}; lower {} or {}{}{}",
      s.cli ? fmt::format("--n {} --d {}", p.n, p.d) : fmt::format("n={}, d={}", p.n, p.d),
      tokens > 0 ? fmt::format(" over {} tokens", tokens) : "", size_text(need_bytes), p.variant,
      size_text(limit_bytes),
      s.cli ? "--memory-limit (default: the memory available now)" : "memory available now",
      s.name("n"), s.name("d"), tokens > 0 ? ", or stream fewer tokens" : "",
      s.cli ? ", or raise --memory-limit" : "")));
}

}  // namespace cosda
