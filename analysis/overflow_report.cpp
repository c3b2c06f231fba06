#include "analysis/overflow_report.hpp"

#include <fmt/format.h>

#include <map>

#include "analysis/measure.hpp"
#include "analysis/study_output.hpp"
#include "attention/registry.hpp"

namespace cosda {
namespace {

std::string sigma_text(const Threshold& t, double sigma_max) {
  return t.found ? fmt::format("{:.4g}", t.first_bad) : fmt::format("> {:.3g}", sigma_max);
}

// One table per stream: the first inf or NaN, or breakdown, per variant (rows), scalar and mode.
std::string threshold_table(const OverflowConfig& c, const std::vector<OverflowJob>& jobs,
                            const NamedStream& s, bool breakdown) {
  std::string md = fmt::format("\n## Stream {} ({}, projection {}): {}\n\n| variant |", s.name,
                               stream_kind_name(s.spec.kind),
                               s.qkv ? std::string_view("given") : projection_name(s.projection),
                               breakdown ? fmt::format("first error > {:g} or inf/NaN", c.tolerance)
                                         : std::string("first inf or NaN"));
  std::string rule = "|---|";
  for (const std::string& scalar : c.scalars)
    for (const std::string& mode : c.modes) {
      md += fmt::format(" {} {} |", scalar, mode);
      rule += "---|";
    }
  md += "\n" + rule + "\n";
  for (const std::string& v : c.variants) {
    md += "| " + v + " |";
    for (const std::string& scalar : c.scalars)
      for (const std::string& mode : c.modes) {
        const OverflowJob* j = nullptr;
        for (const OverflowJob& x : jobs)
          if (x.stream == &s && x.variant == v && x.scalar == scalar && x.mode == mode) j = &x;
        md += " " +
              (j ? sigma_text(breakdown ? j->result.inaccurate : j->result.nonfinite, c.sigma_max)
                 : std::string("n/a")) +
              " |";
      }
    md += "\n";
  }
  return md;
}

// The measured cost of the stabilised mode per continual variant.
std::string cost_table(const OverflowConfig& c) {
  std::string md = fmt::format(
      "\n## Cost of the stabilised mode\n\nExecuted FLOPs per steady-state step (measure(), "
      "amortised over a landmark cycle), n = {}, d = {}, m = {}: one subtraction per "
      "exponential.\n\n| variant | plain | stabilised | extra |\n|---|---|---|---|\n",
      c.n, c.d, c.m);
  for (const std::string& v : c.variants) {
    if (!find_variant(v)->continual) continue;
    const double plain =
        measure(Point{.variant = v, .n = c.n, .d = c.d, .m = c.m}).amortized_flops();
    const double stab =
        measure(Point{.variant = v, .n = c.n, .d = c.d, .m = c.m, .stabilised = true})
            .amortized_flops();
    md += fmt::format("| {} | {:.6g} | {:.6g} | +{:.2f}% |\n", v, plain, stab,
                      100.0 * (stab - plain) / plain);
  }
  return md;
}

}  // namespace

std::vector<OverflowJob> run_overflow_study(const OverflowConfig& c) {
  std::vector<OverflowJob> jobs;
  std::map<std::string, Qkv> base;
  for (const NamedStream& s : c.streams) {
    base[s.name] =
        stream_qkv(s, c.calibration + c.n + c.steps, c.d, "needs calibration + n + steps");
    for (const std::string& v : c.variants)
      for (const std::string& scalar : c.scalars)
        for (const std::string& mode : c.modes)
          if (mode == "plain" || find_variant(v)->continual)
            jobs.push_back({&s, v, scalar, mode, {}});
  }
#pragma omp parallel for schedule(dynamic)
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    OverflowJob& j = jobs[i];
    OverflowSpec spec{.variant = j.variant,
                      .precision = j.scalar == "float" ? Precision::kFloat : Precision::kDouble,
                      .stabilised = j.mode == "stabilised",
                      .n = c.n,
                      .d = c.d,
                      .m = c.m,
                      .calibration = c.calibration,
                      .steps = c.steps,
                      .sigma_min = c.sigma_min,
                      .sigma_max = c.sigma_max,
                      .tolerance = c.tolerance};
    j.result = overflow_threshold(spec, base.at(j.stream->name));
  }
  return jobs;
}

std::string overflow_csv(const OverflowConfig& c, const std::vector<OverflowJob>& jobs) {
  std::string csv =
      "stream,variant,scalar,mode,nonfinite_found,nonfinite_last_ok_sigma,nonfinite_sigma,"
      "first_bad_token,shift_at_nonfinite,inaccurate_found,inaccurate_last_ok_sigma,"
      "inaccurate_sigma,tolerance\n";
  for (const OverflowJob& j : jobs) {
    const std::string what = fmt::format("{} {} {}", j.variant, j.scalar, j.mode);
    const Threshold& f = j.result.nonfinite;
    const Threshold& e = j.result.inaccurate;
    csv += fmt::format(
        "{},{},{},{},{},{},{},{},{},{},{},{},{}\n", j.stream->name, j.variant, j.scalar, j.mode,
        f.found ? "yes" : "no", num(f.last_ok, what), f.found ? num(f.first_bad, what) : "none",
        f.found ? std::to_string(f.token) : "",
        f.found && j.mode == "stabilised" ? num(f.shift, what) : "", e.found ? "yes" : "no",
        num(e.last_ok, what), e.found ? num(e.first_bad, what) : "none", num(c.tolerance, what));
  }
  return csv;
}

std::string overflow_markdown(const OverflowConfig& c, const std::vector<OverflowJob>& jobs) {
  std::string md = fmt::format(
      "# Overflow: {}\n\nWritten by `cosda overflow` from its config (commit and CPU: meta.json). "
      "The score scale at which "
      "a variant's output first holds an inf or a NaN, searched over max |q.k|/sqrt(d) of the "
      "evaluated tokens from {:g} to {:g} (tokens scaled by a factor, scores by its square; "
      "geometric scan, then bisection to a relative 1e-9). n = {}, d = {}, m = {}; {} "
      "calibration tokens (fixed landmarks: their m-means; stabilised mode: C from "
      "calibrate_shift over them, recalibrated at every scale), then n + {} evaluated "
      "tokens. '> x': not reached up to x.\n",
      c.name, c.sigma_min, c.sigma_max, c.n, c.d, c.m, c.calibration, c.steps);
  md += fmt::format(
      "\nTwo thresholds per stream: the first inf or NaN, and the first breakdown: an inf or "
      "NaN, or a finite output whose relative error against a from-scratch recomputation in "
      "double with max-subtraction (the same landmarks for Nyström variants) exceeds {:g}. "
      "Running sums that subtract a dominant exponential cancel catastrophically, so outputs "
      "can turn wrong well before they turn non-finite.\n",
      c.tolerance);
  for (const NamedStream& s : c.streams)
    for (const bool breakdown : {false, true}) md += threshold_table(c, jobs, s, breakdown);
  return md + cost_table(c);
}

}  // namespace cosda
