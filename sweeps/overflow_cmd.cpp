// cosda overflow CONFIG: per variant, scalar type and mode, the score scale max |q.k|/sqrt(d)
// at which the output first holds an inf or a NaN (no max-subtraction anywhere, as in the
// papers), and what the stabilised mode (Config::exp_shift) changes, with its measured cost.
//
// The stream's tokens are multiplied by a factor a, so scores grow as a^2; the search scans the
// score scale geometrically and bisects between the last finite and the first non-finite
// scale (analysis/numerics.hpp overflow_threshold). In the stabilised mode C is calibrated at
// each scale on the calibration tokens, which precede the evaluated ones. Writes
// results/<name>/overflow.csv and overflow.md.
#include <fmt/format.h>

#include <chrono>
#include <filesystem>
#include <map>

#include "analysis/measure.hpp"
#include "analysis/numerics.hpp"
#include "attention/registry.hpp"
#include "io/atomic_file.hpp"
#include "io/errors.hpp"
#include "sweeps/args.hpp"
#include "sweeps/commands.hpp"
#include "sweeps/stream_config.hpp"

namespace cosda {
namespace {

namespace fs = std::filesystem;

struct OverflowConfig {
  std::string name;
  std::int64_t n = 0, d = 0, m = 0, calibration = 0, steps = 0;
  double sigma_min = 1, sigma_max = 1e6, tolerance = 1e-2;
  std::vector<std::string> variants, scalars, modes;
  std::vector<NamedStream> streams;
};

OverflowConfig parse_config(const fs::path& path) {
  TomlTable t = TomlTable::parse_file(path);
  OverflowConfig c;
  c.name = parse_result_name(t);
  c.n = t.integer("n", 1, 1 << 14);
  c.d = t.integer("d", 1, 4096);
  c.m = t.integer("m", 1, 1 << 14);
  c.calibration = t.integer("calibration", 1, 1 << 24);
  c.steps = t.integer("steps", 1, 1 << 24);
  c.sigma_min = t.number("sigma_min", 1e-6, 1e30, 1.0);
  c.sigma_max = t.number("sigma_max", 1e-6, 1e30, 1e6);
  c.tolerance = t.number("tolerance", 1e-12, 1e6, 1e-2);
  std::vector<std::string> ids;
  for (const auto& v : kVariants) ids.emplace_back(v.id);
  c.variants = t.choices("variants", ids);
  c.scalars =
      t.choices("scalars", {"float", "double"}, std::vector<std::string>{"float", "double"});
  c.modes =
      t.choices("modes", {"plain", "stabilised"}, std::vector<std::string>{"plain", "stabilised"});
  c.streams = parse_streams(t, c.d);
  t.finish();
  if (c.sigma_max <= c.sigma_min)
    throw InputError(fmt::format("{}: key 'sigma_max' ({}) must exceed sigma_min ({})",
                                 path.string(), c.sigma_max, c.sigma_min));
  if (c.m > c.n || c.m > c.calibration)
    throw InputError(fmt::format("{}: key 'm' ({}) must be at most n ({}) and calibration ({})",
                                 path.string(), c.m, c.n, c.calibration));
  if (c.calibration < c.n)
    throw InputError(fmt::format("{}: key 'calibration' ({}) must be at least n ({})",
                                 path.string(), c.calibration, c.n));
  return c;
}

struct Job {
  const NamedStream* stream;
  std::string variant, scalar, mode;
  OverflowResult result;
};

std::string sigma_text(const Threshold& t, double sigma_max) {
  return t.found ? fmt::format("{:.4g}", t.first_bad) : fmt::format("> {:.3g}", sigma_max);
}

}  // namespace

int cmd_overflow(const Argv& argv) {
  Args a("overflow", {{"results", "DIR", "folder for results/<name>/ (default results)"}}, argv);
  if (a.help()) {
    fmt::print(
        "usage: cosda overflow CONFIG.toml [--results DIR]\n"
        "For each variant, scalar type and mode (plain, stabilised), the score scale\n"
        "max |q.k|/sqrt(d) at which the variant's output first holds an inf or a NaN.\n"
        "Writes results/<name>/overflow.csv and overflow.md. See configs/overflow.toml.\n\n{}",
        a.usage());
    return 0;
  }
  if (a.positional().size() != 1)
    throw InputError(
        "cosda overflow: expected one CONFIG.toml argument (see cosda overflow "
        "--help)");
  const auto t0 = std::chrono::steady_clock::now();
  const OverflowConfig c = parse_config(a.positional()[0]);
  const fs::path dir = fs::path(a.get("results").value_or("results")) / c.name;

  std::vector<Job> jobs;
  std::map<std::string, Qkv> base;
  for (const NamedStream& s : c.streams) {
    Eigen::MatrixXd x;
    const std::int64_t rows = c.calibration + c.n + c.steps;
    try {
      x = generate(s.spec, rows, c.d);
    } catch (const std::invalid_argument& e) {
      throw InputError(fmt::format("stream '{}': {} (needs calibration + n + steps = {} tokens)",
                                   s.name, e.what(), rows));
    }
    base[s.name] = project(Projector(s.projection, c.d, s.projection_seed), x);
    for (const std::string& v : c.variants)
      for (const std::string& scalar : c.scalars)
        for (const std::string& mode : c.modes)
          if (mode == "plain" || find_variant(v)->continual)
            jobs.push_back({&s, v, scalar, mode, {}});
  }
#pragma omp parallel for schedule(dynamic)
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    Job& j = jobs[i];
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

  std::string csv =
      "stream,variant,scalar,mode,nonfinite_found,nonfinite_last_ok_sigma,nonfinite_sigma,"
      "first_bad_token,shift_at_nonfinite,inaccurate_found,inaccurate_last_ok_sigma,"
      "inaccurate_sigma,tolerance\n";
  for (const Job& j : jobs) {
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
  write_file_atomic(dir / "overflow.csv", csv);

  std::string md = fmt::format(
      "# Overflow: {}\n\nWritten by `cosda overflow` from its config. The score scale at which "
      "a variant's output first holds an inf or a NaN, searched over max |q.k|/sqrt(d) of the "
      "evaluated tokens from {:g} to {:g} (tokens scaled by a factor, scores by its square; "
      "geometric scan, then bisection to a relative 1e-9). n = {}, d = {}, m = {}; {} "
      "calibration tokens (fixed landmarks: their m-means; stabilised mode: C from "
      "calibrate_shift over them, recalibrated at every scale), then n + {} evaluated "
      "tokens. '> x': not reached up to x.\n\nTwo thresholds per stream: the first inf or "
      "NaN, and the first breakdown: an inf or NaN, or a finite output whose relative error "
      "against a from-scratch recomputation in double with max-subtraction (the same "
      "landmarks for Nyström variants) exceeds {:g}. Running sums that subtract a dominant "
      "exponential cancel catastrophically, so outputs can turn wrong well before they turn "
      "non-finite.\n",
      c.name, c.sigma_min, c.sigma_max, c.n, c.d, c.m, c.calibration, c.steps, c.tolerance);
  for (const NamedStream& s : c.streams)
    for (const bool breakdown : {false, true}) {
      md += fmt::format("\n## Stream {} ({}, projection {}): {}\n\n| variant |", s.name,
                        stream_kind_name(s.spec.kind), projection_name(s.projection),
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
            const Job* j = nullptr;
            for (const Job& x : jobs)
              if (x.stream == &s && x.variant == v && x.scalar == scalar && x.mode == mode) j = &x;
            md +=
                " " +
                (j ? sigma_text(breakdown ? j->result.inaccurate : j->result.nonfinite, c.sigma_max)
                   : std::string("n/a")) +
                " |";
          }
        md += "\n";
      }
    }
  md += fmt::format(
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
  write_file_atomic(dir / "overflow.md", md);
  fmt::print("overflow: {} searches in {} ({:.0f} s)\n", jobs.size(),
             (dir / "overflow.csv").string(),
             std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  return 0;
}

}  // namespace cosda
