// cosda-bench's whole models (model/<name>/<scalar>/one/step): time per steady-state step of each
// model of configs/models (models/encoder.hpp), each scalar of configs/timing.toml, one thread.
// A warmed-up Plain<T> model fed seeded tokens (n tokens, then the config's min warm-up time) is
// timed on the thread's CPU clock; flops are its executed operations per step under Tally
// (analysis/model_cost.hpp; a landmark cycle's average where a block has continual landmarks).
#include <benchmark/benchmark.h>
#include <omp.h>

#include <map>
#include <memory>

#include "analysis/model_cost.hpp"
#include "analysis/model_report.hpp"
#include "analysis/policy.hpp"
#include "bench/bench_case.hpp"
#include "sweeps/model_config.hpp"

namespace cosda::bench {
namespace {

struct ModelCase {
  std::string name;
  ModelSpec spec;
  bool single = false;  // float (else double)
  std::string key() const { return "model/" + name + "/" + (single ? "float" : "double"); }
};

class ModelStreamBase {
 public:
  virtual ~ModelStreamBase() = default;
  virtual void step() = 0;
};

template <class T>
class ModelStream final : public ModelStreamBase {
 public:
  explicit ModelStream(const ModelSpec& s)
      : model_(s), pool_(seeded_tokens<T>(97, s.input_dim > 0 ? s.input_dim : s.d, 7)) {
    for (std::int64_t i = 0; i < s.n; ++i) step();  // warm-up: the n-th token gives an output
  }
  void step() override { model_.step(&pool_(next_++ % pool_.rows(), 0)); }

 private:
  EncoderModel<Plain<T>> model_;
  Mat<T> pool_;
  std::int64_t next_ = 0;
};

// The model of the case being run, kept across Google Benchmark's calls for one benchmark.
ModelStreamBase& model_stream(const ModelCase& c) {
  static std::unique_ptr<ModelStreamBase> current;
  static std::string key;
  if (key != c.key()) {
    current.reset();
    key = c.key();
    current = with_plain(c.single ? Precision::kFloat : Precision::kDouble,
                         [&]<class E>() -> std::unique_ptr<ModelStreamBase> {
                           return std::make_unique<ModelStream<typename E::Scalar>>(c.spec);
                         });
  }
  return *current;
}

// Executed operations per step (Tally, counted in double: the counts do not depend on it).
double model_flops(const ModelCase& c) {
  static std::map<std::string, double> cache;
  auto it = cache.find(c.name);
  if (it == cache.end()) {
    const ModelCost cost = measure_model(c.spec);
    it = cache.emplace(c.name, double(cost.total().flops()) / double(cost.cycle_steps)).first;
  }
  return it->second;
}

void run_model_case(benchmark::State& st, const ModelCase& c) {
  omp_set_num_threads(1);
  const double flops = model_flops(c);
  ModelStreamBase& s = model_stream(c);
  for (auto _ : st) s.step();  // NOLINT(clang-analyzer-deadcode.DeadStores): benchmark loop
  using benchmark::Counter;
  st.counters["flops"] = Counter(flops);
  st.counters["FLOP/s"] = Counter(flops * double(st.iterations()), Counter::kIsRate);
}

}  // namespace

void register_model_cases(const std::string& report_toml, const TimingConfig& cfg) {
  static std::vector<ModelCase> cases;  // registered benchmarks refer to these
  cases.clear();
  const ReportConfig r = load_report_config(report_toml);
  for (const auto& m : r.models)
    for (const auto& scalar : cfg.scalars)
      cases.push_back(ModelCase{m.name, spec_at(m, m.spec.n), scalar == "float"});
  for (const auto& c : cases)
    benchmark::RegisterBenchmark((c.key() + "/one/step").c_str(),
                                 [&c](benchmark::State& st) { run_model_case(st, c); })
        ->Unit(benchmark::kMicrosecond)
        ->MinWarmUpTime(cfg.warmup_seconds);
}

}  // namespace cosda::bench
