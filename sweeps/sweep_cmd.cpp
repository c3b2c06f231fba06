// cosda sweep: every point of a config's grid measured in parallel, written as
// <out>/<name>/points.csv and meta.json (and, unless --no-report, table.md and the figures).
#include <fmt/format.h>
#include <omp.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <optional>

#include "analysis/study_output.hpp"  // Clock, seconds_since
#include "io/atomic_file.hpp"
#include "io/folder_lock.hpp"
#include "io/output_transaction.hpp"
#include "sweeps/args.hpp"
#include "sweeps/commands.hpp"
#include "sweeps/config.hpp"
#include "sweeps/config_kinds.hpp"
#include "sweeps/point_memory.hpp"
#include "sweeps/report.hpp"
#include "sweeps/sweep.hpp"

namespace cosda {
namespace {

std::atomic<bool> g_stop{false};

// First Ctrl-C (or SIGTERM): let the points in flight finish and keep them; a second one
// ends the process at once (the journal still holds every finished point).
extern "C" void on_signal(int sig) {
  if (g_stop.exchange(true)) {
    std::signal(sig, SIG_DFL);
    std::raise(sig);
  }
}

std::string clock_text(double seconds) {
  const long long s = std::llround(seconds);
  return fmt::format("{}:{:02}", s / 60, s % 60);
}

constexpr const char* kHelp =
    "usage: cosda sweep CONFIG [--out DIR] [--jobs N] [--no-report | --no-figures]\n"
    "                  [--resume | --fresh] [--shard K/N] [--memory-limit BYTES]\n"
    "                  [--convention C] [--quiet]\n"
    "Measures every point of the config's grid by executing the kernels under counting\n"
    "(fast path) and writes DIR/<name>/points.csv (one row per variant x layers x heads x\n"
    "n x d x m, in the same order whatever --jobs), meta.json (provenance) and then, as\n"
    "cosda report does, table.md and the figures. Points a variant cannot run are rows\n"
    "with a skip_reason. Progress goes to stderr (a line redrawn on a terminal, else a\n"
    "line every 10 s and a final one; --quiet: none); the time left weighs the points by\n"
    "their cost predicted from the exact closed forms.\n"
    "Each finished point is journaled (DIR/<name>/.points.journal); after Ctrl-C or a kill,\n"
    "--resume runs only the rest and gives the same points.csv. --shard K/N writes\n"
    "DIR/<name>/shard-K-of-N/ (no report); cosda merge joins the N shard folders.";

// Progress on stderr: on a terminal a line redrawn per point, else a line every 10 s and a final
// one. Time left: this run's rate per predicted_cost(), applied to the cost of the rest.
std::function<void(const SweepProgress&)> progress_line(const std::string& name,
                                                        Clock::time_point t0) {
  const bool tty = ::isatty(STDERR_FILENO) == 1;
  return [name, t0, tty, last = -1.0](const SweepProgress& p) mutable {
    const double e = seconds_since(t0);
    const bool final = p.done == p.total;
    if (!tty && !final && last >= 0 && e - last < 10) return;
    last = e;
    const std::optional<double> left = eta_seconds(e, p.cost_ran, p.cost_left);
    fmt::print(stderr, "{}cosda sweep {}: {}/{} points, {} elapsed, ~{} left{}",
               tty ? "\r\033[K" : "", name, p.done, p.total, clock_text(e),
               left ? clock_text(*left) : "?", tty && !final ? "" : "\n");
    std::fflush(stderr);
  };
}

// Runs the plan; the first Ctrl-C (or SIGTERM) stops it after the points in flight.
SweepOutcome run_interruptible(const SweepConfig& c, SweepPlan& plan) {
  plan.stop = &g_stop;
  std::signal(SIGINT, on_signal);
  std::signal(SIGTERM, on_signal);
  SweepOutcome outcome = run_sweep(c, plan);
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
  return outcome;
}

// A sweep's config, plan and folder from its flags, checked by prepare() before any work.
struct Prepared {
  SweepConfig config;
  SweepPlan plan;
  std::filesystem::path dir;
};

// --memory-limit as count and stream take it; a bare number (old syntax) is GiB, with a warning.
double sweep_memory_limit(const Args& a) {
  const auto v = a.get("memory-limit");
  if (!v) return available_memory_bytes();
  if (!v->empty() && (std::isdigit(static_cast<unsigned char>(v->back())) || v->back() == '.')) {
    const double gib = a.real("memory-limit", 1e-3, 1e6, 0);
    fmt::print(stderr,
               "cosda sweep: --memory-limit {0} without a unit is read as {0} GiB; this form is "
               "deprecated: write --memory-limit {0}G (bytes with K, M, G or T, as count and "
               "stream take it)\n",
               *v);
    return gib * 1024.0 * 1024.0 * 1024.0;
  }
  return *a.bytes("memory-limit");
}

Prepared prepare(const Args& a) {
  Prepared p{read_config_as("sweep", a.positional()[0], load_config), {}, {}};
  if (const auto conv = a.get("convention"))
    p.config.convention = a.choice("convention", {"all", "mul", "mac", "cotrans"}, "all");
  const SweepConfig& c = p.config;
  check_some_point_runs(c);
  SweepPlan& plan = p.plan;
  plan.shard = a.has("shard") ? parse_shard(*a.get("shard")) : Shard{};
  p.dir = sweep_dir(a.get("out").value_or("results"), c, plan.shard);
  plan.jobs = static_cast<int>(a.integer("jobs", 1, 1024, omp_get_max_threads()));
  const double limit = sweep_memory_limit(a);
  check_memory(c, plan.shard, plan.jobs, limit);
  check_sweep_outputs(p.dir, a.positional()[0]);
  if (!a.has("no-report") && plan.shard.whole())
    check_report_outputs(c, p.dir, !a.has("no-figures"));
  plan.journal = p.dir / ".points.journal";
  plan.resume = a.has("resume");
  return p;
}

}  // namespace

int cmd_sweep(const Argv& argv) {
  Args a("sweep",
         {{"out", "DIR", "results root; files go to DIR/<name>/ (default results)"},
          {"jobs", "N", "points measured at once (default: all cores)"},
          {"no-report", "", "write points.csv and meta.json only (no table.md, no figures)"},
          {"no-figures", "", "write table.md and the .gp scripts but do not run gnuplot"},
          {"resume", "", "keep the points an interrupted run of this config and build finished"},
          {"fresh", "", "discard an interrupted run's finished points and start over"},
          {"shard", "K/N", "run only the K-th of N disjoint slices (join them with cosda merge)"},
          {"memory-limit", "BYTES",
           "memory the sweep may use (K, M, G, T suffixes; default: MemAvailable)"},
          {"convention", "all|mul|mac|cotrans",
           "how figures and table.md total executed FLOPs (default: the config's, else all)"},
          {"quiet", "", "no progress lines on stderr"}},
         argv);
  if (a.print_help(kHelp)) return 0;
  if (a.positional().size() != 1)
    throw InputError(
        "cosda sweep: give exactly one config file, e.g. cosda sweep "
        "configs/nystrom_table3.toml (see cosda sweep --help)");
  if (a.has("resume") && a.has("fresh"))
    throw InputError("cosda sweep: --resume and --fresh exclude each other; give one");
  auto [c, plan, dir] = prepare(a);
  // All files published at once; the journal (kept for --resume until then) dropped in that step.
  OutputTransaction out(dir);
  // Held until the command returns: a second sweep of the folder, or its --fresh, is refused.
  const FolderLock lock(dir, "cosda sweep");
  if (!plan.resume && !a.has("fresh") && std::filesystem::exists(plan.journal))
    throw InputError("cosda sweep: " + plan.journal.string() +
                     " holds the finished points of an interrupted run; add --resume to keep "
                     "them or --fresh to start over");

  const Clock::time_point t0 = Clock::now();
  if (!a.has("quiet")) plan.progress = progress_line(c.name, t0);
  const SweepOutcome outcome = run_interruptible(c, plan);
  // A redrawn line a stop cut short is ended before the message below.
  if (plan.progress && outcome.interrupted && ::isatty(STDERR_FILENO) == 1)
    fmt::print(stderr, "\n");
  const double seconds = seconds_since(t0);
  if (outcome.interrupted) {
    fmt::print(stderr,
               "cosda sweep: interrupted; {} finished points are kept in {}; run the same "
               "command with --resume to finish\n",
               outcome.rows.size(), plan.journal.string());
    return 130;
  }
  const std::string points = points_csv(outcome.rows);
  const std::string meta = meta_json(c, plan.jobs, seconds, plan.shard);
  out.stage([&](const std::filesystem::path& stage) {
    write_file_atomic(stage / "points.csv", points);
    write_file_atomic(stage / "meta.json", meta);
  });
  std::string listing;
  if (!a.has("no-report") && plan.shard.whole())
    listing = write_listed_report(c, outcome.rows, out, !a.has("no-figures"), "  ", "cosda sweep");
  out.commit(replaced_report(dir, {plan.journal.filename().string(), ".lock"}));
  fmt::print("{}: {} points ({} skipped{}) in {:.1f} s -> {}\n", c.name, outcome.rows.size(),
             std::count_if(outcome.rows.begin(), outcome.rows.end(),
                           [](const SweepRow& r) { return !r.executed(); }),
             outcome.kept > 0 ? fmt::format(", {} kept from the journal", outcome.kept) : "",
             seconds, (dir / "points.csv").string());
  fmt::print("{}", listing);
  return 0;
}

}  // namespace cosda
