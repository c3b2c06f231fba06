// Running a sweep: each grid point's executed counts (fast path) beside the published formulas.
#pragma once

#include <atomic>
#include <filesystem>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "sweeps/config.hpp"
#include "sweeps/journal.hpp"
#include "sweeps/memory_check.hpp"
#include "sweeps/meta.hpp"
#include "sweeps/points.hpp"
#include "sweeps/published_cost.hpp"
#include "sweeps/shard.hpp"

namespace cosda {

// Progress after each point: points done (kept included) of the shard's; predicted cost run, left.
struct SweepProgress {
  int done = 0, total = 0;
  double cost_ran = 0, cost_left = 0;
};

// The relative cost of measuring p: the exact forms' cycle flops of its one-layer, unstabilised
// version times its layers (a rough proxy where no form applies); 0 for a skipped point.
double predicted_cost(const Point& p);

// Seconds left: `cost_left` at the rate so far (`cost_ran` in `elapsed`); empty before any ran.
std::optional<double> eta_seconds(double elapsed, double cost_ran, double cost_left);

// Measures every point of c with `jobs` threads (0: all cores), calling progress under a lock
// after each. Rows come in grid_points() order; only heap_peak_bytes may depend on `jobs`.
std::vector<SweepRow> run_sweep(const SweepConfig& c, int jobs,
                                const std::function<void(const SweepProgress&)>& progress = {});

// A sweep that can be interrupted and resumed: each finished point is appended to `journal`;
// `resume` keeps the journal's matching rows and runs only the rest (a line cut short by a kill
// is ignored). Once `stop` is true, points not yet started are left out and `interrupted` set.
struct SweepPlan {
  int jobs = 0;
  Shard shard;
  std::filesystem::path journal;  // empty: no journal
  bool resume = false;
  const std::atomic<bool>* stop = nullptr;
  std::function<void(const SweepProgress&)> progress;
};
struct SweepOutcome {
  std::vector<SweepRow> rows;  // the shard's points in grid order (all unless interrupted)
  int kept = 0;                // rows taken from the journal
  bool interrupted = false;
};
SweepOutcome run_sweep(const SweepConfig& c, const SweepPlan& plan);

// The folder a sweep of c writes: <root>/<name>/, and shard-K-of-N/ below it for a shard.
std::filesystem::path sweep_dir(const std::filesystem::path& root, const SweepConfig& c,
                                const Shard& shard = {});

// InputError ("<config>: every point of the grid is skipped ...") if no point of c can run.
void check_some_point_runs(const SweepConfig& c);

// Checks, before any work, that `dir`, its points.csv, meta.json, table.md, journal and .lock can
// be written and none is `input` (the config under another name); else InputError. No writes.
void check_sweep_outputs(const std::filesystem::path& dir, const std::filesystem::path& input = {});

// The rows of <dir>/points.csv, exactly c's grid points in order, else InputError with the fix.
std::vector<SweepRow> read_sweep_points(const SweepConfig& c, const std::filesystem::path& dir);

// What a commit into the results folder `dir` drops besides `also`: its table.md and every
// figure and script (.gp, .png, .pdf) this run did not write again, so that no table or figure of
// other points, of a figure the config no longer has, or of --no-figures' earlier run stays beside
// the new files. Other files (the user's) are kept.
std::set<std::string> replaced_report(const std::filesystem::path& dir, std::set<std::string> also);

}  // namespace cosda
