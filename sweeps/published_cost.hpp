// The published cost of a sweep point: the papers' per-block formulas, times the heads at the
// per-head width d / heads, and for two layers composed over the papers' two-block model.
// One layer, per step: formulas = "nystrom" takes the id's App. A total; a continual-landmark id
// refreshes a landmark every n/m steps (Sec. IV-A) and otherwise costs the fixed-landmark update
// (Sec. IV-B): (A(cont) + (n/m - 1) A(fix)) / (n/m), which reproduces Tables III and IV.
// formulas = "cotrans": mul + add + exp of CoTrans Sec. 3.1-3.3 (att, co_re, co_si only).
// Two layers (Nyström Sec. V-A): first + second block; for co_* and cony_*, the _re block then
// the _si one (e.g. cony_re_fix + cony_si_fix), else two equal blocks (att, ny, ny_fix).
// Memory: valley = valley(first) + valley(second); the blocks run in turn, so
// peak = max(peak(first) + valley(second), valley(first) + peak(second)).
#pragma once

#include <optional>
#include <string>

#include "analysis/measure.hpp"

namespace cosda {

// The published per-step FLOPs / memory at a point as above (nullopt: no formula for the id).
std::optional<double> published_flops(const Point& p, const std::string& formulas);
std::optional<double> published_valley(const Point& p);
std::optional<double> published_peak(const Point& p);

}  // namespace cosda
