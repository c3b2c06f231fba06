#include "sweeps/figure_text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "io/plot.hpp"

namespace cosda {
namespace {

std::string g10(double v) { return fmt::format("{:.10g}", v); }

}  // namespace

std::optional<double> flops_in(const SweepRow& r, const std::string& id) {
  if (!r.executed()) return std::nullopt;
  if (id == "mul") return r.mul;
  if (id == "mac") return std::max(r.mul, r.add) + r.div + r.exp + r.other;
  return r.flops;  // all; cotrans: (mul + div) + (add + other) + exp, the same total
}

std::string paper_convention(const SweepConfig& c) {
  return c.formulas == "cotrans" ? "cotrans" : "mac";
}

std::string convention_words(const std::string& id) {
  if (id == "mul") return "mul: multiplications only";
  if (id == "mac") return "mac: a multiply-add once";
  if (id == "cotrans") return "cotrans: mul + add + exp";
  return "all: every executed operation";
}

std::string axis_label(const std::string& c) {
  if (c == "n") return "n (tokens in the window)";
  if (c == "d") return "d (features, all heads)";
  if (c == "m") return "m (landmarks or random features)";
  if (c == "flops") return "FLOPs per step";
  if (c == "update_flops") return "FLOPs of a landmark-update step (all)";
  if (c == "plain_flops") return "FLOPs of a step without landmark update (all)";
  if (c == "peak") return "peak memory (values)";
  if (c == "valley") return "memory held between steps (values)";
  return "heap high-water mark (bytes)";
}

// Log, labelled at powers of ten when two lie in [lo, hi]; else linear with plain numbers when
// hi < 20 lo; else log, labelled at 1, 2 and 5 times powers of ten.
std::string y_axis(double lo, double hi) {
  int powers = 0;
  if (lo > 0)
    for (int k = int(std::ceil(std::log10(lo))); std::pow(10.0, k) <= hi; ++k) ++powers;
  if (lo <= 0 || powers >= 2) return "set logscale xy\nset format y '10^{%L}'\n";
  if (hi < 20 * lo) return "set logscale x\nset format y '%g'\n";
  std::string tics;
  for (int k = int(std::floor(std::log10(lo))); std::pow(10.0, k) <= hi; ++k)
    for (const double f : {1.0, 2.0, 5.0})
      if (const double v = f * std::pow(10.0, k); v >= lo && v <= hi)
        tics += (tics.empty() ? "" : ", ") + fmt::format("'{}' {}", g10(v), g10(v));
  return "set logscale xy\nset format y '%g'\nset ytics (" + tics + ")\n";
}

std::string figure_title(const SweepConfig& c, const FigureSpec& f) {
  std::string second;
  if (!f.title.empty() && f.title != f.file && f.title != c.title) second = f.title;
  if (f.y == "flops")
    second += (second.empty() ? "" : "; ") + std::string("FLOPs in convention ") +
              convention_words(c.convention);
  return second.empty() ? c.title : c.title + "\n" + second;
}

std::string gp_title(const std::string& title) {
  std::string out;
  std::size_t from = 0;
  while (true) {
    const std::size_t at = title.find('\n', from);
    out += (out.empty() ? "" : " . \"\\n\" . ") + gp_quote(title.substr(from, at - from));
    if (at == std::string::npos) return out;
    from = at + 1;
  }
}

}  // namespace cosda
