// The drift study (cosda drift): numerical drift of the continual variants' running sums on
// long streams, in float and double, with and without the stabilised mode (Config::exp_shift).
//
// Each run streams calibration + n + steps tokens through one variant and, at about
// `checkpoints` steady-state steps (log- and evenly spaced, always the last), compares the
// output with a from-scratch recomputation of the same window in the same scalar type and in
// double (run_drift, analysis/numerics.hpp).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "analysis/measure.hpp"
#include "analysis/numerics.hpp"
#include "analysis/streams.hpp"

namespace cosda {

struct DriftConfig {
  std::string name;
  std::int64_t n = 0, d = 0, m = 0, steps = 0, calibration = 0, checkpoints = 0;
  int pinv_iterations = 6;
  // scalars: float, double; modes: plain, stabilised
  std::vector<std::string> variants, scalars, modes;
  std::vector<NamedStream> streams;
};

// One stream through one variant in one scalar type and mode.
struct DriftRun {
  const NamedStream* stream;  // into DriftConfig::streams
  std::string variant;
  bool single = false;
  Precision precision;
  bool stabilised;
  DriftResult result;
  double seconds = 0;
};

// Every stream, variant, scalar and mode, in parallel (OpenMP), each reported on stderr when
// done. A run that throws is an InputError "cosda drift: stream '<name>', <variant>: <what>".
std::vector<DriftRun> run_drift_study(const DriftConfig& c);

// drift.csv: every checkpoint of every run.
std::string drift_csv(const std::vector<DriftRun>& runs);
// drift.md: per run the error at the first and last step, the largest, the cost per step
// (measure(), plain or stabilised), the shift C and the time.
std::string drift_markdown(const DriftConfig& c, const std::vector<DriftRun>& runs);
// drift_<stream>.png (and its .gp script) per stream: one panel per scalar type with data. A
// figure without data is not drawn; returns one note per such figure.
std::vector<std::string> plot_drift(const std::filesystem::path& dir, const DriftConfig& c,
                                    const std::vector<DriftRun>& runs);

}  // namespace cosda
