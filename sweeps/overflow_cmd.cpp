// cosda overflow CONFIG: per variant, scalar and mode, the score scale max |q.k|/sqrt(d) where
// the output first holds inf or NaN, and the stabilised mode's effect and cost
// (analysis/overflow_report.hpp). Writes <out>/<name>/overflow.csv, overflow.md and meta.json
// (sweeps/meta.hpp), all or none.
#include "analysis/overflow_report.hpp"
#include "io/atomic_file.hpp"
#include "io/output_transaction.hpp"
#include "sweeps/commands.hpp"
#include "sweeps/config_kinds.hpp"
#include "sweeps/meta.hpp"
#include "sweeps/stream_config.hpp"
#include "sweeps/study_cmd.hpp"

namespace cosda {

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
    write_file_atomic(dir / "meta.json",
                      study_meta_json("overflow", c.name, a->config.string(), c.text,
                                      stream_inputs(c.streams), seconds_since(a->start)));
  });
  out.commit();
  print_study_done("overflow", jobs.size(), "searches", out.target() / "overflow.csv", a->start);
  return 0;
}

}  // namespace cosda
