#include "sweeps/memory_check.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <exception>
#include <functional>
#include <sstream>
#include <vector>

#include "analysis/exact.hpp"
#include "io/errors.hpp"

namespace cosda {

double point_memory_bytes(const Point& p) {
  Point one = p;
  one.layers = 1;
  one.stabilised = false;
  double elements = 0;
  try {
    const Cost c = exact::evaluate(one);
    elements = double(c.peak + c.valley);
  } catch (const std::exception&) {
    // No closed form here: bound by the largest state any variant keeps.
    elements = double(p.n) * double(p.n) + 4.0 * double(p.n) * double(p.d);
  }
  return 2.0 * double(p.layers) * elements * 8.0 + 4.0 * double(p.n) * double(p.d) * 8.0;
}

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
  std::ostringstream where;
  where << points[need.front().second];
  auto size = [](double bytes) {
    const double mib = bytes / (1024.0 * 1024.0);
    return mib < 1024.0 ? fmt::format("{:.1f} MiB", mib) : fmt::format("{:.1f} GiB", mib / 1024);
  };
  throw InputError(fmt::format(
      "{}: point {} needs about {} and the {} largest points at once {}, but {} are available; "
      "lower n or d in the config, run fewer --jobs, or raise --memory-limit",
      c.source, where.str(), size(need.front().first),
      std::min<std::size_t>(need.size(), std::size_t(std::max(jobs, 1))), size(together),
      size(available_bytes)));
}

}  // namespace cosda
