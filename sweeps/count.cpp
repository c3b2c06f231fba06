#include "sweeps/count.hpp"

#include <stdexcept>

#include "analysis/exact.hpp"
#include "attention/registry.hpp"
#include "sweeps/run_checks.hpp"

namespace cosda {
namespace {

// The points.csv columns count prints (same names, units and cells); count's own come after.
constexpr std::string_view kPointsColumns[] = {
    "variant",     "layers",       "heads",       "n",           "d",
    "m",           "flops",        "mul",         "add",         "div",
    "exp",         "other",        "valley",      "peak",        "heap_peak_bytes",
    "exact_flops", "update_flops", "plain_flops", "cycle_steps", "update_steps"};

}  // namespace

bool count_text_column(std::string_view name) {
  return name == "variant" || name == "scalar" || name == "counting" || name == "convention";
}

conventions::Convention convention_of(const std::string& id, const std::string& subject) {
  std::string list;
  for (const auto& c : conventions::kConventions) {
    if (c.id == id) return c.convention;
    list += (list.empty() ? "" : ", ") + std::string(c.id);
  }
  throw InputError(subject + " must be one of " + list + ", got '" + id + "'");
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
    if (name == "d")  // d is the width of all heads; one head's width beside it
      cells.emplace_back("d_head", std::to_string(o.row.point.d / o.row.point.heads));
  }
  text("convention", std::string(conventions::info(o.convention).id));
  text("scalar", o.scalar);
  text("counting", o.counting);
  cells.emplace_back("heap_retained_bytes", std::to_string(o.heap_retained_bytes));
  cells.emplace_back("heap_allocations_per_cycle", std::to_string(o.heap_allocations));
  return cells;
}

CountOutput count_output(const Point& p, const Cost& c, conventions::Convention conv) {
  CountOutput o;
  o.convention = conv;
  SweepRow& r = o.row;
  r.point = p;
  set_measured(r, c);
  // A cycle's total in the convention, per step (mac fuses pairs over the whole cycle).
  auto per_step = [conv](const Cost& k) {
    return double(conventions::count(k.cycle_total, conv)) / double(k.cycle_steps);
  };
  r.flops = per_step(c);
  if (r.update_flops) r.update_flops = double(conventions::count(c.update_step, conv));
  if (r.plain_flops) r.plain_flops = double(conventions::count(c.plain_step, conv));
  if (p.layers == 1) r.exact_flops = per_step(exact::evaluate(p));
  o.heap_retained_bytes = c.heap_retained_bytes;
  o.heap_allocations = c.steady_allocations;
  return o;
}

Point point_of(const RunPlan& p) {
  return Point{.variant = p.id, .n = p.n, .d = p.d, .m = p.m, .heads = p.heads, .layers = p.layers};
}

}  // namespace cosda
