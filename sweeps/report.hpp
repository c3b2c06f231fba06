// Tables and figures of a sweep: the paper's printed value, our value of the published
// formula and our executed count side by side (table.md), and gnuplot figures with one line per
// variant, executed solid and published dashed. The x axis is logarithmic; so is the y axis,
// labelled at powers of ten, unless the values hold fewer than two of them: then it is linear
// with plain numbers when they span less than a factor 20, else labelled at 1, 2 and 5 times
// powers of ten.
//
// Tolerance rule for "reproduces" (cells that do not are flagged with ✗):
//  - against a printed number: the value, rounded to the printed number of decimals, equals
//    the printed number (|value - printed| <= half a unit in the last printed place);
//  - against a published formula (no printed number exists, as for figures): equal within a
//    relative 1e-9 (the formula is evaluated at the same point, so no rounding is involved).
// Printed numbers come from analysis/published.hpp (printed_cells(), cotrans_ratios()), each
// with its source.
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

// A self-contained gnuplot script (data inline) for one figure. It writes <f.file>.png and
// <f.file>.pdf into its working directory unless the variables png / pdf are set.
std::string gnuplot_script(const SweepConfig& c, const FigureSpec& f,
                           const std::vector<SweepRow>& rows);

struct ReportFiles {
  std::vector<std::filesystem::path> written;  // tables, scripts and figures
  std::string note;                            // one line when figures could not be drawn
};

// Writes <dir>/table.md, <dir>/<figure>.gp and, when gnuplot is on PATH and `figures` is
// true, <dir>/<figure>.png and .pdf. Every file is replaced atomically.
ReportFiles write_report(const SweepConfig& c, const std::vector<SweepRow>& rows,
                         const std::filesystem::path& dir, bool figures = true);

// Checks, before any work, every file write_report() would write into `dir`
// (check_output_file()); throws InputError naming the first that cannot be written.
void check_report_outputs(const SweepConfig& c, const std::filesystem::path& dir,
                          bool figures = true);

// write_report into the stage of `out` (published by the caller's out.commit()); returns the
// files written (not the .gp scripts, named as in the target), one a line after `indent`, for
// stdout once published. A note goes to stderr as "<command>: <note>".
std::string write_listed_report(const SweepConfig& c, const std::vector<SweepRow>& rows,
                                OutputTransaction& out, bool figures, const std::string& indent,
                                const std::string& command);

}  // namespace cosda
