// The drift study (cosda drift): drift of the continual variants' running sums on long streams,
// in float and double, plain and stabilised, against from-scratch recomputations at about
// `checkpoints` steady-state steps (run_drift, analysis/numerics.hpp).
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
  std::string text;  // the config file as parsed, for meta.json
  std::int64_t n = 0, d = 0, m = 0, steps = 0, calibration = 0, checkpoints = 0;
  int pinv_iterations = 6;
  // scalars: float, double; modes: plain, stabilised
  std::vector<std::string> variants, scalars, modes;
  std::vector<NamedStream> streams;
};

struct DriftRun {
  const NamedStream* stream;  // into DriftConfig::streams
  std::string variant;
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
// drift.md: per run the first, last and largest error, cost per step (measure()), C and the time.
std::string drift_markdown(const DriftConfig& c, const std::vector<DriftRun>& runs);
// drift_<stream>.png and .gp per stream, a panel per scalar type; a note per figure not drawn.
std::vector<std::string> plot_drift(const std::filesystem::path& dir, const DriftConfig& c,
                                    const std::vector<DriftRun>& runs);

}  // namespace cosda
