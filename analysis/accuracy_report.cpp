#include "analysis/accuracy_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <tuple>
#include <utility>

#include "analysis/kmeans.hpp"
#include "analysis/measure.hpp"
#include "attention/registry.hpp"
#include "io/plot.hpp"

namespace cosda {
namespace {

namespace fs = std::filesystem;

// Errors below this are drawn at it (exact variants differ from the reference by rounding).
constexpr double kPlotFloor = 1e-17;
// Errors below this are rounding, not approximation: the Pareto front treats them as equal.
constexpr double kRoundingLevel = 1e-12;

std::string colour(const std::string& v) { return std::string(variant(v).style.colour); }

// Executed FLOPs per step, measured once per variant, n and m.
class CostCache {
 public:
  explicit CostCache(std::int64_t d) : d_(d) {}
  double operator()(const std::string& v, std::int64_t n, std::int64_t m) {
    const auto key = std::tuple(v, n, m);
    if (!flops_.count(key))
      flops_[key] = measure(Point{.variant = v, .n = n, .d = d_, .m = std::max<std::int64_t>(m, 1)})
                        .amortized_flops();
    return flops_[key];
  }

 private:
  std::int64_t d_;
  std::map<std::tuple<std::string, std::int64_t, std::int64_t>, double> flops_;
};

bool random_features(const std::string& v) {
  return find_variant(v)->landmarks == LandmarkKind::kRandomFeatures;
}

// Every configured variant at every m <= n (once, m = 0, without landmarks; written as 1, as cosda
// count does); random-feature variants at every feature_m (may exceed n), once per feature seed.
std::vector<ApproxCase> cases_at(const AccuracyConfig& c, std::int64_t n) {
  std::vector<ApproxCase> cases;
  for (const auto& v : c.variants) {
    if (find_variant(v)->landmarks == LandmarkKind::kNone) {
      cases.push_back({v, 0});
    } else if (random_features(v)) {
      for (const std::int64_t m : c.feature_ms)
        for (const std::uint64_t seed : c.feature_seeds) cases.push_back({v, m, seed});
    } else {
      for (const std::int64_t m : c.ms)
        if (m <= n) cases.push_back({v, m});
    }
  }
  return cases;
}

// The rows of one stream and n: consecutive cases of one variant and m (its draws) make one.
void add_rows(const std::string& stream, std::int64_t n, const std::vector<ApproxCase>& cases,
              const std::vector<ErrorSummary>& res, CostCache& cost, AccuracyResults& out) {
  for (std::size_t i = 0; i < cases.size();) {
    const std::string& v = cases[i].variant;
    AccuracyRow row{.stream = stream, .variant = v, .n = n, .m = cases[i].m};
    row.single = find_variant(v)->single_output;
    for (; i < cases.size() && cases[i].variant == v && cases[i].m == row.m; ++i) {
      if (cases[i].feature_seed) row.seeds.push_back(*cases[i].feature_seed);
      row.per_draw.push_back(res[i]);
    }
    const DrawSummary d = summarize_draws(row.per_draw);
    row.e = d.e;
    row.median_min = d.median_min;
    row.median_max = d.median_max;
    row.flops = cost(v, n, row.m);
    out.rows.push_back(std::move(row));
  }
}

// The pseudo-inverse study at window length n: pinv_windows windows spread over the steps.
void add_pinv_rows(const AccuracyConfig& c, const std::string& stream, const Qkv& eval,
                   std::int64_t n, std::vector<PinvRow>& out) {
  const std::vector<int> its(c.pinv_iterations_study.begin(), c.pinv_iterations_study.end());
  for (const std::int64_t m : c.ms) {
    if (m > n) continue;
    for (std::int64_t w = 0; w < c.pinv_windows; ++w) {
      const std::int64_t first = w * c.steps / c.pinv_windows;
      const Eigen::MatrixXd g = landmark_kernel(eval.middle_rows(first, n), m);
      out.push_back({stream, n, m, w, condition_number(g), pinv_errors(g, its)});
    }
  }
}

// One stream: fixed landmarks from its calibration tokens, then every n.
void run_stream(const AccuracyConfig& c, const NamedStream& s, CostCache& cost,
                Clock::time_point t0, AccuracyResults& out) {
  const std::int64_t max_n = *std::max_element(c.ns.begin(), c.ns.end());
  const Qkv all = stream_qkv(s, c.calibration + max_n + c.steps, c.d,
                             "the run needs calibration + max n + steps");
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
    const std::vector<ApproxCase> cases = cases_at(c, n);
    add_rows(s.name, n, cases, approximation_errors(eval, setup, cases), cost, out);
    add_pinv_rows(c, s.name, eval, n, out.pinv);
    fmt::print(stderr, "accuracy: stream {} n = {} done ({:.0f} s)\n", s.name, n,
               seconds_since(t0));
  }
}

// Rows of one stream, n and output shape with a finite output.
std::vector<const AccuracyRow*> finite_rows(const AccuracyResults& r, const std::string& stream,
                                            std::int64_t n, bool single) {
  std::vector<const AccuracyRow*> pts;
  for (const AccuracyRow& x : r.rows)
    if (x.stream == stream && x.n == n && x.single == single && x.e.finite()) pts.push_back(&x);
  return pts;
}

// Points no other point beats on both cost and 95th-percentile error, cheapest first.
std::vector<const AccuracyRow*> pareto_front(std::vector<const AccuracyRow*> pts) {
  auto err = [](const AccuracyRow* r) { return std::max(r->e.p95, kRoundingLevel); };
  std::sort(pts.begin(), pts.end(), [&](const AccuracyRow* a, const AccuracyRow* b) {
    return a->flops != b->flops ? a->flops < b->flops : err(a) < err(b);
  });
  std::vector<const AccuracyRow*> front;
  double best = std::numeric_limits<double>::infinity();
  for (const AccuracyRow* r : pts)
    if (err(r) < best) {
      front.push_back(r);
      best = err(r);
    }
  return front;
}

std::string e6(double x) { return fmt::format("{:.6e}", x); }

// Whether a random-feature variant is run over more than one draw.
bool draws_plotted(const AccuracyConfig& c) {
  return c.feature_seeds.size() > 1 &&
         std::any_of(c.variants.begin(), c.variants.end(), random_features);
}

// What m counts for the variants listed: landmarks (Nystrom) and/or random features (corf).
std::string m_axis(const AccuracyConfig& c) {
  bool features = false, landmarks = false;
  for (const auto& v : c.variants) {
    const LandmarkKind k = find_variant(v)->landmarks;
    features |= k == LandmarkKind::kRandomFeatures;
    landmarks |= k != LandmarkKind::kNone && k != LandmarkKind::kRandomFeatures;
  }
  if (features && landmarks) return "m: landmarks (Nystrom) or random features (corf), count";
  return features ? "random features m (count)" : "landmarks m (count)";
}

// "<file>: <why>; not drawn" when the figure had no panel with data.
void note_unless(bool drawn, const std::string& file, const std::string& why,
                 std::vector<std::string>& notes) {
  if (!drawn) notes.push_back(file + ": " + why + "; not drawn");
}

void plot_error_vs_m(const fs::path& dir, const AccuracyConfig& c, const std::string& stream,
                     const std::vector<AccuracyRow>& rows, std::vector<std::string>& notes) {
  Multiplot fig(
      "stream " + stream + ": median relative Frobenius error per step vs m" +
          (draws_plotted(c) ? " (random features: median over the draws, bars min-max)" : ""),
      "set logscale xy\nset grid\nset key below font ',9'\nset xlabel '" + m_axis(c) +
          "'\nset ylabel 'median relative error per step (unitless)'\n"
          "set format y '%.0e'\n");
  for (const std::int64_t n : c.ns) {
    for (const auto& v : c.variants) {
      const VariantTraits& t = *find_variant(v);
      if (t.landmarks == LandmarkKind::kNone) continue;
      // Random features: the median over the draws, bars from the least to the largest median.
      const bool bars = random_features(v) && draws_plotted(c);
      std::vector<std::vector<std::string>> pts;
      for (const AccuracyRow& r : rows)
        if (r.stream == stream && r.n == n && r.variant == v && r.e.finite())
          pts.push_back({std::to_string(r.m), e6(std::max(r.e.median, kPlotFloor)),
                         e6(std::max(r.median_min, kPlotFloor)),
                         e6(std::max(r.median_max, kPlotFloor))});
      const std::string block = fmt::format("d{}_{}", n, v);
      fig.series(block, pts,
                 fmt::format("${} using 1:2{} with {} lw 2 pt {} lc rgb '{}' dt {} title '{}{}'",
                             block, bars ? ":3:4" : "", bars ? "yerrorlines" : "linespoints",
                             t.single_output ? 6 : 7, colour(v), t.single_output ? 2 : 1, v,
                             bars ? fmt::format(" ({} draws)", c.feature_seeds.size()) : ""));
    }
    fig.end_panel("set title 'n = " + std::to_string(n) + "'\n");
  }
  const std::string file = "error_vs_m_" + stream + ".png";
  note_unless(fig.render(dir / file, 500, 560), file,
              "no variant with a rank m (landmarks or features) has a finite error", notes);
}

// One panel of the trade-off figure: points labelled with m, and the front. The y axis spans the
// approximate variants; exact ones sit on a labelled dotted line below, not squashing the rest.
void tradeoff_panel(Multiplot& fig, const std::vector<const AccuracyRow*>& pts, bool single) {
  double lo = std::numeric_limits<double>::infinity(), hi = 0;
  for (const AccuracyRow* r : pts) {
    if (r->m == 0) continue;
    lo = std::min(lo, std::max(r->e.p95, kPlotFloor));
    hi = std::max(hi, r->e.p95);
  }
  const bool split = hi > 0;  // approximate points to scale the axis to
  const double floor_y = split ? lo / 10 : kPlotFloor;
  auto y = [&](const AccuracyRow* r) {
    return e6(split && r->m == 0 ? floor_y : std::max(r->e.p95, kPlotFloor));
  };
  std::set<std::string> seen;
  for (const AccuracyRow* r : pts) {
    if (!seen.insert(r->variant).second) continue;
    std::vector<std::vector<std::string>> block;
    for (const AccuracyRow* q : pts)
      if (q->variant == r->variant)
        block.push_back({e6(q->flops), y(q), q->m == 0 ? "exact" : std::to_string(q->m)});
    const std::string name = fmt::format("t{}_{}", single ? "si" : "re", r->variant);
    const std::string title = r->m == 0 && split
                                  ? fmt::format("{} (exact: p95 error {:.0e})", r->variant,
                                                std::max(r->e.p95, kPlotFloor))
                                  : r->variant;
    fig.series(name, block,
               fmt::format("${0} using 1:2 with points pt {3} ps 1.4 lc rgb '{1}' title '{2}', "
                           "${0} using 1:2:3 with labels offset char 0.9,0.6 font ',8' "
                           "tc rgb '{1}' notitle",
                           name, colour(r->variant), title, r->m == 0 ? 5 : 7));
  }
  std::vector<std::vector<std::string>> front;
  for (const AccuracyRow* r : pareto_front(pts)) front.push_back({e6(r->flops), y(r)});
  const std::string fname = single ? "front_si" : "front_re";
  fig.series(fname, front,
             fmt::format("${} using 1:2 with linespoints dt 2 lw 1.5 pt 6 ps 2.6 lc rgb "
                         "'#000000' title 'Pareto front'",
                         fname));
  std::string settings =
      std::string("set title '") +
      (single ? "newest query only (1 x d output)" : "whole window (n x d output)") + "'\n";
  if (split)
    settings += fmt::format(
        "set yrange [{0:.3e}:{1:.3e}]\nset arrow 1 from graph 0, first {2:.3e} to graph 1, "
        "first {2:.3e} nohead dt 3 lc rgb '#888888'\nset label 1 'exact variants (rounding "
        "error only; not to scale)' at graph 0.02, first {3:.3e} font ',8'\n",
        floor_y / 3, hi * 5, floor_y, floor_y * 1.6);
  fig.end_panel(settings, "set autoscale y\nunset arrow 1\nunset label 1\n");
}

void plot_tradeoff(const fs::path& dir, const AccuracyConfig& c, const std::string& stream,
                   std::int64_t n, const AccuracyResults& r, std::vector<std::string>& notes) {
  Multiplot fig(fmt::format("cost vs accuracy, stream {}, n = {}, d = {}, one head "
                            "(labels: m; dashed: Pareto front)",
                            stream, n, c.d),
                "set logscale xy\nset grid\nset key below font ',9'\n"
                "set xlabel 'executed FLOPs per step (FLOPs, measure())'\n"
                "set ylabel '95th percentile relative error per step (unitless)'\n"
                "set format y '%.0e'\nset format x '%.0e'\n");
  for (const bool single : {false, true})
    tradeoff_panel(fig, finite_rows(r, stream, n, single), single);
  const std::string file = fmt::format("tradeoff_{}_n{}.png", stream, n);
  note_unless(fig.render(dir / file, 750, 700), file, "no variant has a finite error", notes);
}

void plot_pinv(const fs::path& dir, const AccuracyConfig& c, const std::string& stream,
               const std::vector<PinvRow>& rows, std::vector<std::string>& notes) {
  Multiplot fig(
      "iterative pseudo-inverse of Gamma_phi (segment-means landmarks) vs the exact "
      "one, stream " +
          stream + "; median over windows; dotted: iterations the variants use",
      "set logscale y\nset grid\nset key below font ',9'\nset format y '%.0e'\n"
      "set xlabel 'iterations (count)'\n"
      "set ylabel 'relative Frobenius error (unitless)'\n");
  for (const std::int64_t n : c.ns) {
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
                         e6(std::max(percentile(e, 50), kPlotFloor))});
      }
      const std::string block = fmt::format("p{}_{}", n, m);
      fig.series(block, pts,
                 fmt::format("${} using 1:2 with linespoints lw 2 title 'm = {}'", block, m));
    }
    fig.end_panel(
        fmt::format("set title 'n = {}'\nset arrow 1 from {},graph 0 to {},graph 1 nohead dt 3\n",
                    n, c.pinv_iterations, c.pinv_iterations),
        "unset arrow 1\n");
  }
  const std::string file = "pinv_" + stream + ".png";
  note_unless(fig.render(dir / file, 500, 560), file, "no pseudo-inverse error is finite", notes);
}

