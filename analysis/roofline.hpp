// This machine's roofline (cosda roofline; model: roofline_model.hpp), cosda-bench's steps on it.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "analysis/roofline_model.hpp"

namespace cosda::roofline {

// Compute peaks (GEMM, float and double) and read and triad bandwidths at each cache level's
// working set, one thread and all cores, each the best of `reps` runs; progress on stderr.
Machine measure_machine(int gemm_n, int reps);

// cosda-bench --cosda_report's points file (kPointsHeader's columns); InputError names a bad line.
// *measured_on: the machine_name() of its kPointsMachine line ("" without one).
std::vector<MeasuredPoint> read_points(const std::string& path, std::string* measured_on);

// Draws `png` with gnuplot (its script saved beside it as .gp, io/plot.hpp): one-thread compute
// roofs (float, double), read-bandwidth lines per level, and the measured points in each
// variant's colour and marker (filled: float, open or smaller: double).
void draw(const Machine& m, const std::vector<MeasuredPoint>& pts,
          const std::filesystem::path& png);

}  // namespace cosda::roofline
