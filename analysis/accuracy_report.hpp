// The accuracy study (cosda accuracy): approximation error of the variants against exact attention
// on a config's streams, with executed FLOPs per step from measure() (amortised over a landmark
// cycle) at one head of width d, and the iterative pseudo-inverse's error; CSVs, summary, figures.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "analysis/accuracy.hpp"
#include "analysis/streams.hpp"
#include "analysis/study_output.hpp"

namespace cosda {

struct AccuracyConfig {
  std::string name;
  std::string text;  // the config file as parsed, for meta.json
  std::int64_t d = 0, steps = 0, calibration = 0, pinv_windows = 0;
  std::vector<std::int64_t> ns, ms, pinv_iterations_study;
  // The random-feature variants' m grid (any m, also > n); each point runs once per seed.
  std::vector<std::int64_t> feature_ms;
  std::vector<std::uint64_t> feature_seeds;
  std::vector<std::string> variants;
  int pinv_iterations = 6;
  bool exact_pinv = false;
  std::vector<NamedStream> streams;
};

// One variant at one stream, n and m. Random-feature variants: one summary per draw (seeds[i]
// gives per_draw[i]), e their median (summarize_draws); else seeds is empty, per_draw = {e}.
struct AccuracyRow {
  std::string stream, variant;
  std::int64_t n = 0, m = 0;  // m = 0: no landmarks
  bool single = false;
  ErrorSummary e{};
  double median_min = 0, median_max = 0;  // range of the per-draw median errors
  std::vector<std::uint64_t> seeds{};
  std::vector<ErrorSummary> per_draw{};
  double flops = 0;
};

// The pseudo-inverse's error on one window of one stream, n and m.
struct PinvRow {
  std::string stream;
  std::int64_t n, m, window;
  double condition;
  std::vector<double> errors;  // per study iteration count
};

struct AccuracyResults {
  std::vector<AccuracyRow> rows;
  std::vector<PinvRow> pinv;
};

// Runs the study; reports each stream and n on stderr with the seconds since t0.
AccuracyResults run_accuracy(const AccuracyConfig& c, Clock::time_point t0);

// accuracy.csv: a row per stream, n, variant, m (random features: draw median, per-draw range).
std::string accuracy_csv(const AccuracyConfig& c, const AccuracyResults& r);
// accuracy_draws.csv: one row per draw of the random-feature variants' points.
std::string accuracy_draws_csv(const AccuracyResults& r);
// pinv.csv: one row per stream, n, m, window and iteration count.
std::string pinv_csv(const AccuracyConfig& c, const AccuracyResults& r);
// summary.md: Pareto fronts per stream, n and output shape, then `notes` (figures not drawn, why).
std::string accuracy_summary(const AccuracyConfig& c, const AccuracyResults& r,
                             const std::vector<std::string>& notes = {});
// Per stream: error_vs_m_<stream>.png, tradeoff_<stream>_n<N>.png, pinv_<stream>.png, each
// with its .gp script. A figure without data is not drawn; returns one note per such figure.
std::vector<std::string> plot_accuracy(const std::filesystem::path& dir, const AccuracyConfig& c,
                                       const AccuracyResults& r);
// The names of every figure file plot_accuracy() may write, for the checks before any work.
std::vector<std::string> accuracy_figures(const AccuracyConfig& c);

}  // namespace cosda
