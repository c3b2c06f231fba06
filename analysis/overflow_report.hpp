// The overflow study (cosda overflow): per variant, scalar type and mode, the score scale
// max |q.k|/sqrt(d) at which the output first holds an inf or a NaN (no max-subtraction
// anywhere, as in the papers), and what the stabilised mode (Config::exp_shift) changes, with
// its measured cost.
//
// The stream's tokens are multiplied by a factor a, so scores grow as a^2; the search scans the
// score scale geometrically and bisects between the last finite and the first non-finite
// scale (overflow_threshold, analysis/numerics.hpp). In the stabilised mode C is calibrated at
// each scale on the calibration tokens, which precede the evaluated ones.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/numerics.hpp"
#include "analysis/streams.hpp"

namespace cosda {

struct OverflowConfig {
  std::string name;
  std::int64_t n = 0, d = 0, m = 0, calibration = 0, steps = 0;
  double sigma_min = 1, sigma_max = 1e6, tolerance = 1e-2;
  // scalars: float, double; modes: plain, stabilised (continual variants only)
  std::vector<std::string> variants, scalars, modes;
  std::vector<NamedStream> streams;
};

// One search: a stream, a variant, a scalar type and a mode.
struct OverflowJob {
  const NamedStream* stream;  // into OverflowConfig::streams
  std::string variant, scalar, mode;
  OverflowResult result;
};

// Every search of the config, in parallel (OpenMP).
std::vector<OverflowJob> run_overflow_study(const OverflowConfig& c);

// overflow.csv: both thresholds of every search.
std::string overflow_csv(const OverflowConfig& c, const std::vector<OverflowJob>& jobs);
// overflow.md: per stream the two thresholds per variant, scalar and mode, and the cost of the
// stabilised mode (measure()).
std::string overflow_markdown(const OverflowConfig& c, const std::vector<OverflowJob>& jobs);

}  // namespace cosda
