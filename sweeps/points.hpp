// The results record of a sweep: one SweepRow per point, and its file points.csv, one row per
// variant x layers x heads x n x d x m in grid_points() order (empty cell: no value). What each
// column holds: docs/counting.md and docs/sweeps.md. Each column is declared once, in
// points_columns(); header, writer, reader and value() use it.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/measure.hpp"

namespace cosda {

inline constexpr int kSweepSchemaVersion = 1;

struct SweepRow {
  Point point;
  std::string skip_reason;  // "" when executed
  double flops = 0, mul = 0, add = 0, div = 0, exp = 0, other = 0;
  std::int64_t valley = 0, peak = 0, heap_peak_bytes = -1;
  std::int64_t cycle_steps = 0, update_steps = 0;
  std::optional<double> update_flops, plain_flops;
  std::optional<double> published_flops, published_valley, published_peak, exact_flops;

  bool executed() const { return skip_reason.empty(); }
  // A numeric column's value by name; nullopt if empty, text, unknown or heap_peak_bytes -1.
  std::optional<double> value(std::string_view column) const;
};

// One points.csv column: its name, and how a row's field is written, read and valued.
struct PointsColumn {
  std::string_view name;
  bool executed_only;  // the cell is empty in the row of a skipped point
  // The cell of a row (CSV-quoted text or a number; "" for no value).
  std::string (*write)(const SweepRow&);
  // Sets the field from an unquoted cell; throws std::invalid_argument for a bad numeric cell.
  void (*read)(SweepRow&, const std::string&);
  // The field as a number (nullopt: text column, or no value).
  std::optional<double> (*number)(const SweepRow&);
};

// Fills r's executed columns (flops, buckets, memory, heap, step counts) from a measurement.
void set_measured(SweepRow& r, const Cost& c);

// Every points.csv column, in file order.
std::span<const PointsColumn> points_columns();
// The column of that name (nullptr if none).
const PointsColumn* find_points_column(std::string_view name);

// The header line of points.csv (no newline).
std::string points_csv_header();
// One points.csv line for a row (no newline).
std::string points_csv_line(const SweepRow& r);

// points.csv text, and its inverse (throws InputError naming `source` and the line).
std::string points_csv(const std::vector<SweepRow>& rows);
std::vector<SweepRow> read_points_csv(const std::string& text, const std::string& source);

}  // namespace cosda
