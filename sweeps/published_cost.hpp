// The published cost of a sweep point: the papers' per-block formulas, times the heads at the
// per-head width d / heads, and for two layers composed over the papers' two-block model.
//
// Published formulas per step (one layer): formulas = "nystrom" uses the App. A total of the
// id; for the continual-landmark ids a landmark is refreshed once every n/m steps (Sec. IV-A)
// and the other steps cost as the fixed-landmark update (Sec. IV-B), so the per-step value is
// (A(cont) + (n/m - 1) A(fix)) / (n/m), which is what reproduces Tables III and IV.
// formulas = "cotrans" uses mul + add + exp of CoTrans Sec. 3.1-3.3 (att, co_re, co_si only).
// Two layers (Nyström paper Sec. V-A: a retroactive block followed by a single-output one;
// two blocks of the same kind for att, ny, ny_fix): first + second block with
//   att: att + att            ny: ny + ny            ny_fix: ny_fix + ny_fix
//   co_si, co_re: co_re + co_si
//   cony_si_cont, cony_re_cont: cony_re_cont + cony_si_cont
//   cony_si_fix, cony_re_fix: cony_re_fix + cony_si_fix
// Memory for two layers: valley = valley(first) + valley(second); the blocks run one after
// the other, so peak = max(peak(first) + valley(second), valley(first) + peak(second)).
#pragma once

#include <optional>
#include <string>
#include <utility>

#include "analysis/measure.hpp"

namespace cosda {

// The published per-step FLOPs / memory at a point under the rules above (nullopt where the
// source has no formula for the id).
std::optional<double> published_flops(const Point& p, const std::string& formulas);
std::optional<double> published_valley(const Point& p);
std::optional<double> published_peak(const Point& p);

// The two blocks the published two-layer composition adds, for an id.
std::pair<std::string, std::string> two_layer_blocks(const std::string& id);

}  // namespace cosda
