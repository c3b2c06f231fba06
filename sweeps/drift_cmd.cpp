// cosda drift CONFIG: numerical drift of the continual variants' running sums on long streams,
// in float and double, with and without the stabilised mode (the study:
// analysis/drift_report.hpp).
//
// Writes results/<name>/drift.csv (every checkpoint), drift.md (per run: error at the first
// and last step, the largest, cost per step with and without the stabilised mode, time) and
// drift_<stream>.png.
#include "analysis/drift_report.hpp"
#include "io/atomic_file.hpp"
#include "sweeps/commands.hpp"
#include "sweeps/stream_config.hpp"
#include "sweeps/study_cmd.hpp"

namespace cosda {

int cmd_drift(const Argv& argv) {
  const auto a = parse_study_args(
      argv, "drift", true,
      "usage: cosda drift CONFIG.toml [--results DIR] [--no-plots]\n"
      "Streams many steps through the continual variants and measures how far their running\n"
      "sums drift from a from-scratch recomputation of the same window, in float and double,\n"
      "with and without the stabilised mode. Writes results/<name>/drift.csv, drift.md and\n"
      "drift_<stream>.png. See configs/drift.toml for the keys.\n\n");
  if (!a) return 0;
  const DriftConfig c = parse_drift_config(a->config);
  const std::filesystem::path dir = a->results / c.name;
  const std::vector<DriftRun> runs = run_drift_study(c);
  write_file_atomic(dir / "drift.csv", drift_csv(runs));
  write_file_atomic(dir / "drift.md", drift_markdown(c, runs));
  if (a->plots) plot_drift(dir, c, runs);
  print_study_done("drift", runs.size(), "runs", dir / "drift.csv", a->start);
  return 0;
}

}  // namespace cosda
