// cosda report: table.md and the figures of a config, from the points.csv its sweep wrote.
#include <fmt/format.h>

#include <fstream>
#include <sstream>

#include "sweeps/args.hpp"
#include "sweeps/commands.hpp"
#include "sweeps/config.hpp"
#include "sweeps/report.hpp"
#include "sweeps/sweep.hpp"

namespace cosda {

int cmd_report(const Argv& argv) {
  Args a("report",
         {{"out", "DIR", "results root holding DIR/<name>/points.csv (default results)"},
          {"no-figures", "", "write table.md and the .gp scripts but do not run gnuplot"}},
         argv);
  if (a.help()) {
    fmt::print(
        "usage: cosda report CONFIG [--out DIR] [--no-figures]\n"
        "Reads DIR/<name>/points.csv (written by cosda sweep CONFIG) and writes table.md (the\n"
        "paper's printed values, our published-formula values and our executed counts side by\n"
        "side, non-reproducing cells flagged) and, with gnuplot, one PNG and PDF per\n"
        "[[figure]] of the config, next to a self-contained .gp script.\n\n{}",
        a.usage());
    return 0;
  }
  if (a.positional().size() != 1)
    throw InputError(
        "cosda report: give exactly one config file, e.g. cosda report "
        "configs/nystrom_table3.toml (see cosda report --help)");
  const SweepConfig c = load_config(a.positional()[0]);
  const std::filesystem::path dir =
      std::filesystem::path(a.get("out").value_or("results")) / c.name;
  const std::filesystem::path csv = dir / "points.csv";
  std::ifstream in(csv, std::ios::binary);
  if (!in)
    throw InputError("cosda report: " + csv.string() + " not found; run cosda sweep " + c.source +
                     " first");
  std::ostringstream ss;
  ss << in.rdbuf();
  const std::vector<SweepRow> rows = read_points_csv(ss.str(), csv.string());
  const std::vector<Point> grid = grid_points(c);
  bool same = grid.size() == rows.size();
  for (std::size_t i = 0; same && i < grid.size(); ++i) {
    const Point &p = grid[i], &q = rows[i].point;
    same = p.variant == q.variant && p.layers == q.layers && p.heads == q.heads && p.n == q.n &&
           p.d == q.d && p.m == q.m;
  }
  if (!same)
    throw InputError("cosda report: " + csv.string() + " holds other points than " + c.source +
                     " describes; rerun cosda sweep " + c.source);
  const ReportFiles files = write_report(c, rows, dir, !a.has("no-figures"));
  for (const auto& f : files.written)
    if (f.extension() != ".gp") fmt::print("{}\n", f.string());
  if (!files.note.empty()) fmt::print(stderr, "cosda report: {}\n", files.note);
  return 0;
}

}  // namespace cosda
