// `cosda verify`: every published cost formula and printed number of the two papers, and the exact
// forms (analysis/exact.hpp), against execution, as Markdown and CSV. Grids come from
// configs/verification.toml (a bad one: InputError naming file and key). status() is 0 iff every
// exact-form check holds (every field measure() reports, at every grid point and one-layer point
// measured) and no row is classed `unexplained` outside the `open questions` of
// analysis/verification_notes.md: published formulas disagreeing with execution are findings, not
// failures, once classed. analysis/corrections.md is quoted, or its absence stated. Writes no file.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "analysis/measure.hpp"

namespace cosda::verify {

// One executed point against the exact forms: the fields of Cost that differ (empty: all equal).
struct Check {
  Point point;
  std::int64_t executed_cycle_flops = 0, exact_cycle_flops = 0;
  std::vector<std::string> mismatches;
  bool ok() const { return mismatches.empty(); }
};

Check check_point(const Point& p);

// One compared key with its class over the rows that carry it (report section 11; `class <key>`).
struct Classified {
  std::string section, key, cls, detail;
  int rows = 0;
};
// Keys classed `unexplained` on purpose, "<section> <key>", from the notes' `open questions`.
std::vector<std::string> open_questions();
// The rows classed `unexplained` whose "<section> <key>" is not in `open`.
int unexplained_rows(const std::vector<Classified>& classes,
                     const std::vector<std::string>& open = open_questions());
// 0 iff every check holds and unexplained_rows(classes) is 0.
int status(const std::vector<Check>& checks, const std::vector<Classified>& classes);

// Table I: one parameter swept, the other two fixed.
struct Axis {
  char name;                         // 'n', 'd' or 'm'
  std::vector<std::int64_t> values;  // the swept parameter
  std::int64_t a, b;                 // the two fixed ones, in n, d, m order
};

// The grids of configs/verification.toml.
struct Grid {
  std::vector<std::int64_t> n, d, m, heads;
  std::vector<std::array<std::int64_t, 3>> nystrom;
  std::vector<std::array<std::int64_t, 2>> cotrans;
  std::vector<Axis> axes;
  bool tables = true;
  std::string text;  // the file as parsed, for meta.json
};
// Reads and checks a verification config; InputError on any fault.
Grid read_grid(const std::filesystem::path& path);

// The whole verification: the report and the CSV table as texts.
struct Report {
  int status = 0;
  std::size_t checks = 0, mismatches = 0;
  int unexplained = 0;  // unexplained_rows() of the report's classes
  std::string markdown, csv;
};
// `config` is the path the report names as its source; `corrections` the file it quotes.
Report build_report(const Grid& grid, const std::filesystem::path& config,
                    const std::filesystem::path& corrections);

}  // namespace cosda::verify
