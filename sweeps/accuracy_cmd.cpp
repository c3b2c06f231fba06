// cosda accuracy CONFIG: approximation error of the variants against exact attention on seeded
// (or user) streams, the cost-accuracy trade-off, and the iterative pseudo-inverse's error.
//
// Writes results/<name>/: accuracy.csv (one row per stream, n, variant, m), pinv.csv,
// summary.md (Pareto fronts), and figures per stream: error_vs_m_<stream>.png,
// tradeoff_<stream>_n<N>.png, pinv_<stream>.png. Costs are executed FLOPs per steady-state step
// from measure() (amortised over a landmark cycle for continual landmarks), at one head of width d.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <set>

#include "analysis/accuracy.hpp"
#include "analysis/measure.hpp"
#include "attention/kmeans.hpp"
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

struct AccuracyConfig {
  std::string name;
  std::int64_t d = 0, steps = 0, calibration = 0, pinv_windows = 0;
  std::vector<std::int64_t> ns, ms, pinv_iterations_study;
  std::vector<std::string> variants;
  int pinv_iterations = 6;
  bool exact_pinv = false;
  std::vector<NamedStream> streams;
};

AccuracyConfig parse_config(const fs::path& path) {
  TomlTable t = TomlTable::parse_file(path);
  AccuracyConfig c;
  c.name = parse_result_name(t);
  c.d = t.integer("d", 1, 4096);
  c.ns = t.integers("n", 2, 1 << 14);
  c.ms = t.integers("m", 1, 1 << 14);
  std::vector<std::string> ids;
  for (const auto& v : kVariants) ids.emplace_back(v.id);
  c.variants = t.choices("variants", ids);
  c.steps = t.integer("steps", 1, 1 << 24);
  c.calibration = t.integer("calibration", 1, 1 << 24);
  c.pinv_iterations = int(t.integer("pinv_iterations", 0, 100, 6));
  c.exact_pinv = t.boolean("exact_pinv", false);
  c.pinv_iterations_study = t.integers("pinv_study_iterations", 0, 100);
  c.pinv_windows = t.integer("pinv_study_windows", 1, 1000, 2);
  c.streams = parse_streams(t, c.d);
  t.finish();
  const std::int64_t max_m = *std::max_element(c.ms.begin(), c.ms.end());
  if (max_m > c.calibration)
    throw InputError(
        fmt::format("{}: key 'calibration' ({}) must be at least the largest m "
                    "({}): fixed landmarks are m-means of the calibration tokens",
                    path.string(), c.calibration, max_m));
  return c;
}

struct Row {
  std::string stream, variant;
  std::int64_t n = 0, m = 0;  // m = 0: no landmarks
  bool single = false;
  ErrorSummary e;
  double flops = 0;
};

std::string color(const std::string& v) { return std::string(variant(v).style.colour); }

// Errors below this are drawn at it (exact variants differ from the reference by rounding).
constexpr double kPlotFloor = 1e-17;
// Errors below this are rounding, not approximation: the Pareto front treats them as equal.
constexpr double kRoundingLevel = 1e-12;

// Points no other point beats on both cost and 95th-percentile error, cheapest first.
std::vector<const Row*> pareto_front(std::vector<const Row*> pts) {
  auto err = [](const Row* r) { return std::max(r->e.p95, kRoundingLevel); };
  std::sort(pts.begin(), pts.end(), [&](const Row* a, const Row* b) {
    return a->flops != b->flops ? a->flops < b->flops : err(a) < err(b);
  });
  std::vector<const Row*> front;
  double best = std::numeric_limits<double>::infinity();
  for (const Row* r : pts)
    if (err(r) < best) {
      front.push_back(r);
      best = err(r);
    }
  return front;
}