// Per random-feature variant and n: the median error over the draws and its range, per m, stream.
std::string draws_tables(const AccuracyConfig& c, const AccuracyResults& res) {
  std::string md;
  for (const auto& v : c.variants) {
    if (!random_features(v)) continue;
    for (const std::int64_t n : c.ns) {
      md += fmt::format(
          "\n## {} over {} draws of the features, n = {}: median error per step, median over "
          "the draws [min, max over the draws]\n\n| m |",
          v, c.feature_seeds.size(), n);
      for (const NamedStream& s : c.streams) md += " " + s.name + " |";
      md += "\n|---|";
      for (std::size_t i = 0; i < c.streams.size(); ++i) md += "---|";
      md += "\n";
      for (const std::int64_t m : c.feature_ms) {
        md += fmt::format("| {} |", m);
        for (const NamedStream& s : c.streams) {
          const auto it = std::find_if(res.rows.begin(), res.rows.end(), [&](const AccuracyRow& r) {
            return r.stream == s.name && r.n == n && r.variant == v && r.m == m;
          });
          md += it == res.rows.end() ? " - |"
                : it->e.finite()     ? fmt::format(" {:.3g} [{:.3g}, {:.3g}] |", it->e.median,
                                                   it->median_min, it->median_max)
                                     : " non-finite |";
        }
        md += "\n";
      }
    }
  }
  return md;
}

}  // namespace

