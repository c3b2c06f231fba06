// cosda-bench: Google Benchmark time per steady-state step of the registry's variants, one
// benchmark per variant, shape of configs/timing.toml, scalar, thread setting (one thread; all
// cores) and step kind:
//   step    every steady-state step (variants without landmark updates)
//   plain   steps that compute no landmark (continual-landmark variants)
//   update  landmark-update steps only
//   cycle   whole landmark cycles of n steps, time per step (amortized)
// Each benchmark times a warmed-up Plain<T> stream (n tokens; continual landmarks: one more whole
// cycle; then the config's min warm-up time). Update steps are timed one by one, plain steps by
// runs between updates (manual time, less the clock's reading cost); skipped steps run untimed.
// One-thread cases use the thread's CPU clock (the machine is shared: other processes must not
// inflate it), all-core cases the wall clock; repetitions run interleaved in random order. The
// plain-Eigen ring (bench/plain_ring.hpp) is timed on one thread beside its partner variant.
// Counters: flops and bytes (memory read and written, each byte once) per step, counted under
// Tally (update: the cycle's average); FLOP/s; flop/byte; with this machine's roofline,
// bound_GFLOP/s and roofline (the fraction of the bound reached).
// --cosda_report=DIR writes timing/realized.md and timing/points.tsv (bench/report.cpp). Whole
// models come from bench/models.cpp; exp/<shape>/... (one exponential's cost) from here.
#include <benchmark/benchmark.h>
#include <fmt/format.h>
#include <omp.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>

#include "analysis/measure.hpp"
#include "analysis/policy.hpp"
#include "analysis/roofline_model.hpp"
#include "attention/kernels/elementwise.hpp"
#include "bench/bench_case.hpp"
#include "bench/streams.hpp"
#include "bench/timing_config.hpp"
#include "models/multi_head.hpp"
#include "sweeps/config_kinds.hpp"
#include "sweeps/meta.hpp"

