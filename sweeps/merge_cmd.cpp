// cosda merge: the N shard folders of a sweep joined into what one unsharded sweep writes.
#include <fmt/format.h>

#include "io/atomic_file.hpp"
#include "io/folder_lock.hpp"
#include "io/output_transaction.hpp"
#include "sweeps/args.hpp"
#include "sweeps/commands.hpp"
#include "sweeps/merge.hpp"
#include "sweeps/meta.hpp"
#include "sweeps/report.hpp"
#include "sweeps/sweep.hpp"

namespace cosda {

int cmd_merge(const Argv& argv) {
  Args a("merge",
         {{"out", "DIR", "results root; the merged files go to DIR/<name>/ (default results)"},
          {"no-report", "", "write points.csv and meta.json only (no table.md, no figures)"},
          {"no-figures", "", "write table.md and the .gp scripts but do not run gnuplot"}},
         argv);
  if (a.print_help(
          "usage: cosda merge SHARD_DIR... [--out DIR] [--no-report | --no-figures]\n"
          "Joins the folders written by cosda sweep CONFIG --shard K/N for K = 1..N into\n"
          "DIR/<name>/ (points.csv in grid order, meta.json, and unless --no-report table.md and\n"
          "the figures), what one unsharded sweep writes (heap_peak_bytes aside: physical\n"
          "bytes vary between runs, docs/reliability.md). Refuses shards of different\n"
          "configs or builds, a shard given twice, overlapping rows and a missing shard."))
    return 0;
  if (a.positional().empty())
    throw InputError(
        "cosda merge: give the shard folders, e.g. cosda merge results/nystrom_fig4/shard-*-of-4");

  const MergedSweep m = merge_shards(a.positional());
  const std::filesystem::path dir = sweep_dir(a.get("out").value_or("results"), m.config);
  check_sweep_outputs(dir);
  const bool figures = !a.has("no-figures");
  if (!a.has("no-report")) check_report_outputs(m.config, dir, figures);
  OutputTransaction out(dir);  // every file published at once, or none
  const FolderLock lock(dir, "cosda merge");
  out.stage([&](const std::filesystem::path& stage) {
    write_file_atomic(stage / "points.csv", points_csv(m.rows));
    write_file_atomic(stage / "meta.json", meta_json(m.config, 0, 0.0));
  });
  const std::string listing =
      a.has("no-report") ? ""
                         : write_listed_report(m.config, m.rows, out, figures, "  ", "cosda merge");
  out.commit({".lock"});
  fmt::print("{}: {} points from {} shards -> {}\n{}", m.config.name, m.rows.size(), m.shards,
             (dir / "points.csv").string(), listing);
  return 0;
}

}  // namespace cosda