AccuracyResults run_accuracy(const AccuracyConfig& c, Clock::time_point t0) {
  AccuracyResults out;
  CostCache cost(c.d);
  for (const NamedStream& s : c.streams) run_stream(c, s, cost, t0, out);
  return out;
}

std::string accuracy_csv(const AccuracyConfig& c, const AccuracyResults& res) {
  std::string csv =
      "stream,kind,scale,projection,n,d,m,variant,pinv,output_rows,steps,median_rel_err,"
      "p95_rel_err,max_rel_err,feature_draws,median_rel_err_min,median_rel_err_max,"
      "flops_per_step,status\n";
  const std::string pinv =
      c.exact_pinv ? std::string("exact") : fmt::format("{}_iterations", c.pinv_iterations);
  for (const AccuracyRow& r : res.rows) {
    const NamedStream& s = *std::find_if(c.streams.begin(), c.streams.end(),
                                         [&](const NamedStream& x) { return x.name == r.stream; });
    const std::string what = fmt::format("{} n={} m={} stream {}", r.variant, r.n, r.m, r.stream);
    std::string errs = ",,", draws = r.seeds.empty() ? "-,-,-" : ",,";
    std::string status = "ok";
    if (r.e.finite()) {
      errs = num(r.e.median, what) + "," + num(r.e.p95, what) + "," + num(r.e.max, what);
      if (!r.seeds.empty())
        draws = fmt::format("{},{},{}", r.seeds.size(), num(r.median_min, what),
                            num(r.median_max, what));
    } else {
      status = fmt::format("nonfinite output at token {}", r.e.nonfinite_token);
      if (!r.seeds.empty()) draws = fmt::format("{},,", r.seeds.size());
    }
    csv += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n", r.stream,
                       stream_kind_name(s.spec.kind), num(s.spec.scale, what),
                       s.qkv ? std::string_view("given") : projection_name(s.projection), r.n, c.d,
                       std::max<std::int64_t>(r.m, 1), r.variant,
                       r.m > 0 && !random_features(r.variant) ? pinv : "-", r.single ? 1 : r.n,
                       r.e.steps, errs, draws, num(r.flops, what), status);
  }
  return csv;
}

