// This machine's roofline measured (cosda roofline), and the figure that sets cosda-bench's
// measured steps against it. The model the numbers feed is analysis/roofline_model.hpp.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "analysis/roofline_model.hpp"

namespace cosda::roofline {

// Compute peaks (GEMM, float and double) and read and triad bandwidths at the cache levels'
// working sets, on one thread and on all cores, each the best of `reps` timed repetitions;
// progress lines on stderr.
Machine measure_machine(int gemm_n, int reps);

// The points file cosda-bench --cosda_report writes (kPointsHeader's columns); InputError
// naming the line for a malformed one.
std::vector<MeasuredPoint> read_points(const std::string& path);

// Draws `png` with gnuplot: one-thread compute roofs (float, double), read-bandwidth lines per
// level, and the measured points (filled: float, open: double).
void draw(const Machine& m, const std::vector<MeasuredPoint>& pts,
          const std::filesystem::path& png);

}  // namespace cosda::roofline