namespace cosda::bench {

const Cost& cost_of(const Case& c) {
  static std::map<std::string, Cost> cache;
  auto it = cache.find(c.cost_key());
  if (it == cache.end())
    it = cache
             .emplace(c.cost_key(),
                      measure(c.point(), Counting::kTally,
                              c.single ? Precision::kFloat : Precision::kDouble, Touched::kRecord))
             .first;
  return it->second;
}

StepCost step_cost(const Case& c, const Cost& k) {
  StepCost s;
  const double updates = double(std::max<std::int64_t>(1, k.update_steps));
  // m = n: every step updates a landmark, and a step is the cycle's average.
  const Kind kind = k.plain_steps == 0 && c.kind != Kind::kUpdate ? Kind::kCycle : c.kind;
  switch (kind) {
    case Kind::kStep:
    case Kind::kPlain:
      s.flops = double(k.plain_step.flops());
      s.bytes = double(k.plain_bytes);
      s.exps = double(k.plain_step.exp);
      break;
    case Kind::kUpdate:
      s.flops = double(k.cycle_total.flops() - k.plain_steps * k.plain_step.flops()) / updates;
      s.bytes = double(k.cycle_bytes - k.plain_steps * k.plain_bytes) / updates;
      s.exps = double(k.cycle_total.exp - k.plain_steps * k.plain_step.exp) / updates;
      break;
    case Kind::kCycle:
      s.flops = k.amortized_flops();
      s.bytes = k.amortized_bytes();
      s.exps = double(k.cycle_total.exp) / double(k.cycle_steps);
      break;
  }
  return s;
}

namespace {

using Clock = std::chrono::steady_clock;

// Seconds on this thread's CPU clock (one-thread cases: other processes sharing the cores do not
// inflate it) or on the wall clock (all-core cases, whose work runs on several threads).
double clock_seconds(bool thread_cpu) {
  if (thread_cpu) return roofline::thread_seconds();
  return std::chrono::duration<double>(Clock::now().time_since_epoch()).count();
}

// What reading the clock adds to a timed interval (median of 1001 back-to-back readings), taken
// out of manual times: a thread-CPU clock read is a system call (docs/performance.md).
double clock_read_seconds(bool thread_cpu) {
  static const auto measure = [](bool cpu) {
    std::vector<double> gaps(1001);
    for (double& g : gaps) {
      const double a = clock_seconds(cpu);
      g = clock_seconds(cpu) - a;
    }
    std::nth_element(gaps.begin(), gaps.begin() + 500, gaps.end());
    return gaps[500];
  };
  static const double cost[2] = {measure(false), measure(true)};
  return cost[thread_cpu ? 1 : 0];
}

// Seconds since t0 (a clock_seconds reading), less the clock's own reading cost.
double seconds_since(double t0, bool thread_cpu) {
  return std::max(0.0, clock_seconds(thread_cpu) - t0 - clock_read_seconds(thread_cpu));
}

void run_case(benchmark::State& st, const Case& c, const std::optional<roofline::Machine>& m) {
  omp_set_num_threads(c.all_cores ? cores() : 1);
  const StepCost sc = step_cost(c, cost_of(c));
  StreamBase& s = stream_for(c);
  const bool cpu = !c.all_cores;
  if (c.kind == Kind::kPlain && !s.has_plain_steps()) {
    st.SkipWithError("every step updates a landmark (m = n): no plain steps");
    return;
  }
  std::int64_t steps = 0;  // steps timed, over all iterations (0: one per iteration)
  const std::int64_t taken0 = s.steps(), parallel0 = s.parallel_steps();
  switch (c.kind) {
    case Kind::kStep:  // Google Benchmark's own timers: thread CPU time, or real time (all)
      for (auto _ : st) s.step();  // NOLINT(clang-analyzer-deadcode.DeadStores): benchmark loop
      break;
    case Kind::kPlain:     // one iteration: a run of consecutive plain steps
      for (auto _ : st) {  // NOLINT(clang-analyzer-deadcode.DeadStores): benchmark loop
        while (s.next_is_update()) s.step();
        const double t0 = clock_seconds(cpu);
        do {
          s.step();
          ++steps;
        } while (!s.next_is_update());
        st.SetIterationTime(seconds_since(t0, cpu));
      }
      break;
    case Kind::kUpdate:    // one iteration: one update step, the plain steps before it untimed
      for (auto _ : st) {  // NOLINT(clang-analyzer-deadcode.DeadStores): benchmark loop
        while (!s.next_is_update()) s.step();
        const double t0 = clock_seconds(cpu);
        s.step();
        st.SetIterationTime(seconds_since(t0, cpu));
      }
      break;
    case Kind::kCycle:     // one iteration: a whole landmark cycle
      for (auto _ : st) {  // NOLINT(clang-analyzer-deadcode.DeadStores): benchmark loop
        const double t0 = clock_seconds(cpu);
        for (std::int64_t i = 0; i < s.cycle(); ++i) s.step();
        steps += s.cycle();
        st.SetIterationTime(seconds_since(t0, cpu));
      }
      break;
  }
  // Manual time is the whole iteration's (per-step time would make Google Benchmark run `steps`
  // times min_time); the `steps` counter turns it into time per step (CollectingReporter).
  if (steps == 0) steps = std::int64_t(st.iterations());
  using benchmark::Counter;
  st.counters["steps"] = Counter(double(steps), Counter::kAvgIterations);
  st.counters["flops"] = Counter(sc.flops);
  st.counters["FLOP/s"] = Counter(sc.flops * double(steps), Counter::kIsRate);
  st.counters["bytes"] = Counter(sc.bytes);
  st.counters["flop/byte"] = Counter(sc.flops / sc.bytes);
  // The share of this run's steps (untimed ones of plain, update and cycle runs included) that
  // MultiHead took on several threads: 0 where all cores ran the one-thread code.
  if (c.all_cores)
    st.counters["parallel"] = Counter(double(s.parallel_steps() - parallel0) /
                                      double(std::max<std::int64_t>(1, s.steps() - taken0)));
  if (m) {
    const roofline::Bound b =
        roofline::bound(*m, c.single, c.all_cores, cores(), sc.flops, sc.bytes);
    st.counters["bound_GFLOP/s"] = Counter(b.gflops);
    st.counters["roofline"] =
        Counter(sc.flops * double(steps) / (b.gflops * 1e9), Counter::kIsRate);
    st.SetLabel(b.limit);
  }
}

// Collecting the results for realized.md and points.tsv (bench/report.cpp).

class CollectingReporter : public benchmark::ConsoleReporter {
 public:
  // Colours only on a terminal: make reproduce keeps the console table in a file.
  // Google Benchmark's messages before the run are held: without a run (a filter that matches
  // nothing) they become the one-line error; a run's context releases them to stderr.
  CollectingReporter()
      : ConsoleReporter(::isatty(STDOUT_FILENO) == 1 ? OO_ColorTabular : OO_Tabular) {
    SetErrorStream(&held_);
  }
  bool ReportContext(const Context& context) override {
    SetErrorStream(&std::cerr);
    std::cerr << held_.str();
    return ConsoleReporter::ReportContext(context);
  }
  std::string held() const {
    const std::string text = held_.str();
    return text.substr(0, text.find_last_not_of(" \n") + 1);
  }
  void ReportRuns(const std::vector<Run>& runs) override {
    reported += runs.size();
    for (const auto& r : runs) {
      if (r.run_type != Run::RT_Iteration || r.error_occurred || r.iterations == 0) continue;
      // Manual time (plain, update, cycle) and real time (all cores) are in real_accumulated_time;
      // one-thread steps use the thread's CPU time, like their FLOP/s counters.
      const bool cpu = r.run_name.time_type.empty();
      const auto steps = r.counters.find("steps");
      const double per_iteration = steps == r.counters.end() ? 1.0 : double(steps->second);
      const double per_step = double(r.iterations) * std::max(per_iteration, 1.0);
      Measured& m = results[r.run_name.function_name];
      m.seconds.push_back((cpu ? r.cpu_accumulated_time : r.real_accumulated_time) / per_step);
      m.wall_seconds.push_back(r.real_accumulated_time / per_step);
      if (const auto p = r.counters.find("parallel"); p != r.counters.end())
        m.parallel.push_back(double(p->second));
    }
    ConsoleReporter::ReportRuns(runs);
  }
  std::map<std::string, Measured> results;  // each repetition's time, by case
  std::size_t reported = 0;                 // runs of any kind, aggregates too

