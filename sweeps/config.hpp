// Sweep configurations (configs/*.toml): which variants to run at which shapes, and which
// tables and figures to draw from the results. One file per paper artifact.
//
// Schema (every key not listed is an error naming file, line and the closest valid key):
//   name      string, [a-z0-9_]+; results go to <out>/<name>/
//   title     string, optional; heads the table and the figures
//   variants  ids from attention/registry.hpp
//   n, d, m   non-empty lists of positive integers; d is the width of all heads together
//             (one head's: d / heads). m is the rank (landmarks or random features); it may
//             be left out when no listed variant has one (rows then carry m = 1), and is
//             ignored by variants without a rank, whose rows still carry the configured m
//   layers    list of 1 or 2, default [1]: one block, or the papers' two-block model
//   heads     list of positive integers, default [1]
//   scalar    "double" (default) or "float": the scalar the heap bytes are measured with
//   formulas  "nystrom" (default) or "cotrans": the source of the published_flops column
//             (Nyström paper App. A, or CoTrans paper Sec. 3.1-3.3 as mul + add + exp);
//             published memory always comes from Nyström paper App. B
//   convention "all" (default), "mul", "mac" or "cotrans" (analysis/conventions.hpp): how the
//             figures and table.md total executed FLOPs; `cosda sweep/report --convention`
//             overrides it. Published curves are drawn beside executed counts in the paper's
//             own convention (mac for App. A, cotrans for CoTrans Sec. 3), named in the title
//   [[grid]]  optional further grids, each with any of variants, n, d, m, layers, heads;
//             missing keys are taken from the top level. The points are the union of the
//             top-level grid and these, without repeats.
//   [[table]] sections of table.md: kind = "points" (every point, executed next to the
//             published formula), "printed" (with printed = "nystrom_table3" or
//             "nystrom_table4": the paper's printed cells), or "cotrans_ratios" (CoTrans
//             Sec. 3.4 ratios); optional title. Default: one "points" table.
//   [[figure]] file (stem, [a-z0-9_]+), title, x ("n", "d" or "m"), y ("flops", "peak",
//             "valley", "heap_peak_bytes", "update_flops" or "plain_flops"), optional
//             variants (subset), and fixed values for the other coordinates (layers, heads,
//             n, d, m). Every coordinate other than x that takes more than one value in the
//             grid must be fixed, so that each variant is one line.
//
// Points come out in a canonical order (variant as listed, then layers, heads, n, d, m
// ascending) that does not depend on how they are run.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/measure.hpp"

namespace cosda {

struct SweepGrid {
  std::vector<std::string> variants;
  std::vector<std::int64_t> n, d, m, layers, heads;
};

struct TableSpec {
  std::string kind;     // "points", "printed" or "cotrans_ratios"
  std::string printed;  // for "printed": "nystrom_table3" or "nystrom_table4"
  std::string title;
};

struct FigureSpec {
  std::string file;  // stem: <file>.png and <file>.pdf
  std::string title;
  std::string x, y;
  std::vector<std::string> variants;          // empty: all of the config's
  std::map<std::string, std::int64_t> fixed;  // coordinate -> value
  int line = 0;                               // where the [[figure]] starts, for messages
};

struct SweepConfig {
  std::string source;  // file name as given, for messages
  std::string text;    // the whole file, kept for provenance
  std::string name, title, scalar = "double", formulas = "nystrom", convention = "all";
  std::vector<std::string> variants;  // every id any grid uses, first appearance first
  std::vector<SweepGrid> grids;       // the top-level grid first
  std::vector<TableSpec> tables;
  std::vector<FigureSpec> figures;
};

// Parses and validates config text; `source` names it in messages. Throws InputError with
// one line "<source>:<line>: <what>; <fix>" for any problem.
SweepConfig parse_config(std::string_view text, const std::string& source);

// Reads the file and parses it. Throws InputError if it cannot be read.
SweepConfig load_config(const std::filesystem::path& path);

// Whether variant `id` has a rank m (its landmarks are not LandmarkKind::kNone; an unknown id
// counts as having one).
bool uses_landmarks(const std::string& id);

// Every point of the config in canonical order, without repeats. A variant without landmarks
// has one point per (layers, heads, n, d), with m = 1 as cosda count reports it, whatever the
// grid's m list.
std::vector<Point> grid_points(const SweepConfig& c);

// The valid key closest to `key` by edit distance ("" if none is reasonably close).
std::string closest_key(std::string_view key, const std::vector<std::string_view>& valid);

}  // namespace cosda
