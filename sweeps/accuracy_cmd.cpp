// cosda accuracy CONFIG: the variants' error against exact attention on the config's streams,
// the cost-accuracy trade-off and the pseudo-inverse's error (analysis/accuracy_report.hpp).
// Writes <out>/<name>/, all or none: accuracy.csv (per stream, n, variant, m; random features:
// median over draws), accuracy_draws.csv, pinv.csv, summary.md (Pareto fronts, figures not
// drawn), meta.json and per stream error_vs_m_<stream>.png, tradeoff_<stream>_n<N>.png,
// pinv_<stream>.png.
#include <fmt/format.h>

#include "analysis/accuracy_report.hpp"
#include "io/atomic_file.hpp"
#include "io/output_transaction.hpp"
#include "sweeps/commands.hpp"
#include "sweeps/config_kinds.hpp"
#include "sweeps/meta.hpp"
#include "sweeps/stream_config.hpp"
#include "sweeps/study_cmd.hpp"

namespace cosda {

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
    write_file_atomic(dir / "meta.json",
                      study_meta_json("accuracy", c.name, a->config.string(), c.text,
                                      stream_inputs(c.streams), seconds_since(a->start)));
  });
  out.commit();
  for (const std::string& note : notes) fmt::print(stderr, "accuracy: {}\n", note);
  print_study_done("accuracy", r.rows.size(), "rows", out.target() / "accuracy.csv", a->start);
  return 0;
}

}  // namespace cosda