void plot_error_vs_m(const fs::path& dir, const AccuracyConfig& c, const std::string& stream,
                     const std::vector<Row>& rows) {
  std::string s = "set multiplot layout 1," + std::to_string(c.ns.size()) + " title " +
                  gp_quote("stream " + stream + ": median relative Frobenius error per step vs m") +
                  "\nset logscale xy\nset grid\nset key bottom left "
                  "font ',9'\nset xlabel 'landmarks m'\nset ylabel 'median relative error'\n"
                  "set format y '%.0e'\n";
  for (const std::int64_t n : c.ns) {
    std::string plot;
    for (const auto& v : c.variants) {
      const VariantTraits& t = *find_variant(v);
      if (t.landmarks == LandmarkKind::kNone) continue;
      std::vector<std::vector<std::string>> pts;
      for (const Row& r : rows)
        if (r.stream == stream && r.n == n && r.variant == v && r.e.finite())
          pts.push_back(
              {std::to_string(r.m), fmt::format("{:.6e}", std::max(r.e.median, kPlotFloor))});
      if (pts.empty()) continue;
      const std::string block = fmt::format("d{}_{}", n, v);
      s += datablock(block, pts);
      plot += (plot.empty() ? "plot " : ", ") +
              fmt::format("${} using 1:2 with linespoints lw 2 pt {} lc rgb '{}' dt {} title '{}'",
                          block, t.single_output ? 6 : 7, color(v), t.single_output ? 2 : 1, v);
    }
    s += "set title 'n = " + std::to_string(n) + "'\n" +
         (plot.empty() ? "plot 1/0 notitle" : plot) + "\n";
  }
  s += "unset multiplot\n";
  render_png(dir / ("error_vs_m_" + stream + ".png"), s, 500 * int(c.ns.size()), 520);
}

void plot_tradeoff(const fs::path& dir, const AccuracyConfig& c, const std::string& stream,
                   std::int64_t n, const std::vector<Row>& rows) {
  std::string s = "set multiplot layout 1,2 title " +
                  gp_quote(fmt::format("cost vs accuracy, stream {}, n = {}, d = {}, one head "
                                       "(labels: m; dashed: Pareto front)",
                                       stream, n, c.d)) +
                  "\nset logscale xy\nset grid\nset key top right font ',9'\n"
                  "set xlabel 'executed FLOPs per step (measure())'\n"
                  "set ylabel '95th percentile relative error per step'\nset format y '%.0e'\n"
                  "set format x '%.0e'\n";
  for (const bool single : {false, true}) {
    std::vector<const Row*> pts;
    for (const Row& r : rows)
      if (r.stream == stream && r.n == n && r.single == single && r.e.finite()) pts.push_back(&r);
    std::string plot;
    std::set<std::string> seen;
    for (const Row* r : pts) {
      if (!seen.insert(r->variant).second) continue;
      std::vector<std::vector<std::string>> block;
      for (const Row* q : pts)
        if (q->variant == r->variant)
          block.push_back({fmt::format("{:.6e}", q->flops),
                           fmt::format("{:.6e}", std::max(q->e.p95, kPlotFloor)),
                           q->m == 0 ? "exact" : std::to_string(q->m)});
      const std::string name = fmt::format("t{}_{}", single ? "si" : "re", r->variant);
      s += datablock(name, block);
      plot += (plot.empty() ? "plot " : ", ") +
              fmt::format(
                  "${0} using 1:2 with points pt 7 ps 1.4 lc rgb '{1}' title '{2}', "
                  "${0} using 1:2:3 with labels offset char 0.9,0.6 font ',8' "
                  "tc rgb '{1}' notitle",
                  name, color(r->variant), r->variant);
    }
    std::vector<std::vector<std::string>> front;
    for (const Row* r : pareto_front(pts))
      front.push_back(
          {fmt::format("{:.6e}", r->flops), fmt::format("{:.6e}", std::max(r->e.p95, kPlotFloor))});
    const std::string fname = single ? "front_si" : "front_re";
    s += datablock(fname, front);
    plot += (plot.empty() ? "plot " : ", ") +
            fmt::format(
                "${} using 1:2 with linespoints dt 2 lw 1.5 pt 6 ps 2.6 lc rgb "
                "'#000000' title 'Pareto front'",
                fname);
    s += std::string("set title '") +
         (single ? "newest query only (1 x d output)" : "whole window (n x d output)") + "'\n" +
         plot + "\n";
  }
  s += "unset multiplot\n";
  render_png(dir / fmt::format("tradeoff_{}_n{}.png", stream, n), s, 1500, 650);
}