std::string accuracy_draws_csv(const AccuracyResults& res) {
  std::string csv =
      "stream,n,m,variant,feature_seed,steps,median_rel_err,p95_rel_err,max_rel_err,status\n";
  for (const AccuracyRow& r : res.rows)
    for (std::size_t i = 0; i < r.seeds.size(); ++i) {
      const ErrorSummary& e = r.per_draw[i];
      const std::string what =
          fmt::format("{} n={} m={} stream {} seed {}", r.variant, r.n, r.m, r.stream, r.seeds[i]);
      csv += fmt::format("{},{},{},{},{},{},", r.stream, r.n, r.m, r.variant, r.seeds[i], e.steps);
      csv += e.finite() ? fmt::format("{},{},{},ok\n", num(e.median, what), num(e.p95, what),
                                      num(e.max, what))
                        : fmt::format(",,,nonfinite output at token {}\n", e.nonfinite_token);
    }
  return csv;
}

std::string pinv_csv(const AccuracyConfig& c, const AccuracyResults& res) {
  std::string csv = "stream,n,m,window,condition,iterations,rel_err\n";
  for (const PinvRow& r : res.pinv)
    for (std::size_t i = 0; i < r.errors.size(); ++i) {
      const std::string what = fmt::format("pinv {} n={} m={}", r.stream, r.n, r.m);
      csv += fmt::format("{},{},{},{},{},{},{}\n", r.stream, r.n, r.m, r.window,
                         std::isfinite(r.condition) ? num(r.condition, what) : "inf",
                         c.pinv_iterations_study[i],
                         std::isfinite(r.errors[i]) ? num(r.errors[i], what) : "diverged");
    }
  return csv;
}

