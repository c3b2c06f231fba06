// Running a sweep: every grid point of a config measured by executing the kernels (fast Tally
// path, analysis/measure.hpp), next to the published formulas, as tidy rows (the record and
// its points.csv: sweeps/points.hpp; the published composition: sweeps/published_cost.hpp).
#pragma once

#include <atomic>
#include <filesystem>
#include <functional>
#include <optional>
#include <vector>

#include "sweeps/config.hpp"
#include "sweeps/journal.hpp"
#include "sweeps/memory_check.hpp"
#include "sweeps/meta.hpp"
#include "sweeps/points.hpp"
#include "sweeps/published_cost.hpp"
#include "sweeps/shard.hpp"

namespace cosda {

// Where a sweep stands after a point: points finished (kept ones included) out of the shard's,
// and the predicted cost (predicted_cost()) of the points this run measured and of those left.
struct SweepProgress {
  int done = 0, total = 0;
  double cost_ran = 0, cost_left = 0;
};

// The predicted cost of measuring p, in flops: the exact closed forms' cycle total
// (exact::evaluate(), amortized flops times cycle_steps) of its one-layer, unstabilised
// version, times its layers; 0 for a point with a skip reason. Only ratios matter.
double predicted_cost(const Point& p);

// Seconds left when `elapsed` seconds measured points of predicted cost `cost_ran` and points
// of cost `cost_left` remain: the rate so far applied to the rest. Empty before any cost ran.
std::optional<double> eta_seconds(double elapsed, double cost_ran, double cost_left);

// Measures every point of c with `jobs` threads (0: all cores). progress is called under a
// lock after each point. Rows are in grid_points() order whatever `jobs` is, and every column
// except heap_peak_bytes is independent of `jobs`.
std::vector<SweepRow> run_sweep(const SweepConfig& c, int jobs,
                                const std::function<void(const SweepProgress&)>& progress = {});

// A sweep that can be interrupted and resumed. Each finished point is appended to `journal`
// (sweeps/journal.hpp). With `resume`, rows of the journal whose hash matches are kept and
// only the other points run; lines cut short by a kill are ignored. When `stop` becomes true,
// points not yet started are left out and `interrupted` is set.
struct SweepPlan {
  int jobs = 0;
  Shard shard;
  std::filesystem::path journal;  // empty: no journal
  bool resume = false;
  const std::atomic<bool>* stop = nullptr;
  std::function<void(const SweepProgress&)> progress;
};
struct SweepOutcome {
  std::vector<SweepRow> rows;  // the shard's points in grid order (all of them unless
                               // interrupted)
  int kept = 0;                // rows taken from the journal
  bool interrupted = false;
};
SweepOutcome run_sweep(const SweepConfig& c, const SweepPlan& plan);

// The folder a sweep of c writes: <root>/<name>/, and shard-K-of-N/ below it for a shard.
std::filesystem::path sweep_dir(const std::filesystem::path& root, const SweepConfig& c,
                                const Shard& shard = {});

// Throws InputError ("<config>: every point of the grid is skipped ...", naming the first
// point's reason) when no point of c's grid can run: such a sweep would measure nothing.
void check_some_point_runs(const SweepConfig& c);

// Checks, before any work, that points.csv, meta.json, the journal and the lock's pid file can
// be written into `dir` (check_output_dir(), check_output_file()) and that none of them is the
// file `input` (the config, under another name). Throws InputError naming the path; writes
// nothing.
void check_sweep_outputs(const std::filesystem::path& dir, const std::filesystem::path& input = {});

// The rows of <dir>/points.csv, which must hold exactly the points of c's grid in order;
// throws InputError ("cosda report: ...") naming the fix otherwise.
std::vector<SweepRow> read_sweep_points(const SweepConfig& c, const std::filesystem::path& dir);

}  // namespace cosda
