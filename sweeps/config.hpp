// Sweep configs (configs/*.toml, one per paper artifact): which variants to run at which shapes,
// and the tables and figures drawn from the results. Keys, defaults and ranges: docs/configs.md;
// each is read by TomlTable (io/strict_toml.hpp), so any other key is an error naming file, line
// and the closest valid key.
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
  bool operator==(const TableSpec&) const = default;
};

struct FigureSpec {
  std::string file;  // stem: <file>.png and <file>.pdf
  std::string title;
  std::string x, y;
  std::vector<std::string> variants;          // empty: all of the config's
  std::map<std::string, std::int64_t> fixed;  // coordinate -> value
  bool operator==(const FigureSpec&) const = default;
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
