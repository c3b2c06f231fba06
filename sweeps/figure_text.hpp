// The words of a sweep's figures and table.md: FLOPs conventions, axis labels and titles.
#pragma once

#include <optional>
#include <string>

#include "sweeps/config.hpp"
#include "sweeps/points.hpp"

namespace cosda {

// A row's executed FLOPs per step in convention `id` (all, mul, mac, cotrans); nullopt if skipped.
// mac fuses min(mul, add) pairs of the cycle totals, which the amortized buckets keep.
std::optional<double> flops_in(const SweepRow& r, const std::string& id);

// The published formulas' convention: mac (Nyström App. A) or cotrans (CoTrans mul + add + exp).
std::string paper_convention(const SweepConfig& c);

// "all (every executed operation)", ... for titles and captions.
std::string convention_words(const std::string& id);

// The axis label of a points.csv coordinate or column.
std::string axis_label(const std::string& c);

// The y axis of a figure whose values span [lo, hi]: gnuplot set commands.
std::string y_axis(double lo, double hi);

// Config title, then a line with the figure's (unless its stem) and, for FLOPs, the convention.
std::string figure_title(const SweepConfig& c, const FigureSpec& f);

// A multi-line title as a gnuplot string expression: each line gp_quote()d, joined by "\n".
std::string gp_title(const std::string& title);

}  // namespace cosda
