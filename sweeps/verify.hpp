// cosda verify: every published cost formula and printed cost number of the two papers held
// against what cosda executes, and cosda's own exact forms (analysis/exact.hpp) held against
// execution. Writes <out>/report.md and <out>/verification.csv (atomically).
//
// Contract:
//  - The grids come from a TOML config (configs/verification.toml); a bad config is an
//    InputError naming the file and key, and nothing is written.
//  - status() is 0 iff every exact-form check holds (executed == exact, every field measure()
//    reports, at every grid point and at every one-layer point the report measures), 1
//    otherwise. Published formulas disagreeing with execution are findings, not failures.
//  - The corrections file (analysis/corrections.md) is quoted in the report if present; its
//    absence is stated in the report.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "analysis/measure.hpp"

namespace cosda::verify {

struct Options {
  std::filesystem::path config{"configs/verification.toml"};
  std::filesystem::path out_dir{"results/verification"};
  std::filesystem::path corrections{"analysis/corrections.md"};
};

// One executed point against the exact forms: the fields of Cost that differ (empty: all
// equal).
struct Check {
  Point point;
  std::int64_t executed_cycle_flops = 0, exact_cycle_flops = 0;
  std::int64_t executed_valley = 0, exact_valley = 0, executed_peak = 0, exact_peak = 0;
  std::vector<std::string> mismatches;
  bool ok() const { return mismatches.empty(); }
};

Check check_point(const Point& p);
// 0 iff every check holds.
int status(const std::vector<Check>& checks);

struct Outcome {
  int status = 0;
  std::size_t checks = 0, mismatches = 0;
  std::filesystem::path report, csv;
};
// Runs the whole verification and writes the two files.
Outcome run(const Options& options);

}  // namespace cosda::verify