struct PinvRow {
  std::string stream;
  std::int64_t n, m, window;
  double condition;
  std::vector<double> errors;  // per study iteration count
};

void plot_pinv(const fs::path& dir, const AccuracyConfig& c, const std::string& stream,
               const std::vector<PinvRow>& rows) {
  std::string s = "set multiplot layout 1," + std::to_string(c.ns.size()) + " title " +
                  gp_quote(
                      "iterative pseudo-inverse of Gamma_phi (segment-means landmarks) vs "
                      "the exact one, stream " +
                      stream + "; median over windows; dotted: iterations the variants use") +
                  "\nset logscale y\nset grid\nset key top right font ',9'\nset format y "
                  "'%.0e'\nset xlabel 'iterations'\nset ylabel 'relative Frobenius error'\n";
  for (const std::int64_t n : c.ns) {
    std::string plot;
    for (const std::int64_t m : c.ms) {
      if (m > n) continue;
      std::vector<std::vector<std::string>> pts;
      for (std::size_t i = 0; i < c.pinv_iterations_study.size(); ++i) {
        std::vector<double> e;
        for (const PinvRow& r : rows)
          if (r.stream == stream && r.n == n && r.m == m && std::isfinite(r.errors[i]))
            e.push_back(r.errors[i]);
        if (!e.empty())
          pts.push_back({std::to_string(c.pinv_iterations_study[i]),
                         fmt::format("{:.6e}", std::max(percentile(e, 50), kPlotFloor))});
      }
      if (pts.empty()) continue;
      const std::string block = fmt::format("p{}_{}", n, m);
      s += datablock(block, pts);
      plot += (plot.empty() ? "plot " : ", ") +
              fmt::format("${} using 1:2 with linespoints lw 2 title 'm = {}'", block, m);
    }
    s += fmt::format("set title 'n = {}'\nset arrow 1 from {},graph 0 to {},graph 1 nohead dt 3\n",
                     n, c.pinv_iterations, c.pinv_iterations) +
         (plot.empty() ? "plot 1/0 notitle" : plot) + "\n";
  }
  s += "unset multiplot\n";
  render_png(dir / ("pinv_" + stream + ".png"), s, 500 * int(c.ns.size()), 520);
}

}  // namespace