std::string accuracy_summary(const AccuracyConfig& c, const AccuracyResults& res,
                             const std::vector<std::string>& notes) {
  std::string md = fmt::format(
      "# Accuracy: {}\n\nWritten by `cosda accuracy` from its config (commit and CPU: meta.json). "
      "d = {} (one head), {} "
      "steady-state steps per stream and n after {} calibration tokens (fixed landmarks: "
      "m-means of them), {} pseudo-inverse iterations{}. Error: relative Frobenius error of "
      "each step's output against exact attention of the same window (its newest row for "
      "single-output variants). Cost: executed FLOPs per step from measure().\n",
      c.name, c.d, c.steps, c.calibration, c.pinv_iterations,
      c.exact_pinv ? " (exact pseudo-inverse for the errors)" : "");
  for (const NamedStream& s : c.streams)
    for (const std::int64_t n : c.ns)
      for (const bool single : {false, true}) {
        md += fmt::format(
            "\n## Pareto front, stream {}, n = {}, {} output\n\n| variant | m | "
            "FLOPs/step | p95 error | median error |\n|---|---|---|---|---|\n",
            s.name, n, single ? "1 x d" : "n x d");
        for (const AccuracyRow* r : pareto_front(finite_rows(res, s.name, n, single)))
          md +=
              fmt::format("| {} | {} | {:.4g} | {:.3g} | {:.3g} |\n", r->variant,
                          r->m == 0 ? "-" : std::to_string(r->m), r->flops, r->e.p95, r->e.median);
      }
  md += draws_tables(c, res);
  std::int64_t flagged = 0;
  for (const AccuracyRow& r : res.rows) flagged += r.e.finite() ? 0 : 1;
  md += fmt::format("\n{} of {} runs produced a non-finite output (flagged in accuracy.csv).\n",
                    flagged, res.rows.size());
  std::string over;  // a window of n tokens has at most n landmarks
  for (const std::int64_t n : c.ns)
    for (const std::int64_t m : c.ms)
      if (m > n) over += fmt::format("{}m = {} at n = {}", over.empty() ? "" : ", ", m, n);
  if (!over.empty())
    md +=
        "\nLeft out of the landmark variants and the pseudo-inverse study (m > n): " + over + ".\n";
  if (!notes.empty()) md += "\n## Figures not drawn\n\n";
  for (const std::string& note : notes) md += "- " + note + "\n";
  return md;
}

std::vector<std::string> plot_accuracy(const fs::path& dir, const AccuracyConfig& c,
                                       const AccuracyResults& r) {
  std::vector<std::string> notes;
  for (const NamedStream& s : c.streams) {
    plot_error_vs_m(dir, c, s.name, r.rows, notes);
    for (const std::int64_t n : c.ns) plot_tradeoff(dir, c, s.name, n, r, notes);
    plot_pinv(dir, c, s.name, r.pinv, notes);
  }
  return notes;
}

std::vector<std::string> accuracy_figures(const AccuracyConfig& c) {
  std::vector<std::string> files;
  for (const NamedStream& s : c.streams) {
    std::vector<std::string> stems{"error_vs_m_" + s.name, "pinv_" + s.name};
    for (const std::int64_t n : c.ns) stems.push_back(fmt::format("tradeoff_{}_n{}", s.name, n));
    for (const std::string& stem : stems)
      for (const char* ext : {".png", ".gp"}) files.push_back(stem + ext);
  }
  return files;
}

}  // namespace cosda
