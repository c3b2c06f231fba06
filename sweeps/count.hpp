// One `cosda count` point as the command prints it and the Python module returns it: a checked
// run's Point, the measurement to the columns of a sweep's points.csv.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analysis/conventions.hpp"
#include "analysis/measure.hpp"
#include "sweeps/points.hpp"

namespace cosda {

struct RunPlan;

struct CountOutput {
  SweepRow row;
  std::string scalar, counting;
  // The convention of flops, update_flops, plain_flops, exact_flops; buckets are always executed.
  conventions::Convention convention = conventions::Convention::kAll;
  std::int64_t heap_retained_bytes = -1, heap_allocations = -1;
};

// The point of a checked run (sweeps/run_checks.hpp).
Point point_of(const RunPlan& p);

// --convention all|mul|mac|cotrans (InputError naming `subject` otherwise).
conventions::Convention convention_of(const std::string& id, const std::string& subject);

// The columns of a measured point, the flops columns in convention `conv`.
CountOutput count_output(const Point& p, const Cost& c,
                         conventions::Convention conv = conventions::Convention::kAll);

// (name, cell) in print order, points.csv's columns first; `json` quotes text, empty cells null.
std::vector<std::pair<std::string, std::string>> count_cells(const CountOutput& o, bool json);

// Whether count_cells' column `name` holds text (the others are numbers or empty).
bool count_text_column(std::string_view name);

}  // namespace cosda
