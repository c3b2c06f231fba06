// cosda accuracy, drift and overflow: a stream study's CONFIG.toml, --out DIR and, with figures,
// --no-figures (the old names --results and --no-plots still read). Each writes <out>/<name>/,
// all or none, with meta.json (sweeps/meta.hpp) beside its own files.
#include <fmt/format.h>

#include <utility>

#include "analysis/accuracy_report.hpp"
#include "analysis/drift_report.hpp"
#include "analysis/overflow_report.hpp"
#include "io/atomic_file.hpp"
#include "io/errors.hpp"
#include "io/output_transaction.hpp"
#include "io/plot.hpp"
#include "sweeps/args.hpp"
#include "sweeps/commands.hpp"
#include "sweeps/config_kinds.hpp"
#include "sweeps/meta.hpp"
#include "sweeps/stream_config.hpp"

namespace cosda {
namespace {

struct StudyArgs {
  std::filesystem::path config;
  std::filesystem::path out;  // the folder that gets <out>/<name>/
  bool figures = false;
  Clock::time_point start;
};

// Parses `cosda <command>`'s flags (with_figures: --no-figures too); nullopt after printing help
// and the flags for --help. An old name prints one deprecation line on stderr.
std::optional<StudyArgs> parse_study_args(const Argv& argv, const std::string& command,
                                          bool with_figures, const std::string& help) {
  std::vector<FlagSpec> flags{
      {"out", "DIR", "results root; files go to DIR/<name>/ (default results)"},
      {"results", "DIR", "the old name of --out, read for one more release"}};
  if (with_figures) {
    flags.push_back({"no-figures", "", "write the CSV and Markdown files only (no gnuplot)"});
    flags.push_back({"no-plots", "", "the old name of --no-figures, read for one more release"});
  }
  Args a(command, flags, argv);
  if (a.print_help(help)) return std::nullopt;
  if (a.positional().size() != 1)
    throw InputError(
        fmt::format("cosda {0}: expected one CONFIG.toml argument (see cosda {0} "
                    "--help)",
                    command));
  if (a.has("out") && a.has("results"))
    throw InputError("cosda " + command + ": --results is the old name of --out; give --out only");
  for (const auto& [old, now] : {std::pair{"results", "out"}, std::pair{"no-plots", "no-figures"}})
    if (a.has(old))
      fmt::print(stderr, "cosda {}: --{} is deprecated and goes in the next release; use --{}\n",
                 command, old, now);
  const bool figures = with_figures && !a.has("no-figures") && !a.has("no-plots");
  if (figures) require_gnuplot(command, "pass --no-figures");
  const Clock::time_point start = Clock::now();
  return StudyArgs{.config = a.positional()[0],
                   .out = a.get("out").value_or(a.get("results").value_or("results")),
                   .figures = figures,
                   .start = start};
}

// The study's meta.json: its config and the .npy files its streams read.
template <class Config>
void write_study_meta(const std::filesystem::path& dir, const std::string& command, const Config& c,
                      const StudyArgs& a) {
  std::vector<std::string> inputs;
  for (const NamedStream& s : c.streams)
    inputs.insert(inputs.end(), s.inputs.begin(), s.inputs.end());
  write_file_atomic(dir / "meta.json", study_meta_json(command, c.name, a.config.string(), c.text,
                                                       inputs, seconds_since(a.start)));
}

// "<command>: <count> <what> in <file> (<seconds> s)" on stdout.
void print_study_done(const std::string& command, std::size_t count, const std::string& what,
                      const std::filesystem::path& file, Clock::time_point start) {
  fmt::print("{}: {} {} in {} ({:.0f} s)\n", command, count, what, file.string(),
             seconds_since(start));
}

}  // namespace

// The variants' error against exact attention on the config's streams, the cost-accuracy
// trade-off and the pseudo-inverse's error (analysis/accuracy_report.hpp): accuracy.csv (per
// stream, n, variant, m; random features: median over draws), accuracy_draws.csv, pinv.csv,
// summary.md (Pareto fronts, figures not drawn) and per stream error_vs_m_<stream>.png,
// tradeoff_<stream>_n<N>.png, pinv_<stream>.png.
int cmd_accuracy(const Argv& argv) {
  const auto a = parse_study_args(
      argv, "accuracy", true,
      "usage: cosda accuracy CONFIG.toml [--out DIR] [--no-figures]\n"
      "Approximation error of the variants against exact attention (relative Frobenius error\n"
      "per step: median and 95th percentile over the steady-state steps) on the streams of\n"
      "the config, with executed FLOPs per step from measure(), and the iterative\n"
      "pseudo-inverse's error against the exact one. Random-feature variants run once per\n"
      "feature seed (median and min-max over the draws). Writes DIR/<name>/accuracy.csv,\n"
      "accuracy_draws.csv, pinv.csv, summary.md, meta.json (commit, CPU) and PNG figures,\n"
      "all or none. See configs/accuracy.toml.");
  if (!a) return 0;
  const AccuracyConfig c = read_config_as("accuracy", a->config, parse_accuracy_config);
  OutputTransaction out(a->out / c.name);  // checked before any work
  out.check_files({"accuracy.csv", "accuracy_draws.csv", "pinv.csv", "summary.md", "meta.json"});
  if (a->figures) out.check_files(accuracy_figures(c));
  const AccuracyResults r = run_accuracy(c, a->start);
  std::vector<std::string> notes;
  out.stage([&](const std::filesystem::path& dir) {
    if (a->figures) notes = plot_accuracy(dir, c, r);
    write_file_atomic(dir / "accuracy.csv", accuracy_csv(c, r));
    write_file_atomic(dir / "accuracy_draws.csv", accuracy_draws_csv(r));
    write_file_atomic(dir / "pinv.csv", pinv_csv(c, r));
    write_file_atomic(dir / "summary.md", accuracy_summary(c, r, notes));
    write_study_meta(dir, "accuracy", c, *a);
  });
  out.commit();
  for (const std::string& note : notes) fmt::print(stderr, "accuracy: {}\n", note);
  print_study_done("accuracy", r.rows.size(), "rows", out.target() / "accuracy.csv", a->start);
  return 0;
}

// Drift of the continual variants' running sums on long streams, float and double, with and
// without the stabilised mode (analysis/drift_report.hpp): drift.csv (every checkpoint), drift.md
// (per run: first, last and largest error, cost per step in each mode, time), drift_<stream>.png.
int cmd_drift(const Argv& argv) {
  const auto a = parse_study_args(
      argv, "drift", true,
      "usage: cosda drift CONFIG.toml [--out DIR] [--no-figures]\n"
      "Streams many steps through the continual variants and measures how far their running\n"
      "sums drift from a from-scratch recomputation of the same window, in float and double,\n"
      "with and without the stabilised mode. Writes DIR/<name>/drift.csv, drift.md,\n"
      "drift_<stream>.png and meta.json (commit, CPU), all or none. See configs/drift.toml.");
  if (!a) return 0;
  const DriftConfig c = read_config_as("drift", a->config, parse_drift_config);
  OutputTransaction out(a->out / c.name);  // checked before any work
  out.check_files({"drift.csv", "drift.md", "meta.json"});
  if (a->figures)
    for (const NamedStream& s : c.streams)
      out.check_files({"drift_" + s.name + ".png", "drift_" + s.name + ".gp"});
  const std::vector<DriftRun> runs = run_drift_study(c);
  std::vector<std::string> notes;
  out.stage([&](const std::filesystem::path& dir) {
    if (a->figures) notes = plot_drift(dir, c, runs);
    std::string md = drift_markdown(c, runs);
    if (!notes.empty()) md += "\n## Figures not drawn\n\n";
    for (const std::string& note : notes) md += "- " + note + "\n";
    write_file_atomic(dir / "drift.csv", drift_csv(runs));
    write_file_atomic(dir / "drift.md", md);
    write_study_meta(dir, "drift", c, *a);
  });
  out.commit();
  for (const std::string& note : notes) fmt::print(stderr, "drift: {}\n", note);
  print_study_done("drift", runs.size(), "runs", out.target() / "drift.csv", a->start);
  return 0;
}

// Per variant, scalar and mode, the score scale max |q.k|/sqrt(d) where the output first holds
// inf or NaN, and the stabilised mode's effect and cost (analysis/overflow_report.hpp):
// overflow.csv and overflow.md.
int cmd_overflow(const Argv& argv) {
  const auto a = parse_study_args(
      argv, "overflow", false,
      "usage: cosda overflow CONFIG.toml [--out DIR]\n"
      "For each variant, scalar type and mode (plain, stabilised), the score scale\n"
      "max |q.k|/sqrt(d) at which the variant's output first holds an inf or a NaN.\n"
      "Writes DIR/<name>/overflow.csv, overflow.md and meta.json (commit, CPU), all or none.\n"
      "See configs/overflow.toml.");
  if (!a) return 0;
  const OverflowConfig c = read_config_as("overflow", a->config, parse_overflow_config);
  OutputTransaction out(a->out / c.name);  // checked before any work
  out.check_files({"overflow.csv", "overflow.md", "meta.json"});
  const std::vector<OverflowJob> jobs = run_overflow_study(c);
  out.stage([&](const std::filesystem::path& dir) {
    write_file_atomic(dir / "overflow.csv", overflow_csv(c, jobs));
    write_file_atomic(dir / "overflow.md", overflow_markdown(c, jobs));
    write_study_meta(dir, "overflow", c, *a);
  });
  out.commit();
  print_study_done("overflow", jobs.size(), "searches", out.target() / "overflow.csv", a->start);
  return 0;
}

}  // namespace cosda