 private:
  std::ostringstream held_;
};

// Takes the --cosda_* flags (and --benchmark_out, which is written atomically) out of argv.
// Google Benchmark 1.7 prints its usage and exits 0 on a format it does not know, prints two lines
// on a --benchmark_min_time that is no number, and fails mid-run on repetitions below 1; and
// cosda-bench's own console table and units leave --benchmark_format and --benchmark_time_unit
// without effect. Such a flag is refused here, in one line, before anything is timed. Returns
// whether `a` sets an aggregates-only flag, which keeps each repetition from cosda's reporter.
bool check_benchmark_value(const std::string& a) {
  const auto eq = a.find('=');
  const std::string flag = a.substr(0, eq), v = eq == std::string::npos ? "" : a.substr(eq + 1);
  auto one_of = [&](std::initializer_list<std::string_view> allowed, std::string_view words) {
    if (std::find(allowed.begin(), allowed.end(), v) == allowed.end())
      throw InputError(fmt::format("cosda-bench: flag {} must be {}, got '{}'", flag, words, v));
  };
  auto number = [&](auto x) {  // the whole value parsed as x's type, and above 0
    const auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
    return ec == std::errc() && p == v.data() + v.size() && x > 0 && x < 1e9;
  };
  if (flag == "--benchmark_format")
    one_of({"console"},
           "console (the table cosda-bench prints; for JSON or CSV add --benchmark_out=FILE "
           "--benchmark_out_format=json|csv)");
  else if (flag == "--benchmark_out_format")
    one_of({"console", "json", "csv"}, "console, json or csv");
  else if (flag == "--benchmark_time_unit")
    throw InputError(
        "cosda-bench: flag --benchmark_time_unit has no effect: every benchmark sets its own "
        "unit, microseconds; leave it out");
  else if (flag == "--benchmark_repetitions" && !number(0))
    throw InputError(
        fmt::format("cosda-bench: flag {} must be an integer >= 1, got '{}'", flag, v));
  else if (flag == "--benchmark_min_time" && !number(0.0))
    throw InputError(fmt::format(
        "cosda-bench: flag {} must be a positive number of seconds, got '{}'", flag, v));
  std::string low = v;  // Google Benchmark's false: 0, f, n, false, no, off, any case
  for (char& ch : low) ch = char(std::tolower(static_cast<unsigned char>(ch)));
  return flag.ends_with("_aggregates_only") &&
         !(low == "0" || low == "f" || low == "n" || low == "false" || low == "no" || low == "off");
}

Options parse_own_flags(int* argc, char** argv) {
  Options o;
  std::string hides;  // an aggregates-only flag, which keeps the repetitions from the reporter
  for (int i = 0; i < *argc; ++i) o.command += (i ? " " : "") + std::string(argv[i]);
  int w = 1;
  for (int i = 1; i < *argc; ++i) {
    const std::string a = argv[i];
    auto value = [&](const char* flag) -> std::optional<std::string> {
      const std::string prefix = std::string(flag) + "=";
      if (a.rfind(prefix, 0) != 0) return std::nullopt;
      std::string v = a.substr(prefix.size());
      if (v.empty())
        throw InputError(std::string("cosda-bench: flag ") + flag + " needs a value (" + flag +
                         "=...)");
      return v;
    };
    if (auto v = value("--cosda_config")) {
      o.config = *v;
    } else if (auto v = value("--cosda_machine")) {
      o.machine = *v;
    } else if (auto v = value("--cosda_models")) {
      o.models = *v;
    } else if (auto v = value("--cosda_report")) {
      o.report = *v;
    } else if (auto v = value("--benchmark_out")) {
      o.out = *v;
    } else if (a == "--cosda_quick") {
      o.quick = true;
    } else if (a.rfind("--cosda", 0) == 0) {
      throw InputError("cosda-bench: unknown flag " + a +
                       "; allowed: --cosda_config=FILE, --cosda_models=FILE, "
                       "--cosda_machine=FILE, --cosda_report=DIR, --cosda_quick (see "
                       "--cosda_help)");
    } else {
      if (check_benchmark_value(a)) hides = a.substr(0, a.find('='));
      argv[w++] = argv[i];
    }
  }
  *argc = w;
  if (!o.report.empty() && !hides.empty())
    throw InputError("cosda-bench: flag " + hides +
                     " keeps each repetition from --cosda_report, which needs them; drop one of "
                     "the two");
  return o;
}

// Prints the --cosda_* flags when argv asks for them (--cosda_help); true if it did.
bool print_help(int argc, char** argv) {
  for (int i = 1; i < argc; ++i)
    if (!std::strcmp(argv[i], "--cosda_help")) {
      fmt::print(
          "usage: cosda-bench [--cosda_config=FILE] [--cosda_quick]\n"
          "                   [--cosda_machine=FILE] [--cosda_report=DIR] [Google Benchmark "
          "flags]\n"
          "  --cosda_config=FILE   shapes to time (default configs/timing.toml)\n"
          "  --cosda_quick         only the shapes marked quick (the make reproduce pass)\n"
          "  --cosda_models=FILE   whole models (default configs/models/report.toml; none)\n"
          "  --cosda_machine=FILE  this machine's roofline, for the bound counters (default "
          "results/roofline/machine.json)\n"
          "  --cosda_report=DIR    write DIR/timing/realized.md and DIR/timing/points.tsv\n"
          "Benchmark names: variant/shape/scalar/threads/kind, model/name/scalar/one/step, "
          "exp/shape/scalar/one/step; "
          "e.g. --benchmark_filter='co_si/table3/float/one'.\n"
          "Google Benchmark's own flags: --help.\n");
      return true;
    }
  return false;
}

// The run's context in Google Benchmark's output: commit, config, CPU, roofline, BLAS, clock, ISA.
void add_context(const Options& o, const std::optional<roofline::Machine>& machine) {
  benchmark::AddCustomContext("cosda_git_commit", build_commit());
  benchmark::AddCustomContext("cosda_config", o.config);
  benchmark::AddCustomContext("cosda_cpu", roofline::cpu_name());
  benchmark::AddCustomContext("cosda_machine", machine ? o.machine : "none");
  benchmark::AddCustomContext("cosda_blas", blas::kAvailable ? "OpenBLAS" : "none");
  benchmark::AddCustomContext(
      "cosda_clock_read_ns",
      fmt::format("thread CPU {:.0f}, wall {:.0f} (subtracted from manual times)",
                  1e9 * clock_read_seconds(true), 1e9 * clock_read_seconds(false)));
  if (const char* ct = std::getenv("OPENBLAS_CORETYPE"))
    benchmark::AddCustomContext("OPENBLAS_CORETYPE", ct);
  if (const char* was = std::getenv("COSDA_OPENBLAS_CORETYPE_WAS"))
    benchmark::AddCustomContext("OPENBLAS_CORETYPE_environment", was);
  benchmark::AddCustomContext("cosda_vector_isa", roofline::kVectorIsa);
}

// The cases of the config's (quick) shapes: each variant, scalar, thread setting (all cores only
// with several) and step kind; and on one thread the plain-Eigen ring wherever its partner is.
std::vector<Case> make_cases(const TimingConfig& cfg, bool quick) {
  std::vector<Case> cases;
  const std::string partner(ring_partner().id);
  for (const auto& s : cfg.shapes) {
    if (quick && !s.quick) continue;
    for (const auto& scalar : cfg.scalars)
      for (const bool all : {false, true}) {
        if (all && cores() < 2) continue;
        for (const auto& v : kVariants) {
          if (!s.has(v.id)) continue;
          const bool cycles = v.landmarks == LandmarkKind::kContinual;
          const std::vector<Kind> kinds =
              cycles ? std::vector{Kind::kCycle, Kind::kPlain, Kind::kUpdate}
                     : std::vector{Kind::kStep};
          for (const Kind k : kinds)
            cases.push_back(Case{std::string(v.id), &s, scalar == "float", all, k});
        }
        if (!all && s.has(partner))
          cases.push_back(Case{partner, &s, scalar == "float", false, Kind::kStep, true});
      }
  }
  return cases;
}

// One benchmark per case; they refer to the cases and the machine, which must outlive the run.
void register_cases(const std::vector<Case>& cases, const TimingConfig& cfg,
                    const std::optional<roofline::Machine>& machine) {
  for (const auto& c : cases) {
    auto* b = benchmark::RegisterBenchmark(
        c.name().c_str(), [&c, &machine](benchmark::State& st) { run_case(st, c, machine); });
    b->Unit(benchmark::kMicrosecond)->MinWarmUpTime(cfg.warmup_seconds);
    if (c.kind != Kind::kStep)
      b->UseManualTime();
    else if (c.all_cores)
      b->UseRealTime();
  }
}

// One exponential's cost for the head-batching table: att's softmax kernel (kernels::exp_sum) over
// n rows of n in place, one thread. It takes exp(y - 2), which settles at a fixed point: unshifted
// values would grow to inf, and the double exp is slower beyond |x| = 708 (packet_exp.hpp).
template <class T>
void time_exps(benchmark::State& st, std::int64_t n) {
  std::vector<T> y(std::size_t(n * n), T(0.5));
  for (auto _ : st) {  // NOLINT(clang-analyzer-deadcode.DeadStores): benchmark loop
    T total(0);
    for (std::int64_t i = 0; i < n; ++i) total += kernels::exp_sum(y.data() + i * n, n, true, T(2));
    benchmark::DoNotOptimize(total);
  }
}

// exp/<shape>/<scalar>/one/step for every shape with heads (only the quick ones with quick).
void register_exp_cases(const TimingConfig& cfg, bool quick) {
  for (const auto& s : cfg.shapes) {
    if ((quick && !s.quick) || s.heads <= 1) continue;
    for (const auto& scalar : cfg.scalars) {
      const bool single = scalar == "float";
      const std::int64_t n = s.n;
      auto* b = benchmark::RegisterBenchmark(
          exp_case_name(s, single).c_str(), [single, n](benchmark::State& st) {
            omp_set_num_threads(1);
            single ? time_exps<float>(st, n) : time_exps<double>(st, n);
          });
      b->Unit(benchmark::kMicrosecond)->MinWarmUpTime(cfg.warmup_seconds);
    }
  }
}

int run_main(int argc, char** argv) {
  if (print_help(argc, argv)) return 0;
  Options o = parse_own_flags(&argc, argv);
  // Google Benchmark writes --benchmark_out to out_tmp: it becomes o.out once something was
  // timed, and is removed on every other way out (no match, a listing, an error).
  const struct RemovedAtExit {
    std::string path;
    ~RemovedAtExit() {
      std::error_code ec;
      if (!path.empty()) std::filesystem::remove(path, ec);
    }
  } out_tmp{o.out.empty() ? "" : fmt::format("{}.tmp.{}", o.out, static_cast<long>(::getpid()))};
  std::vector<std::string> extra;
  extra.reserve(2);  // args hold pointers into these strings
  std::vector<char*> args(argv, argv + argc);
  // Repetitions of all benchmarks interleaved in random order, so that one thread and all
  // cores (and any two cases compared) meet the machine's load alike; a later flag overrides.
  extra.push_back("--benchmark_enable_random_interleaving=true");
  args.insert(args.begin() + 1, extra.back().data());
  if (!o.out.empty()) {
    const auto parent = std::filesystem::path(o.out).parent_path();
    if (!parent.empty()) std::filesystem::create_directories(parent);
    extra.push_back("--benchmark_out=" + out_tmp.path);
    args.push_back(extra.back().data());
  }
  int n_args = int(args.size());
  args.push_back(nullptr);
  benchmark::Initialize(&n_args, args.data());
  if (benchmark::ReportUnrecognizedArguments(n_args, args.data())) return 2;

  const TimingConfig cfg = read_config_as("timing", o.config, load_timing_config);
  if (!o.report.empty()) check_report_outputs(o);
  const std::optional<roofline::Machine> machine = read_this_machine(o);
  add_context(o, machine);

  static std::vector<Case> cases;  // registered benchmarks refer to these
  cases = make_cases(cfg, o.quick);
  register_cases(cases, cfg, machine);
  register_exp_cases(cfg, o.quick);
  if (o.models != "none") register_model_cases(o.models, cfg);
  CollectingReporter reporter;
  o.load_before = roofline::load_average();
  benchmark::AddCustomContext("load_average_before", o.load_before);
  const std::size_t matched = benchmark::RunSpecifiedBenchmarks(&reporter);
  o.load_after = roofline::load_average();
  benchmark::Shutdown();
  // Nothing timed (no match, or --benchmark_list_tests): no result file, not even an empty one.
  const bool timed = reporter.reported > 0;
  if (timed && !o.out.empty() && std::filesystem::exists(out_tmp.path))
    std::filesystem::rename(out_tmp.path, o.out);
  if (matched == 0)
    throw InputError("cosda-bench: flag --benchmark_filter: " + reporter.held() +
                     "; list the benchmarks with --benchmark_list_tests=true");
  if (!o.report.empty() && timed && reporter.results.empty())
    throw std::runtime_error("every run failed: no time for --cosda_report");
  if (!o.report.empty() && timed) write_reports(o, cfg, cases, reporter.results, machine);
  return 0;
}

}  // namespace
}  // namespace cosda::bench

int main(int argc, char** argv) {
  cosda::roofline::select_openblas_kernels(argv);
  return cosda::exit_status("cosda-bench", [&] { return cosda::bench::run_main(argc, argv); });
}
