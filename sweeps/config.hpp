// Sweep configs (configs/*.toml, one per paper artifact): which variants to run at which shapes,
// and the tables and figures drawn from the results; full reference: docs/configs.md. Keys (any
// other is an error naming file, line and the closest valid key):
//   name, title  [a-z0-9_]+, results go to <out>/<name>/; optional title of table and figures
//   variants     ids from attention/registry.hpp
//   n, d, m      non-empty lists of positive integers; d is all heads together (d / heads each);
//                m, the rank (landmarks or random features), may be left out when no listed
//                variant has one; a variant without a rank gets m = 1 whatever the list
//   layers       list of 1 (one block) or 2 (the papers' two-block model), default [1]
//   heads        list of positive integers, default [1]
//   scalar       "double" (default) or "float": the scalar the heap bytes are measured with
//   formulas     source of published_flops: "nystrom" (default, App. A) or "cotrans" (Sec.
//                3.1-3.3 as mul + add + exp); published memory is always Nyström App. B
//   convention   "all" (default), "mul", "mac" or "cotrans": how figures and table.md total
//                executed FLOPs (--convention overrides); formulas are drawn beside executed
//                counts in the paper's own convention (mac: App. A, cotrans: CoTrans Sec. 3)
//   [[grid]]     further grids of any of variants, n, d, m, layers, heads (the rest from the
//                top level); the points are the union of all grids, without repeats
//   [[table]]    kind = "points" (executed next to the formula), "printed" (with printed =
//                "nystrom_table3" or "nystrom_table4") or "cotrans_ratios" (CoTrans Sec. 3.4);
//                optional title. Default: one "points" table
//   [[figure]]   file ([a-z0-9_]+), title, x (n|d|m), y (flops|peak|valley|heap_peak_bytes|
//                update_flops|plain_flops), optional variants, and values of the coordinates
//                (layers, heads, n, d, m) other than x; each with several values in the grid
//                must be fixed, so that each variant is one line
// Canonical point order, whatever --jobs: variant as listed, then layers, heads, n, d, m ascending.
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

// Whether variant `id` has a rank m (landmarks not LandmarkKind::kNone; an unknown id has one).
bool uses_landmarks(const std::string& id);

// Every point of the config in canonical order, without repeats; a variant without landmarks
// gets m = 1 (as cosda count reports it) whatever the grid's m list.
std::vector<Point> grid_points(const SweepConfig& c);

}  // namespace cosda
