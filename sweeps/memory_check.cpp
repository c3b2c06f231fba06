#include "sweeps/memory_check.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <functional>
#include <optional>
#include <vector>

#include "analysis/exact.hpp"
#include "io/errors.hpp"

namespace cosda {
namespace {

// Bytes a point needs while measured: a bound, the exact forms' peak elements doubled for buffers.
double point_memory_bytes(const Point& p) {
  const std::optional<Cost> c = exact::evaluate_block(p);
  // No closed form: bound by the largest state any variant keeps.
  const double elements =
      c ? double(c->peak + c->valley) : double(p.n) * double(p.n) + 4.0 * double(p.n) * double(p.d);
  return 2.0 * double(p.layers) * elements * 8.0 + 4.0 * double(p.n) * double(p.d) * 8.0;
}

}  // namespace

void check_memory(const SweepConfig& c, const Shard& shard, int jobs, double available_bytes) {
  if (available_bytes <= 0) return;
  const std::vector<Point> points = grid_points(c);
  std::vector<std::pair<double, std::size_t>> need;
  for (std::size_t i = 0; i < points.size(); ++i)
    if (shard.holds(i) && skip_reason(points[i]).empty())
      need.emplace_back(point_memory_bytes(points[i]), i);
  std::sort(need.begin(), need.end(), std::greater<>());
  double together = 0;
  for (std::size_t i = 0; i < need.size() && i < std::size_t(std::max(jobs, 1)); ++i)
    together += need[i].first;
  if (need.empty() || together <= available_bytes) return;
  auto size = [](double bytes) {
    const double mib = bytes / (1024.0 * 1024.0);
    return mib < 1024.0 ? fmt::format("{:.1f} MiB", mib) : fmt::format("{:.1f} GiB", mib / 1024);
  };
  throw InputError(fmt::format(
      "{}: point {} needs about {} and the {} largest points at once {}, but {} are available; "
      "lower n or d in the config, run fewer --jobs, or raise --memory-limit",
      c.source, fmt::streamed(points[need.front().second]), size(need.front().first),
      std::min<std::size_t>(need.size(), std::size_t(std::max(jobs, 1))), size(together),
      size(available_bytes)));
}

}  // namespace cosda
