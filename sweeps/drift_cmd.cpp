// cosda drift CONFIG: numerical drift of the continual variants' running sums on long streams,
// in float and double, with and without the stabilised mode (Config::exp_shift).
//
// Each run streams calibration + n + steps tokens through one variant and, at about
// `checkpoints` steady-state steps (log- and evenly spaced, always the last), compares the
// output with a from-scratch recomputation of the same window in the same scalar type and in
// double (analysis/numerics.hpp). Writes results/<name>/drift.csv (every checkpoint),
// drift.md (per run: error at the first and last step, the largest, cost per step with and
// without the stabilised mode, time) and drift_<stream>.png.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <filesystem>

#include "analysis/measure.hpp"
#include "analysis/numerics.hpp"
#include "attention/registry.hpp"
#include "io/atomic_file.hpp"
#include "io/errors.hpp"
#include "io/plot.hpp"
#include "sweeps/args.hpp"
#include "sweeps/commands.hpp"
#include "sweeps/stream_config.hpp"

namespace cosda {
namespace {

namespace fs = std::filesystem;

struct DriftConfig {
  std::string name;
  std::int64_t n = 0, d = 0, m = 0, steps = 0, calibration = 0, checkpoints = 0;
  int pinv_iterations = 6;
  std::vector<std::string> variants, scalars, modes;
  std::vector<NamedStream> streams;
};

DriftConfig parse_config(const fs::path& path) {
  TomlTable t = TomlTable::parse_file(path);
  DriftConfig c;
  c.name = parse_result_name(t);
  c.n = t.integer("n", 1, 1 << 14);
  c.d = t.integer("d", 1, 4096);
  c.m = t.integer("m", 1, 1 << 14);
  c.steps = t.integer("steps", 1, std::int64_t(1) << 40);
  c.calibration = t.integer("calibration", 1, 1 << 24);
  c.checkpoints = t.integer("checkpoints", 2, 100000, 120);
  c.pinv_iterations = int(t.integer("pinv_iterations", 0, 100, 6));
  std::vector<std::string> continual;
  for (const auto& v : kVariants)
    if (v.continual) continual.emplace_back(v.id);
  c.variants = t.choices("variants", continual);
  c.scalars =
      t.choices("scalars", {"float", "double"}, std::vector<std::string>{"float", "double"});
  c.modes = t.choices("modes", {"plain", "stabilised"}, std::vector<std::string>{"plain"});
  c.streams = parse_streams(t, c.d);
  t.finish();
  if (c.m > c.n)
    throw InputError(
        fmt::format("{}: key 'm' ({}) must be at most n ({})", path.string(), c.m, c.n));
  if (c.calibration < std::max(c.n, c.m))
    throw InputError(
        fmt::format("{}: key 'calibration' ({}) must be at least n ({}): the "
                    "stabilised mode's shift is calibrated over whole windows",
                    path.string(), c.calibration, c.n));
  return c;
}

struct Run {
  const NamedStream* stream;
  std::string variant;
  bool single = false;
  Precision precision;
  bool stabilised;
  DriftResult result;
  double seconds = 0;
};

std::string scalar_name(Precision p) { return p == Precision::kFloat ? "float" : "double"; }
std::string mode_name(bool stabilised) { return stabilised ? "stabilised" : "plain"; }

void plot_drift(const fs::path& dir, const DriftConfig& c, const NamedStream& s,
                const std::vector<Run>& runs) {
  std::string body = "set multiplot layout 1," + std::to_string(c.scalars.size()) + " title " +
                     gp_quote(fmt::format("drift of the running sums: output vs a from-scratch "
                                          "recomputation of the same window in the same scalar "
                                          "(stream {}, n = {}, d = {}, m = {}; dashed: "
                                          "stabilised mode)",
                                          s.name, c.n, c.d, c.m)) +
                     "\nset logscale xy\nset grid\nset key outside right font ',9'\n"
                     "set format y '%.0e'\nset format x '%.0e'\nset xlabel 'steady-state step'\n"
                     "set ylabel 'relative error'\n";
  for (const std::string& scalar : c.scalars) {
    std::string plot;
    for (const Run& r : runs) {
      if (r.stream != &s || scalar_name(r.precision) != scalar) continue;
      std::vector<std::vector<std::string>> pts;
      for (const DriftPoint& p : r.result.points)
        pts.push_back(
            {std::to_string(p.step), fmt::format("{:.6e}", std::max(p.vs_scratch, 1e-18))});
      if (pts.empty()) continue;
      const std::string name = fmt::format("{}_{}_{}", scalar, r.variant, mode_name(r.stabilised));
      body += datablock(name, pts);
      plot += (plot.empty() ? "plot " : ", ") +
              fmt::format("${} using 1:2 with lines lw 2 dt {} lc rgb '{}' title '{}{}'", name,
                          r.stabilised ? 2 : 1, variant(r.variant).style.colour, r.variant,
                          r.stabilised ? " (stab.)" : "");
    }
    body += "set title '" + scalar + "'\n" + (plot.empty() ? "plot 1/0 notitle" : plot) + "\n";
  }
  body += "unset multiplot\n";
  render_png(dir / ("drift_" + s.name + ".png"), body, 800 * int(c.scalars.size()), 560);
}

}  // namespace

int cmd_drift(const Argv& argv) {
  Args a("drift",
         {{"results", "DIR", "folder for results/<name>/ (default results)"},
          {"no-plots", "", "write the CSV and markdown files only (no gnuplot)"}},
         argv);
  if (a.help()) {
    fmt::print(
        "usage: cosda drift CONFIG.toml [--results DIR] [--no-plots]\n"
        "Streams many steps through the continual variants and measures how far their running\n"
        "sums drift from a from-scratch recomputation of the same window, in float and double,\n"
        "with and without the stabilised mode. Writes results/<name>/drift.csv, drift.md and\n"
        "drift_<stream>.png. See configs/drift.toml for the keys.\n\n{}",
        a.usage());
    return 0;
  }
  if (a.positional().size() != 1)
    throw InputError("cosda drift: expected one CONFIG.toml argument (see cosda drift --help)");
  const auto t0 = std::chrono::steady_clock::now();
  const DriftConfig c = parse_config(a.positional()[0]);
  const fs::path dir = fs::path(a.get("results").value_or("results")) / c.name;

  std::vector<Run> runs;
  for (const NamedStream& s : c.streams)
    for (const std::string& v : c.variants)
      for (const std::string& scalar : c.scalars)
        for (const std::string& mode : c.modes)
          runs.push_back({&s,
                          v,
                          find_variant(v)->single_output,
                          scalar == "float" ? Precision::kFloat : Precision::kDouble,
                          mode == "stabilised",
                          {},
                          0.0});
  std::string failure;
#pragma omp parallel for schedule(dynamic)
  for (std::size_t i = 0; i < runs.size(); ++i) {
    Run& r = runs[i];
    DriftSpec spec{.variant = r.variant,
                   .precision = r.precision,
                   .stabilised = r.stabilised,
                   .n = c.n,
                   .d = c.d,
                   .m = c.m,
                   .steps = c.steps,
                   .calibration = c.calibration,
                   .checkpoints = c.checkpoints,
                   .pinv_iterations = c.pinv_iterations};
    const auto s0 = std::chrono::steady_clock::now();
    try {
      r.result = run_drift(spec, r.stream->spec, r.stream->projection, r.stream->projection_seed);
    } catch (const std::exception& e) {
#pragma omp critical
      failure = fmt::format("stream '{}', {}: {}", r.stream->name, r.variant, e.what());
    }
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - s0).count();
#pragma omp critical
    fmt::print(stderr, "drift: {} {} {} {} done in {:.1f} s\n", r.stream->name, r.variant,
               scalar_name(r.precision), mode_name(r.stabilised), r.seconds);
  }
  if (!failure.empty()) throw InputError("cosda drift: " + failure);

