// cosda drift CONFIG: drift of the continual variants' running sums on long streams, float and
// double, with and without the stabilised mode (analysis/drift_report.hpp). Writes, all or none,
// <out>/<name>/drift.csv (every checkpoint), drift.md (per run: first, last and largest error,
// cost per step in each mode, time), drift_<stream>.png and meta.json (sweeps/meta.hpp).
#include <fmt/format.h>

#include "analysis/drift_report.hpp"
#include "io/atomic_file.hpp"
#include "io/output_transaction.hpp"
#include "sweeps/commands.hpp"
#include "sweeps/config_kinds.hpp"
#include "sweeps/meta.hpp"
#include "sweeps/stream_config.hpp"
#include "sweeps/study_cmd.hpp"

namespace cosda {

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
    write_file_atomic(dir / "meta.json",
                      study_meta_json("drift", c.name, a->config.string(), c.text,
                                      stream_inputs(c.streams), seconds_since(a->start)));
  });
  out.commit();
  for (const std::string& note : notes) fmt::print(stderr, "drift: {}\n", note);
  print_study_done("drift", runs.size(), "runs", out.target() / "drift.csv", a->start);
  return 0;
}

}  // namespace cosda
