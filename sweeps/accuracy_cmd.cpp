// cosda accuracy CONFIG: approximation error of the variants against exact attention on seeded
// (or user) streams, the cost-accuracy trade-off, and the iterative pseudo-inverse's error
// (the study: analysis/accuracy_report.hpp).
//
// Writes results/<name>/: accuracy.csv (one row per stream, n, variant, m), pinv.csv,
// summary.md (Pareto fronts), and figures per stream: error_vs_m_<stream>.png,
// tradeoff_<stream>_n<N>.png, pinv_<stream>.png.
#include "analysis/accuracy_report.hpp"
#include "io/atomic_file.hpp"
#include "sweeps/commands.hpp"
#include "sweeps/stream_config.hpp"
#include "sweeps/study_cmd.hpp"

namespace cosda {

int cmd_accuracy(const Argv& argv) {
  const auto a = parse_study_args(
      argv, "accuracy", true,
      "usage: cosda accuracy CONFIG.toml [--results DIR] [--no-plots]\n"
      "Approximation error of the variants against exact attention (relative Frobenius error\n"
      "per step: median and 95th percentile over the steady-state steps) on the streams of\n"
      "the config, with executed FLOPs per step from measure(), and the iterative\n"
      "pseudo-inverse's error against the exact one. Writes results/<name>/accuracy.csv,\n"
      "pinv.csv, summary.md and PNG figures. See configs/accuracy.toml for the keys.\n\n");
  if (!a) return 0;
  const AccuracyConfig c = parse_accuracy_config(a->config);
  const std::filesystem::path dir = a->results / c.name;
  const AccuracyResults r = run_accuracy(c, a->start);
  write_file_atomic(dir / "accuracy.csv", accuracy_csv(c, r));
  write_file_atomic(dir / "pinv.csv", pinv_csv(c, r));
  write_file_atomic(dir / "summary.md", accuracy_summary(c, r));
  if (a->plots) plot_accuracy(dir, c, r);
  print_study_done("accuracy", r.rows.size(), "rows", dir / "accuracy.csv", a->start);
  return 0;
}

}  // namespace cosda
