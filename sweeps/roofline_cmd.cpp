// cosda roofline: this machine's peak and bandwidths, drawn with the benchmarked variants' points.
#include <fmt/format.h>

#include <filesystem>

#include "analysis/roofline.hpp"
#include "io/atomic_file.hpp"
#include "io/errors.hpp"
#include "io/output_transaction.hpp"
#include "io/plot.hpp"
#include "sweeps/args.hpp"
#include "sweeps/commands.hpp"
#include "sweeps/meta.hpp"

namespace cosda {

int cmd_roofline(const Argv& argv) {
  Args a("roofline",
         {{"out", "DIR", "where machine.json, roofline.png and .gp go (default results/roofline)"},
          {"points", "FILE",
           "measured steps to plot (default results/timing/points.tsv, written by "
           "cosda-bench --cosda_report; skipped when absent or timed on another machine)"},
          {"plot-only", "", "do not measure: redraw from DIR/machine.json"},
          {"repetitions", "R", "timed repetitions per figure, the best counts (default 10)"}},
         argv);
  if (a.print_help(
          "usage: cosda roofline [--out DIR] [--points FILE] [--plot-only] [--repetitions R]\n"
          "Measures this machine's compute peak (large GEMMs through Eigen and OpenBLAS, float\n"
          "and double, one thread and all cores) and its read and triad bandwidth at L1, L2, L3\n"
          "and DRAM working sets; writes DIR/machine.json and draws DIR/roofline.png (script\n"
          "DIR/roofline.gp) with the measured points of cosda-bench. Takes about 20 seconds."))
    return 0;
  a.reject_positional("cosda roofline --help");
  require_gnuplot("roofline", "");
  const std::filesystem::path out = a.get("out").value_or("results/roofline");
  const std::string points = a.get("points").value_or("results/timing/points.tsv");
  const int reps = int(a.integer("repetitions", 1, 100, 10));
  if (a.has("points") && !std::filesystem::exists(points))
    throw InputError("cosda roofline: flag --points: no file '" + points +
                     "'; run cosda-bench with --cosda_report first");
  // machine.json, roofline.png and .gp published together or none; checked before measuring.
  OutputTransaction tx(out);
  tx.check_files({"roofline.png", "roofline.gp"});
  if (!a.has("plot-only")) tx.check_files({"machine.json"});
  roofline::Machine m;
  const std::filesystem::path json = out / "machine.json";
  if (a.has("plot-only")) {
    auto read = roofline::read_machine(json.string());
    if (!read)
      throw InputError("cosda roofline: --plot-only needs " + json.string() +
                       "; run cosda roofline without --plot-only first");
    m = *read;
  } else {
    fmt::print(stderr, "measuring the roofline of this machine\n");
    m = roofline::measure_machine(1536, reps);
    m.strings["git_commit"] = build_commit();  // which build measured: meta.json's fields
    m.strings["date_utc"] = utc_now();
  }
  std::string measured_on;
  auto pts = std::filesystem::exists(points) ? roofline::read_points(points, &measured_on)
                                             : std::vector<roofline::MeasuredPoint>{};
  if (!pts.empty() && measured_on != roofline::machine_name(m)) {
    fmt::print(stderr, "cosda roofline: {} was timed on {}, not on {}: its points are left out\n",
               points, measured_on.empty() ? "a machine it does not name" : measured_on,
               roofline::machine_name(m));
    pts.clear();
  }
  tx.stage([&](const std::filesystem::path& dir) {
    if (!a.has("plot-only")) write_file_atomic(dir / "machine.json", roofline::to_json(m));
    roofline::draw(m, pts, dir / "roofline.png");
  });
  tx.commit();
  if (!a.has("plot-only")) fmt::print("wrote {}\n", json.string());
  fmt::print("wrote {} ({} measured points)\n", (out / "roofline.png").string(), pts.size());
  return 0;
}

// Re-executes `cosda roofline ...` with the AVX-512 OpenBLAS kernels when that applies
// (roofline_model.hpp); called before anything touches OpenBLAS.
int cmd_roofline_entry(const Argv& args) {
  if (collecting_flags()) return cmd_roofline(args);  // cosda completion: flags only
  std::vector<std::string> full = {"cosda", "roofline"};
  full.insert(full.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& s : full) argv.push_back(s.data());
  argv.push_back(nullptr);
  roofline::select_openblas_kernels(argv.data());
  return cmd_roofline(args);
}

}  // namespace cosda
