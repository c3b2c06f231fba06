// Tables and figures of a sweep: table.md sets the paper's printed value, our value of the
// published formula and our executed count side by side; gnuplot figures draw one line per
// variant, executed solid and published dashed, x logarithmic (y: y_axis()). A value that does
// not reproduce is flagged ✗. Against a printed number (analysis/published.hpp), it must round
// to it at the printed decimals (within half a unit in the last place); against a formula
// (evaluated at the same point, so no rounding; figures print no numbers), within relative 1e-9.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "io/output_transaction.hpp"
#include "sweeps/config.hpp"
#include "sweeps/points.hpp"
#include "sweeps/sweep.hpp"  // read_sweep_points()

namespace cosda {

// The contents of table.md. Deterministic: depends only on c and rows.
std::string table_md(const SweepConfig& c, const std::vector<SweepRow>& rows);

// One figure's self-contained gnuplot script; writes <file>.png and .pdf unless png / pdf are set.
std::string gnuplot_script(const SweepConfig& c, const FigureSpec& f,
                           const std::vector<SweepRow>& rows);

struct ReportFiles {
  std::vector<std::filesystem::path> written;  // tables, scripts and figures
  std::string note;                            // one line when figures could not be drawn
};

// Writes table.md, <figure>.gp and (with `figures` and gnuplot) .png, .pdf into `dir`, atomically.
ReportFiles write_report(const SweepConfig& c, const std::vector<SweepRow>& rows,
                         const std::filesystem::path& dir, bool figures = true);

// Checks, before any work, each file write_report() would write; InputError names the first bad.
void check_report_outputs(const SweepConfig& c, const std::filesystem::path& dir,
                          bool figures = true);

// write_report() into the stage of `out` (the caller commits). Returns the target paths written
// but for .gp scripts, a line each after `indent`, for stdout; a note goes to stderr.
std::string write_listed_report(const SweepConfig& c, const std::vector<SweepRow>& rows,
                                OutputTransaction& out, bool figures, const std::string& indent,
                                const std::string& command);

}  // namespace cosda
