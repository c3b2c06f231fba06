// The overflow study (cosda overflow): per variant, scalar type and mode, the score scale of the
// first inf or NaN output (no max-subtraction, as in the papers; overflow_threshold), and what the
// stabilised mode changes, at what cost. Its C is calibrated at each scale on the calibration
// tokens, which precede the evaluated ones.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/numerics.hpp"
#include "analysis/streams.hpp"

namespace cosda {

struct OverflowConfig {
  std::string name;
  std::string text;  // the config file as parsed, for meta.json
  std::int64_t n = 0, d = 0, m = 0, calibration = 0, steps = 0;
  double sigma_min = 1, sigma_max = 1e6, tolerance = 1e-2;
  // scalars: float, double; modes: plain, stabilised (continual variants only)
  std::vector<std::string> variants, scalars, modes;
  std::vector<NamedStream> streams;
};

struct OverflowJob {
  const NamedStream* stream;  // into OverflowConfig::streams
  std::string variant, scalar, mode;
  OverflowResult result;
};

// Every search of the config, in parallel (OpenMP).
std::vector<OverflowJob> run_overflow_study(const OverflowConfig& c);

// overflow.csv: both thresholds of every search.
std::string overflow_csv(const OverflowConfig& c, const std::vector<OverflowJob>& jobs);
// overflow.md: per stream both thresholds per variant, scalar and mode; the stabilised mode's cost.
std::string overflow_markdown(const OverflowConfig& c, const std::vector<OverflowJob>& jobs);

}  // namespace cosda