int cmd_accuracy(const Argv& argv) {
  Args a("accuracy",
         {{"results", "DIR", "folder for results/<name>/ (default results)"},
          {"no-plots", "", "write the CSV and markdown files only (no gnuplot)"}},
         argv);
  if (a.help()) {
    fmt::print(
        "usage: cosda accuracy CONFIG.toml [--results DIR] [--no-plots]\n"
        "Approximation error of the variants against exact attention (relative Frobenius error\n"
        "per step: median and 95th percentile over the steady-state steps) on the streams of\n"
        "the config, with executed FLOPs per step from measure(), and the iterative\n"
        "pseudo-inverse's error against the exact one. Writes results/<name>/accuracy.csv,\n"
        "pinv.csv, summary.md and PNG figures. See configs/accuracy.toml for the keys.\n\n{}",
        a.usage());
    return 0;
  }
  if (a.positional().size() != 1)
    throw InputError(
        "cosda accuracy: expected one CONFIG.toml argument (see cosda accuracy "
        "--help)");
  const auto t0 = std::chrono::steady_clock::now();
  const AccuracyConfig c = parse_config(a.positional()[0]);
  const fs::path dir = fs::path(a.get("results").value_or("results")) / c.name;
  const std::int64_t max_n = *std::max_element(c.ns.begin(), c.ns.end());
  const std::int64_t rows_needed = c.calibration + max_n + c.steps;

  std::map<std::tuple<std::string, std::int64_t, std::int64_t>, double> flops;
  auto cost = [&](const std::string& v, std::int64_t n, std::int64_t m) {
    const auto key = std::tuple(v, n, m);
    if (!flops.count(key))
      flops[key] = measure(Point{.variant = v, .n = n, .d = c.d, .m = std::max<std::int64_t>(m, 1)})
                       .amortized_flops();
    return flops[key];
  };

  std::vector<Row> rows;
  std::vector<PinvRow> pinv_rows;
  for (const NamedStream& s : c.streams) {
    Eigen::MatrixXd x;
    try {
      x = generate(s.spec, rows_needed, c.d);
    } catch (const std::invalid_argument& e) {
      throw InputError(
          fmt::format("stream '{}': {} (the run needs calibration + max n + steps "
                      "= {} tokens)",
                      s.name, e.what(), rows_needed));
    }
    const Qkv all = project(Projector(s.projection, c.d, s.projection_seed), x);
    const Qkv calib = all.middle_rows(0, c.calibration);
    const Qkv eval = all.middle_rows(c.calibration, max_n + c.steps);
    ApproxSetup setup{
        .steps = c.steps, .pinv_iterations = c.pinv_iterations, .exact_pinv = c.exact_pinv};
    for (const std::int64_t m : c.ms) {
      const Eigen::MatrixXd fq = m_means(calib.q, m);
      setup.fixed[m] = {fq, calib.k == calib.q ? fq : m_means(calib.k, m)};
    }
    for (const std::int64_t n : c.ns) {
      setup.n = n;
      setup.d = c.d;
      std::vector<ApproxCase> cases;
      for (const auto& v : c.variants) {
        if (find_variant(v)->landmarks == LandmarkKind::kNone) {
          cases.push_back({v, 0});
          continue;
        }
        for (const std::int64_t m : c.ms)
          if (m <= n) cases.push_back({v, m});
      }
      const std::vector<ErrorSummary> res = approximation_errors(eval, setup, cases);
      for (std::size_t i = 0; i < cases.size(); ++i) {
        Row r{s.name,
              cases[i].variant,
              n,
              cases[i].m,
              find_variant(cases[i].variant)->single_output,
              res[i],
              0.0};
        r.flops = cost(r.variant, n, r.m);
        rows.push_back(r);
      }
      for (const std::int64_t m : c.ms) {
        if (m > n) continue;
        for (std::int64_t w = 0; w < c.pinv_windows; ++w) {
          const std::int64_t first = w * c.steps / c.pinv_windows;
          const Eigen::MatrixXd g = landmark_kernel(eval.middle_rows(first, n), m);
          std::vector<int> its(c.pinv_iterations_study.begin(), c.pinv_iterations_study.end());
          pinv_rows.push_back({s.name, n, m, w, condition_number(g), pinv_errors(g, its)});
        }
      }
      fmt::print(stderr, "accuracy: stream {} n = {} done ({:.0f} s)\n", s.name, n,
                 std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
  }

  std::string csv =
      "stream,kind,scale,projection,n,d,m,variant,pinv,output_rows,steps,median_rel_err,"
      "p95_rel_err,max_rel_err,flops_per_step,status\n";
  const std::string pinv =
      c.exact_pinv ? std::string("exact") : fmt::format("{}_iterations", c.pinv_iterations);
  for (const Row& r : rows) {
    const NamedStream& s = *std::find_if(c.streams.begin(), c.streams.end(),
                                         [&](const NamedStream& x) { return x.name == r.stream; });
    const std::string what = fmt::format("{} n={} m={} stream {}", r.variant, r.n, r.m, r.stream);
    std::string errs = ",,";
    std::string status = "ok";
    if (r.e.finite())
      errs = num(r.e.median, what) + "," + num(r.e.p95, what) + "," + num(r.e.max, what);
    else
      status = fmt::format("nonfinite output at token {}", r.e.nonfinite_token);
    const bool landmarks = r.m > 0;
    csv += fmt::format(
        "{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n", r.stream, stream_kind_name(s.spec.kind),
        num(s.spec.scale, what), projection_name(s.projection), r.n, c.d, r.m, r.variant,
        landmarks ? pinv : "-", r.single ? 1 : r.n, r.e.steps, errs, num(r.flops, what), status);
  }
  write_file_atomic(dir / "accuracy.csv", csv);

  std::string pcsv = "stream,n,m,window,condition,iterations,rel_err\n";
  for (const PinvRow& r : pinv_rows)
    for (std::size_t i = 0; i < r.errors.size(); ++i) {
      const std::string what = fmt::format("pinv {} n={} m={}", r.stream, r.n, r.m);
      pcsv += fmt::format("{},{},{},{},{},{},{}\n", r.stream, r.n, r.m, r.window,
                          std::isfinite(r.condition) ? num(r.condition, what) : "inf",
                          c.pinv_iterations_study[i],
                          std::isfinite(r.errors[i]) ? num(r.errors[i], what) : "diverged");
    }
  write_file_atomic(dir / "pinv.csv", pcsv);

  std::string md = fmt::format(
      "# Accuracy: {}\n\nWritten by `cosda accuracy` from its config. d = {} (one head), {} "
      "steady-state steps per stream and n after {} calibration tokens (fixed landmarks: "
      "m-means of them), {} pseudo-inverse iterations{}. Error: relative Frobenius error of "
      "each step's output against exact attention of the same window (its newest row for "
      "single-output variants). Cost: executed FLOPs per step from measure().\n",
      c.name, c.d, c.steps, c.calibration, c.pinv_iterations,
      c.exact_pinv ? " (exact pseudo-inverse for the errors)" : "");
  for (const NamedStream& s : c.streams)
    for (const std::int64_t n : c.ns)
      for (const bool single : {false, true}) {
        std::vector<const Row*> pts;
        for (const Row& r : rows)
          if (r.stream == s.name && r.n == n && r.single == single && r.e.finite())
            pts.push_back(&r);
        md += fmt::format(
            "\n## Pareto front, stream {}, n = {}, {} output\n\n| variant | m | "
            "FLOPs/step | p95 error | median error |\n|---|---|---|---|---|\n",
            s.name, n, single ? "1 x d" : "n x d");
        for (const Row* r : pareto_front(pts))
          md +=
              fmt::format("| {} | {} | {:.4g} | {:.3g} | {:.3g} |\n", r->variant,
                          r->m == 0 ? "-" : std::to_string(r->m), r->flops, r->e.p95, r->e.median);
      }
  std::int64_t flagged = 0;
  for (const Row& r : rows) flagged += r.e.finite() ? 0 : 1;
  md += fmt::format("\n{} of {} runs produced a non-finite output (flagged in accuracy.csv).\n",
                    flagged, rows.size());
  write_file_atomic(dir / "summary.md", md);

  if (!a.has("no-plots")) {
    for (const NamedStream& s : c.streams) {
      plot_error_vs_m(dir, c, s.name, rows);
      for (const std::int64_t n : c.ns) plot_tradeoff(dir, c, s.name, n, rows);
      plot_pinv(dir, c, s.name, pinv_rows);
    }
  }
  fmt::print("accuracy: {} rows in {} ({:.0f} s)\n", rows.size(), (dir / "accuracy.csv").string(),
             std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  return 0;
}

}  // namespace cosda
