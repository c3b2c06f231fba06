// cosda report: table.md and the figures of a config, from the points.csv its sweep wrote; the
// config's text goes into meta.json where it differs from the swept one.
#include <fmt/format.h>

#include "io/atomic_file.hpp"
#include "io/folder_lock.hpp"
#include "io/output_transaction.hpp"
#include "sweeps/args.hpp"
#include "sweeps/commands.hpp"
#include "sweeps/config.hpp"
#include "sweeps/config_kinds.hpp"
#include "sweeps/meta.hpp"
#include "sweeps/report.hpp"
#include "sweeps/sweep.hpp"

namespace cosda {

const char* const kReportHelp =
    "usage: cosda report CONFIG [--out DIR] [--no-figures] [--convention C]\n"
    "Reads DIR/<name>/points.csv (written by cosda sweep CONFIG) and writes table.md (the\n"
    "paper's printed values, our published-formula values and our executed counts side by\n"
    "side, non-reproducing cells flagged) and, with gnuplot, one PNG and PDF per\n"
    "[[figure]] of the config, next to a self-contained .gp script. Executed FLOPs are\n"
    "shown in the convention of --convention (else the config's, else all), published\n"
    "formulas beside executed FLOPs in the paper's own convention; titles name both.\n"
    "Where the config's text differs from the one meta.json records (a table, figure or\n"
    "title edited; the points must be the same), meta.json takes it and names this report.";

int cmd_report(const Argv& argv) {
  Args a("report",
         {{"out", "DIR", "results root holding DIR/<name>/points.csv (default results)"},
          {"no-figures", "", "write table.md and the .gp scripts but do not run gnuplot"},
          {"convention", "all|mul|mac|cotrans",
           "how figures and table.md total executed FLOPs (default: the config's, else all)"}},
         argv);
  if (a.print_help(kReportHelp)) return 0;
  if (a.positional().size() != 1)
    throw InputError(
        "cosda report: give exactly one config file, e.g. cosda report "
        "configs/nystrom_table3.toml (see cosda report --help)");
  SweepConfig c = read_config_as("sweep", a.positional()[0], load_config);
  if (a.has("convention"))
    c.convention = a.choice("convention", {"all", "mul", "mac", "cotrans"}, "all");
  const std::filesystem::path dir = sweep_dir(a.get("out").value_or("results"), c);
  const std::vector<SweepRow> rows = read_sweep_points(c, dir);
  check_report_outputs(c, dir, !a.has("no-figures"));
  const std::optional<std::string> meta =
      reported_meta_json(read_file(dir / "meta.json").value_or(""), c);
  if (meta) check_output_file(dir / "meta.json");
  OutputTransaction out(dir);  // table.md, every figure and meta.json published at once, or none
  const FolderLock lock(dir, "cosda report");
  const std::string listing =
      write_listed_report(c, rows, out, !a.has("no-figures"), "", "cosda report");
  if (meta)
    out.stage(
        [&](const std::filesystem::path& stage) { write_file_atomic(stage / "meta.json", *meta); });
  out.commit(replaced_report(dir, {".lock"}));
  fmt::print("{}", listing);
  return 0;
}

}  // namespace cosda
