// What cosda-bench times and measured, shared with its report (bench/report.cpp): the cases,
// their counted cost per step and the measured time per step.
#pragma once

#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analysis/measure.hpp"
#include "analysis/roofline_model.hpp"
#include "bench/timing_config.hpp"

namespace cosda::bench {

enum class Kind { kStep, kPlain, kUpdate, kCycle };

inline const char* kind_name(Kind k) {
  switch (k) {
    case Kind::kStep:
      return "step";
    case Kind::kPlain:
      return "plain";
    case Kind::kUpdate:
      return "update";
    case Kind::kCycle:
      return "cycle";
  }
  return "";
}

struct Options {
  std::string config = "configs/timing.toml";
  std::string machine = "results/roofline/machine.json";
  std::string machine_elsewhere;  // why `machine` was not used: another machine's roofline
  std::string models = "configs/models/report.toml";  // whole models; "none": no models
  std::string report;  // DIR for timing/realized.md and timing/points.tsv; empty: none
  std::string out;     // --benchmark_out, written atomically
  bool quick = false;
  std::string command;  // the command line, for the report
  std::string load_before, load_after;
};

struct Case {
  std::string variant;
  const TimingShape* shape = nullptr;
  bool single = false;  // float (else double)
  bool all_cores = false;
  Kind kind = Kind::kStep;
  // The plain-Eigen ring (bench/plain_ring.hpp) in place of the variant, which is then its
  // partner: the same step, counted as the variant's.
  bool ring = false;

  std::string scalar() const { return single ? "float" : "double"; }
  std::string threads() const { return all_cores ? "all" : "one"; }
  // The variant's counted cost at this shape and scalar (shared by the ring and its partner).
  std::string cost_key() const { return variant + "/" + shape->name + "/" + scalar(); }
  std::string stream_key() const { return (ring ? "ring/" : "") + cost_key(); }
  std::string name() const {
    return (ring ? "ring" : variant) + "/" + shape->name + "/" + scalar() + "/" + threads() + "/" +
           kind_name(kind);
  }
  Point point() const { return Point{variant, shape->n, shape->d, shape->m, shape->heads, 1}; }
};

inline int cores() { return std::max(1, omp_get_num_procs()); }

// The benchmark timing one exponential at a shape with heads, for the head-batching table.
inline std::string exp_case_name(const TimingShape& s, bool single) {
  return "exp/" + s.name + "/" + (single ? "float" : "double") + "/one/step";
}

// Counting: executed operations and memory per step, by running the kernels under Tally.
const Cost& cost_of(const Case& c);

struct StepCost {
  double flops = 0, bytes = 0;
  double exps = 0;  // the exponentials among the flops
};

StepCost step_cost(const Case& c, const Cost& k);

// Collecting the results for realized.md and points.tsv.
struct Measured {
  std::vector<double> seconds;       // per step, one entry per repetition, the case's clock
  std::vector<double> wall_seconds;  // the same repetitions on the wall clock
  std::vector<double> parallel;      // all cores: share of each repetition's steps in parallel
  double median() const { return median_of(seconds); }
  double wall_median() const { return median_of(wall_seconds); }
  static double median_of(std::vector<double> s) {
    std::sort(s.begin(), s.end());
    const std::size_t k = s.size();
    return k == 0 ? 0 : (k % 2 ? s[k / 2] : 0.5 * (s[k / 2 - 1] + s[k / 2]));
  }
  double spread() const {  // (max - min) / median over the repetitions
    if (seconds.size() < 2) return 0;
    const auto [lo, hi] = std::minmax_element(seconds.begin(), seconds.end());
    return (*hi - *lo) / median();
  }
};

// Registers model/<name>/<scalar>/one/step for the report config's models (bench/models.cpp).
void register_model_cases(const std::string& report_toml, const TimingConfig& cfg);

// The roofline in o.machine, or nullopt if it is missing or another machine's (the bound
// counters and columns are then left out; o.machine_elsewhere and stderr say why).
std::optional<roofline::Machine> read_this_machine(Options& o);

// Refuses (InputError), before any timing, a DIR/timing/ (DIR = o.report) that write_reports
// could not write.
void check_report_outputs(const Options& o);

// Writes DIR/timing/realized.md and DIR/timing/points.tsv (DIR = o.report) from a run's medians.
void write_reports(const Options& o, const TimingConfig& cfg, const std::vector<Case>& cases,
                   const std::map<std::string, Measured>& results,
                   const std::optional<roofline::Machine>& m);

}  // namespace cosda::bench