  std::string csv = "stream,variant,scalar,mode,step,vs_scratch,vs_double,scratch_vs_double\n";
  for (const Run& r : runs)
    for (const DriftPoint& p : r.result.points) {
      const std::string what = fmt::format("{} {} step {}", r.variant, r.stream->name, p.step);
      csv += fmt::format("{},{},{},{},{},{},{},{}\n", r.stream->name, r.variant,
                         scalar_name(r.precision), mode_name(r.stabilised), p.step,
                         num(p.vs_scratch, what), num(p.vs_double, what),
                         num(p.scratch_vs_double, what));
    }
  write_file_atomic(dir / "drift.csv", csv);

  std::string md = fmt::format(
      "# Drift: {}\n\nWritten by `cosda drift` from its config. n = {}, d = {}, m = {}, {} "
      "steady-state steps after {} calibration tokens (fixed landmarks: their m-means; the "
      "stabilised mode's C: calibrate_shift over them). Error: relative Frobenius error of the "
      "output against a from-scratch recomputation of the same window in the same scalar type "
      "(`vs scratch`; the recomputation uses the landmarks the variant holds) and in double "
      "(`vs double`); `floor` is the same-scalar recomputation's own error against double. "
      "FLOPs per step: measure() (Tally<double>), plain and stabilised.\n\n"
      "| stream | variant | scalar | mode | vs scratch, step 1 | vs scratch, last step | "
      "largest vs scratch | vs double, last step | floor, last step | FLOPs/step | C | "
      "seconds | status |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|\n",
      c.name, c.n, c.d, c.m, c.steps, c.calibration);
  for (const Run& r : runs) {
    const auto& pts = r.result.points;
    const bool ok = r.result.nonfinite_step < 0 && !pts.empty() && pts.back().step == c.steps;
    double worst = 0;
    for (const DriftPoint& p : pts) worst = std::max(worst, p.vs_scratch);
    const double flops =
        measure(
            Point{.variant = r.variant, .n = c.n, .d = c.d, .m = c.m, .stabilised = r.stabilised})
            .amortized_flops();
    const std::string what = r.variant + " " + r.stream->name;
    const std::string status =
        ok ? "ok" : fmt::format("non-finite output at step {}", r.result.nonfinite_step);
    md += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {:.1f} | {} |\n",
                      r.stream->name, r.variant, scalar_name(r.precision), mode_name(r.stabilised),
                      pts.empty() ? "-" : fmt::format("{:.2e}", pts.front().vs_scratch),
                      ok ? fmt::format("{:.2e}", pts.back().vs_scratch) : "-",
                      pts.empty() ? "-" : fmt::format("{:.2e}", worst),
                      ok ? fmt::format("{:.2e}", pts.back().vs_double) : "-",
                      ok ? fmt::format("{:.2e}", pts.back().scratch_vs_double) : "-",
                      num(flops, what), r.stabilised ? fmt::format("{:.4g}", r.result.shift) : "-",
                      r.seconds, status);
  }
  write_file_atomic(dir / "drift.md", md);
  if (!a.has("no-plots"))
    for (const NamedStream& s : c.streams) plot_drift(dir, c, s, runs);
  fmt::print("drift: {} runs in {} ({:.0f} s)\n", runs.size(), (dir / "drift.csv").string(),
             std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  return 0;
}

}  // namespace cosda
