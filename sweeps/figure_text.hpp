// What a sweep's figures and table.md say about their counts: the counting convention of the
// executed FLOPs (analysis/conventions.hpp), the convention of the published formulas, axis
// labels and titles. Kept apart from sweeps/report.cpp, which draws them.
#pragma once

#include <optional>
#include <string>

#include "sweeps/config.hpp"
#include "sweeps/points.hpp"

namespace cosda {

// The executed FLOPs per step of a row in convention `id` (all, mul, mac, cotrans), from its
// amortized buckets (a cycle's mac fuses min(mul, add) pairs of the cycle's totals, which the
// amortized buckets keep); nullopt for a skipped row.
std::optional<double> flops_in(const SweepRow& r, const std::string& id);

// The convention the config's published formulas count in: mac for the Nyström paper's
// App. A (a multiply-add once), cotrans for the CoTrans paper's mul + add + exp.
std::string paper_convention(const SweepConfig& c);

// "all (every executed operation)", ... for titles and captions.
std::string convention_words(const std::string& id);

// The axis label of a points.csv coordinate or column.
std::string axis_label(const std::string& c);

// The y axis of a figure whose values span [lo, hi]: gnuplot set commands.
std::string y_axis(double lo, double hi);

// The figure's title: the config's title, then on a second line the figure's (when it is not
// just its file stem) and, for FLOPs, the convention drawn.
std::string figure_title(const SweepConfig& c, const FigureSpec& f);

// A title of several lines as a gnuplot string expression: each line quoted (gp_quote), joined
// by "\n".
std::string gp_title(const std::string& title);

}  // namespace cosda
