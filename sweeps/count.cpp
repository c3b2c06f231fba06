#include "sweeps/count.hpp"

#include <stdexcept>

#include "analysis/exact.hpp"
#include "attention/registry.hpp"
#include "sweeps/variant_lists.hpp"

namespace cosda {
namespace {

// The points.csv columns count prints (sweeps/points.hpp: same names, same units, same cells),
// then the columns only count has.
constexpr std::string_view kPointsColumns[] = {
    "variant",     "layers",       "heads",       "n",           "d",
    "m",           "flops",        "mul",         "add",         "div",
    "exp",         "other",        "valley",      "peak",        "heap_peak_bytes",
    "exact_flops", "update_flops", "plain_flops", "cycle_steps", "update_steps"};

}  // namespace

bool count_text_column(std::string_view name) {
  return name == "variant" || name == "scalar" || name == "counting";
}

std::vector<std::pair<std::string, std::string>> count_cells(const CountOutput& o, bool json) {
  std::vector<std::pair<std::string, std::string>> cells;
  auto text = [&](std::string_view name, const std::string& v) {
    cells.emplace_back(name, json ? "\"" + v + "\"" : v);
  };
  for (const std::string_view name : kPointsColumns) {
    const PointsColumn* c = find_points_column(name);
    if (c == nullptr) throw std::logic_error("points.csv has no column " + std::string(name));
    if (name == "variant") {
      text(name, o.row.point.variant);
      continue;
    }
    const std::string cell = c->write(o.row);
    cells.emplace_back(name, json && cell.empty() ? "null" : cell);
  }
  text("scalar", o.scalar);
  text("counting", o.counting);
  cells.emplace_back("heap_retained_bytes", std::to_string(o.heap_retained_bytes));
  cells.emplace_back("heap_allocations_per_cycle", std::to_string(o.heap_allocations));
  return cells;
}

CountOutput count_output(const Point& p, const Cost& c) {
  CountOutput o;
  SweepRow& r = o.row;
  r.point = p;
  set_measured(r, c);
  if (p.layers == 1) r.exact_flops = exact::evaluate(p).amortized_flops();
  o.heap_retained_bytes = c.heap_retained_bytes;
  o.heap_allocations = c.steady_allocations;
  return o;
}

Args count_args(const Argv& argv) {
  return Args(
      "count",
      {{"variant", "V", "variant id: " + variant_list()},
       {"n", "N", "window length (tokens)"},
       {"d", "D", "feature width (all heads together)"},
       {"m", "M", "landmarks (only " + landmark_patterns() + "; default 1)"},
       {"heads", "H", "heads, dividing d (default 1)"},
       {"layers", "1|2", "1 block, or the papers' two-block model (default 1)"},
       {"scalar", "double|float", "scalar type for the heap measurement (default double)"},
       {"exact", "", "count at scalar level (Counted scalars) instead of the fast path"},
       {"format", "json|csv|tsv", "one JSON object, or a header and one row (default json)"},
       {"memory-limit", "BYTES",
        "refuse a point needing more (K, M, G suffixes; default: available memory)"}},
      argv);
}

Point count_point(const Args& a) {
  Point p;
  p.variant = a.require("variant");
  const VariantTraits* t = find_variant(p.variant);
  if (t == nullptr)
    throw InputError("cosda count: flag --variant: unknown id '" + p.variant +
                     "'; known: " + variant_list());
  p.n = a.integer("n", 1, 1 << 20);
  p.d = a.integer("d", 1, 1 << 16);
  p.m = a.integer("m", 1, 1 << 20, 1);
  p.heads = a.integer("heads", 1, 1 << 16, 1);
  p.layers = a.integer("layers", 1, 2, 1);
  if (p.d % p.heads != 0)
    throw InputError("cosda count: flag --heads must divide --d (d = " + std::to_string(p.d) +
                     ", heads = " + std::to_string(p.heads) + ")");
  if (t->landmarks == LandmarkKind::kNone && a.has("m"))
    throw InputError("cosda count: flag --m applies to the variants with landmarks (" +
                     landmark_patterns() + "), not " + p.variant + "; drop --m");
  if (t->landmarks != LandmarkKind::kNone && p.m > p.n)
    throw InputError("cosda count: flag --m must be at most --n for " + p.variant +
                     " (m = " + std::to_string(p.m) + ", n = " + std::to_string(p.n) + ")");
  return p;
}

}  // namespace cosda
