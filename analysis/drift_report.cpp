#include "analysis/drift_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <exception>

#include "analysis/study_output.hpp"
#include "attention/registry.hpp"
#include "io/errors.hpp"
#include "io/plot.hpp"

namespace cosda {
namespace {

// drift.md's opening: the config (name, n, d, m, steps, calibration) and what is compared.
constexpr char kIntro[] =
    "# Drift: {}\n\nWritten by `cosda drift` from its config (commit and CPU: meta.json). n = {}, "
    "d = {}, m = {}, {} "
    "steady-state steps after {} calibration tokens (fixed landmarks: their m-means; the "
    "stabilised mode's C: calibrate_shift over them). Error: relative Frobenius error of the "
    "output against a from-scratch recomputation of the same window in the same scalar type "
    "(`vs scratch`; the recomputation uses the landmarks the variant holds) and in double "
    "(`vs double`); `floor` is the same-scalar recomputation's own error against double. "
    "FLOPs per step: measure() (Tally<double>), plain and stabilised.\n\n";

std::string scalar_name(Precision p) { return p == Precision::kFloat ? "float" : "double"; }
std::string mode_name(bool stabilised) { return stabilised ? "stabilised" : "plain"; }

std::string markdown_row(const DriftConfig& c, const DriftRun& r) {
  const auto& pts = r.result.points;
  const bool ok = r.result.nonfinite_step < 0 && !pts.empty() && pts.back().step == c.steps;
  double worst = 0;
  for (const DriftPoint& p : pts) worst = std::max(worst, p.vs_scratch);
  const double flops =
      measure(Point{.variant = r.variant, .n = c.n, .d = c.d, .m = c.m, .stabilised = r.stabilised})
          .amortized_flops();
  const std::string what = r.variant + " " + r.stream->name;
  const std::string status =
      ok ? "ok" : fmt::format("non-finite output at step {}", r.result.nonfinite_step);
  return fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {:.1f} | {} |\n",
                     r.stream->name, r.variant, scalar_name(r.precision), mode_name(r.stabilised),
                     pts.empty() ? "-" : fmt::format("{:.2e}", pts.front().vs_scratch),
                     ok ? fmt::format("{:.2e}", pts.back().vs_scratch) : "-",
                     pts.empty() ? "-" : fmt::format("{:.2e}", worst),
                     ok ? fmt::format("{:.2e}", pts.back().vs_double) : "-",
                     ok ? fmt::format("{:.2e}", pts.back().scratch_vs_double) : "-",
                     num(flops, what), r.stabilised ? fmt::format("{:.4g}", r.result.shift) : "-",
                     r.seconds, status);
}

void plot_stream(const std::filesystem::path& dir, const DriftConfig& c, const NamedStream& s,
                 const std::vector<DriftRun>& runs, std::vector<std::string>& notes) {
  Multiplot fig(fmt::format("drift of the running sums: output vs a from-scratch "
                            "recomputation of the same window in the same scalar "
                            "(stream {}, n = {}, d = {}, m = {}; dashed: stabilised mode)",
                            s.name, c.n, c.d, c.m),
                "set logscale xy\nset grid\nset key outside right font ',9'\n"
                "set format y '%.0e'\nset format x '%.0e'\n"
                "set xlabel 'steady-state step (tokens streamed)'\n"
                "set ylabel 'relative Frobenius error vs scratch (unitless)'\n");
  for (const std::string& scalar : c.scalars) {
    for (const DriftRun& r : runs) {
      if (r.stream != &s || scalar_name(r.precision) != scalar) continue;
      std::vector<std::vector<std::string>> pts;
      for (const DriftPoint& p : r.result.points)
        pts.push_back(
            {std::to_string(p.step), fmt::format("{:.6e}", std::max(p.vs_scratch, 1e-18))});
      const std::string name = fmt::format("{}_{}_{}", scalar, r.variant, mode_name(r.stabilised));
      fig.series(name, pts,
                 fmt::format("${} using 1:2 with lines lw 2 dt {} lc rgb '{}' title '{}{}'", name,
                             r.stabilised ? 2 : 1, variant(r.variant).style.colour, r.variant,
                             r.stabilised ? " (stab.)" : ""));
    }
    fig.end_panel("set title '" + scalar + "'\n");
  }
  const std::string file = "drift_" + s.name + ".png";
  if (!fig.render(dir / file, 800, 560))
    notes.push_back(file + ": no run has a checkpoint; not drawn");
}

}  // namespace

std::vector<DriftRun> run_drift_study(const DriftConfig& c) {
  std::vector<DriftRun> runs;
  for (const NamedStream& s : c.streams)
    for (const std::string& v : c.variants)
      for (const std::string& scalar : c.scalars)
        for (const std::string& mode : c.modes)
          runs.push_back({&s,
                          v,
                          scalar == "float" ? Precision::kFloat : Precision::kDouble,
                          mode == "stabilised",
                          {},
                          0.0});
  std::string failure;
#pragma omp parallel for schedule(dynamic)
  for (std::size_t i = 0; i < runs.size(); ++i) {
    DriftRun& r = runs[i];
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
    const auto s0 = Clock::now();
    try {
      r.result = run_drift(spec, r.stream->spec, r.stream->projection, r.stream->projection_seed);
    } catch (const std::exception& e) {
#pragma omp critical
      failure = fmt::format("stream '{}', {}: {}", r.stream->name, r.variant, e.what());
    }
    r.seconds = seconds_since(s0);
#pragma omp critical
    fmt::print(stderr, "drift: {} {} {} {} done in {:.1f} s\n", r.stream->name, r.variant,
               scalar_name(r.precision), mode_name(r.stabilised), r.seconds);
  }
  if (!failure.empty()) throw InputError("cosda drift: " + failure);
  return runs;
}

std::string drift_markdown(const DriftConfig& c, const std::vector<DriftRun>& runs) {
  std::string md = fmt::format(kIntro, c.name, c.n, c.d, c.m, c.steps, c.calibration);
  md +=
      "| stream | variant | scalar | mode | vs scratch, step 1 | vs scratch, last step | "
      "largest vs scratch | vs double, last step | floor, last step | FLOPs/step | C | "
      "seconds | status |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const DriftRun& r : runs) md += markdown_row(c, r);
  return md;
}

std::string drift_csv(const std::vector<DriftRun>& runs) {
  std::string csv = "stream,variant,scalar,mode,step,vs_scratch,vs_double,scratch_vs_double\n";
  for (const DriftRun& r : runs)
    for (const DriftPoint& p : r.result.points) {
      const std::string what = fmt::format("{} {} step {}", r.variant, r.stream->name, p.step);
      csv += fmt::format("{},{},{},{},{},{},{},{}\n", r.stream->name, r.variant,
                         scalar_name(r.precision), mode_name(r.stabilised), p.step,
                         num(p.vs_scratch, what), num(p.vs_double, what),
                         num(p.scratch_vs_double, what));
    }
  return csv;
}

std::vector<std::string> plot_drift(const std::filesystem::path& dir, const DriftConfig& c,
                                    const std::vector<DriftRun>& runs) {
  std::vector<std::string> notes;
  for (const NamedStream& s : c.streams) plot_stream(dir, c, s, runs, notes);
  return notes;
}

}  // namespace cosda
