// Numerical behaviour on long streams (cosda drift, overflow) and calibration of the stabilised
// mode (Config::exp_shift). Continual variants keep running sums of exponentials (CoTrans Eqs.
// 2-5; Nyström paper Eqs. 17-20, 24-25) without max-subtraction (Nyström paper, end of Sec. IV-C).
// Drift: output against a from-scratch recomputation of the window with the variant's landmarks,
// in its scalar and in double. Overflow: the score scale max |q.k|/sqrt(d) of the first inf/NaN.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "analysis/accuracy.hpp"
#include "analysis/calibration.hpp"
#include "analysis/measure.hpp"
#include "analysis/streams.hpp"
#include "attention/attention.hpp"

namespace cosda {

// max |q_i . k_j| / sqrt(d) over query-key pairs that share a window (|i - j| < n).
double score_scale(const Qkv& x, std::int64_t n);

struct RunCheck {
  std::int64_t nonfinite_token = -1;  // first token with a non-finite output; -1: none
  double max_error = 0;               // largest relative error of a finite output before it
};
// Runs the variant over x in `precision`: the first token with a non-finite output, and each
// finite output's relative error against a from-scratch double recomputation of the window with
// max-subtraction (exact_attention, or nystrom_attention with the variant's landmarks): catches
// wrong finite outputs (cancellation, a zero sum after underflow).
RunCheck check_run(const std::string& variant, const Config& c, const Qkv& x, Precision precision);

struct OverflowSpec {
  std::string variant{};
  Precision precision = Precision::kDouble;
  bool stabilised = false;  // exp_shift calibrated on the calibration tokens at each scale
  std::int64_t n = 32, d = 16, m = 4;
  std::int64_t calibration = 128, steps = 128;  // tokens: calibration, then n + steps
  double sigma_min = 1, sigma_max = 1e6;        // score scales searched
  double grid_ratio = 1.1892071150027210667;    // 2^(1/4) between scanned scales
  int bisections = 40;
  double tolerance = 1e-2;  // relative error that counts as a breakdown (RunCheck)
};

// The smallest score scale at which a condition first holds.
struct Threshold {
  bool found = false;  // it held at some scale in [sigma_min, sigma_max]
  double last_ok = 0;  // largest scale seen without it, below first_bad
  double first_bad = std::numeric_limits<double>::infinity();
  std::int64_t token = -1;  // first non-finite token at first_bad (nonfinite threshold)
  double shift = 0;         // C used at first_bad (stabilised mode)
};

struct OverflowResult {
  Threshold nonfinite;   // an output holds an inf or a NaN
  Threshold inaccurate;  // ... or a finite output's error exceeds the tolerance
};

// `base` holds calibration + n + steps rows of unit-scale q, k, v; scale a multiplies them, so the
// score scale is a^2 times its value at a = 1. Per condition: a geometric scan from sigma_min,
// then bisection between the last scale without it and the first with it.
OverflowResult overflow_threshold(const OverflowSpec& spec, const Qkv& base);

struct DriftSpec {
  std::string variant{};
  Precision precision = Precision::kDouble;
  bool stabilised = false;
  std::int64_t n = 16, d = 8, m = 4;
  std::int64_t steps = 1000000;     // steady-state steps
  std::int64_t calibration = 1024;  // tokens before the run: m-means and the shift
  std::int64_t checkpoints = 120;   // about this many, log- and evenly spaced, plus the last
  int pinv_iterations = 6;
};

struct DriftPoint {
  std::int64_t step = 0;         // steady-state step (1 = the first after priming)
  double vs_scratch = 0;         // against the same-scalar from-scratch recomputation
  double vs_double = 0;          // against the from-scratch recomputation in double
  double scratch_vs_double = 0;  // the recomputation's own error: the floor of vs_double
};

struct DriftResult {
  std::vector<DriftPoint> points{};
  std::int64_t nonfinite_step = -1;  // first steady-state step with a non-finite output
  double shift = 0;                  // C (stabilised mode)
};

// The steady-state steps at which drift is checked: 1..steps, log- and evenly spaced.
std::vector<std::int64_t> checkpoint_steps(std::int64_t steps, std::int64_t about);

// Streams calibration + n + steps tokens of `stream` through the variant (tokens made on the
// fly, so 10^6 steps need no memory) and checks the output at the checkpoints.
DriftResult run_drift(const DriftSpec& spec, const StreamSpec& stream, Projection projection,
                      std::uint64_t projection_seed);

}  // namespace cosda
