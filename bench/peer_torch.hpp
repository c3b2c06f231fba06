// What cosda-peer-torch's kernel and whole-model comparisons share: the flags, the interleaved
// timing on the thread's CPU clock, and the output check.
#pragma once

#include <torch/torch.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

#include "analysis/roofline_model.hpp"

namespace cosda::bench::peer {

struct Options {
  std::string config = "configs/timing.toml";
  std::string out = "results/timing/peer.md";
  bool quick = false;
  double min_time = 0.1;
  int repetitions = 5;
  bool models = false;  // --models: the whole models of configs/models
  std::string command;
};

// Median over repetitions (about min_time each) of the mean time per call of each f. Repetitions
// interleave (f0, f1, ..., f0, f1, ...) so a load burst hits every version alike; the clock is
// read once per batch: a thread-CPU clock read is a system call, costlier than a small step.
inline std::vector<double> time_per_step(const std::vector<std::function<void()>>& fs,
                                         const Options& o) {
  // Warm-up of about min_time / 2 in doubling batches; it sizes each function's batch.
  std::vector<std::int64_t> batch;
  for (const auto& f : fs) {
    const double w0 = roofline::thread_seconds();
    std::int64_t calls = 0;
    double warm = 0;
    for (std::int64_t size = 1; warm < o.min_time / 2 || calls < 2; size *= 2) {
      for (std::int64_t i = 0; i < size; ++i) f();
      calls += size;
      warm = roofline::thread_seconds() - w0;
    }
    batch.push_back(std::max<std::int64_t>(1, std::int64_t(double(calls) * o.min_time / warm)));
  }
  std::vector<std::vector<double>> reps(fs.size());
  for (int r = 0; r < o.repetitions; ++r)
    for (std::size_t i = 0; i < fs.size(); ++i) {
      const double t0 = roofline::thread_seconds();
      for (std::int64_t k = 0; k < batch[i]; ++k) fs[i]();
      reps[i].push_back((roofline::thread_seconds() - t0) / double(batch[i]));
    }
  std::vector<double> medians;
  for (auto& rs : reps) {
    std::sort(rs.begin(), rs.end());
    medians.push_back(rs[rs.size() / 2]);
  }
  return medians;
}

template <class T>
inline torch::Dtype dtype() {
  return std::is_same_v<T, float> ? torch::kFloat32 : torch::kFloat64;
}

inline double rel_err(const torch::Tensor& got, const torch::Tensor& want) {
  return (got - want).norm().item<double>() / std::max(want.norm().item<double>(), 1e-300);
}

// cosda-peer-torch --models: times every model of the report config (o.config) in cosda and
// in libtorch, after checking that both give the same outputs, and writes o.out.
int run_models(const Options& o);

}  // namespace cosda::bench::peer
