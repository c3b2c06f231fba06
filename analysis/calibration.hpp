// The stabilised mode's calibration: the range of the scores each variant exponentiates over a
// stream, and the shift C between its extremes (cosda stream --exp-shift auto, cosda.stream's
// exp_shift='auto', the overflow study); and the segment means Nystrom's landmarks are.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <string>
#include <utility>

#include "analysis/streams.hpp"
#include "attention/attention.hpp"

namespace cosda {

// Segment means of the rows of x (landmarks.hpp sizes: the first n mod m segments one row longer).
Eigen::MatrixXd segment_means(const Eigen::MatrixXd& x, std::int64_t m);

// The stabilised mode's shift C: the midpoint of the range of row maxima of every score matrix the
// variant exponentiates (QK^T for co_*; B, Gamma, Delta for Nyström, with segment-mean or c.fixed_*
// landmarks) over every `stride`-th window of `calibration` (>= n tokens), so exp(s - C) keeps
// both extremes equally far from overflow and underflow.
double calibrate_shift(const std::string& variant, const Config& c, const Qkv& calibration,
                       std::int64_t stride = 1);
// [smallest, largest] of those row maxima, to combine several calibrations (heads) into one C.
std::pair<double, double> row_max_range(const std::string& variant, const Config& c,
                                        const Qkv& calibration, std::int64_t stride = 1);

// The stabilised mode's shift C calibrated on the stream: one C for all heads, the midpoint of
// their row-maxima ranges (row_max_range), sampled every n / 8 steps.
double calibrated_exp_shift(const std::string& id, const Config& c, std::int64_t heads,
                            const Qkv& x);

}  // namespace cosda
