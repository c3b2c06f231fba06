// Running a sweep: every grid point of a config measured by executing the kernels (fast Tally
// path, analysis/measure.hpp), next to the published formulas, as tidy rows.
//
// points.csv, one row per variant x layers x heads x n x d x m in grid_points() order:
//   variant,layers,heads,n,d,m          the point
//   flops,mul,add,div,exp,other         executed operations per steady-state step, amortized
//                                       over a landmark cycle (flops = sum of the buckets)
//   valley,peak                         logical memory, elements (all heads, both blocks)
//   heap_peak_bytes                     physical heap high-water mark of a step (-1: hooks off);
//                                       malloc_usable_size depends on the allocator's history
//                                       (chunk splitting, glibc's dynamic mmap threshold), so
//                                       this column can differ by a few bytes to a few pages
//                                       between runs that order the points differently
//   published_flops                     the published formula per step (see below)
//   published_valley,published_peak     Nyström paper App. B, elements
//   exact_flops                         our exact closed form (analysis/exact.hpp), per step
//                                       amortized like flops; one-layer points only
//   update_flops,plain_flops            executed flops of a landmark-update step and of a
//                                       step without one (empty when the cycle has none)
//   cycle_steps,update_steps            steps measured and how many updated landmarks
//   skip_reason                         why the point was not executed ("" when it was)
// Empty cells mean "no value"; a skipped point keeps its published columns.
//
// Published formulas per step (one layer): formulas = "nystrom" uses the App. A total of the
// id; for the continual-landmark ids a landmark is refreshed once every n/m steps (Sec. IV-A)
// and the other steps cost as the fixed-landmark update (Sec. IV-B), so the per-step value is
// (A(cont) + (n/m - 1) A(fix)) / (n/m), which is what reproduces Tables III and IV.
// formulas = "cotrans" uses mul + add + exp of CoTrans Sec. 3.1-3.3 (att, co_re, co_si only).
// Two layers (Nyström paper Sec. V-A: a retroactive block followed by a single-output one;
// two blocks of the same kind for att, ny, ny_fix): first + second block with
//   att: att + att            ny: ny + ny            ny_fix: ny_fix + ny_fix
//   co_si, co_re: co_re + co_si
//   cony_si_cont, cony_re_cont: cony_re_cont + cony_si_cont
//   cony_si_fix, cony_re_fix: cony_re_fix + cony_si_fix
// Memory for two layers: valley = valley(first) + valley(second); the blocks run one after
// the other, so peak = max(peak(first) + valley(second), valley(first) + peak(second)).
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "analysis/measure.hpp"
#include "sweeps/config.hpp"

namespace cosda {

inline constexpr int kSweepSchemaVersion = 1;

struct SweepRow {
  Point point;
  std::string skip_reason;  // "" when executed
  double flops = 0, mul = 0, add = 0, div = 0, exp = 0, other = 0;
  std::int64_t valley = 0, peak = 0, heap_peak_bytes = -1;
  std::int64_t cycle_steps = 0, update_steps = 0;
  std::optional<double> update_flops, plain_flops;
  std::optional<double> published_flops, published_valley, published_peak, exact_flops;

  bool executed() const { return skip_reason.empty(); }
  // The value of a points.csv column by name (flops, peak, published_flops, ...).
  std::optional<double> value(const std::string& column) const;
};

// The published per-step FLOPs / memory at a point under the rules above (nullopt where the
// source has no formula for the id).
std::optional<double> published_flops(const Point& p, const std::string& formulas);
std::optional<double> published_valley(const Point& p);
std::optional<double> published_peak(const Point& p);

// The two blocks the published two-layer composition adds, for an id.
std::pair<std::string, std::string> two_layer_blocks(const std::string& id);

// Measures every point of c with `jobs` threads (0: all cores). progress(done, total) is
// called under a lock after each point. Rows are in grid_points() order whatever `jobs` is,
// and every column except heap_peak_bytes is independent of `jobs`.
std::vector<SweepRow> run_sweep(const SweepConfig& c, int jobs,
                                const std::function<void(int, int)>& progress = {});

// The K-th (1-based) of N disjoint slices of a grid: the points whose grid_points() index i
// has i % N == K - 1, so every slice gets a share of the cheap and of the expensive points.
struct Shard {
  int k = 1, n = 1;
  bool whole() const { return n == 1; }
  bool holds(std::size_t index) const { return int(index % std::size_t(n)) == k - 1; }
};
// Parses "K/N" (1 <= K <= N); throws InputError naming --shard otherwise.
Shard parse_shard(const std::string& text);

// A sweep that can be interrupted and resumed. Each finished point is appended to `journal`
// as one line: a hash of the point, the config text and this build's executable, then the
// points.csv row. With `resume`, rows of the journal whose hash matches are kept and only the
// other points run; lines cut short by a kill are ignored. When `stop` becomes true, points
// not yet started are left out and `interrupted` is set.
struct SweepPlan {
  int jobs = 0;
  Shard shard;
  std::filesystem::path journal;  // empty: no journal
  bool resume = false;
  const std::atomic<bool>* stop = nullptr;
  std::function<void(int, int)> progress;
};
struct SweepOutcome {
  std::vector<SweepRow> rows;  // the shard's points in grid order (all of them unless
                               // interrupted)
  int kept = 0;                // rows taken from the journal
  bool interrupted = false;
};
SweepOutcome run_sweep(const SweepConfig& c, const SweepPlan& plan);

// Identity of a point for the journal and for merging shards.
std::string point_key(const Point& p);
// 64-bit FNV-1a of this build's executable file (read once).
std::uint64_t build_hash();

// Memory a point needs while it is measured, in bytes: a bound from the exact closed forms
// (peak live elements of every block and head, doubled for the measurement's own buffers).
double point_memory_bytes(const Point& p);
// Throws InputError when the `jobs` largest points of the plan would not fit together in
// `available_bytes`, naming the largest point and the ways out.
void check_memory(const SweepConfig& c, const Shard& shard, int jobs, double available_bytes);
// MemAvailable of /proc/meminfo in bytes (0 when unknown).
double available_memory_bytes();

// points.csv text, and its inverse (throws InputError naming `source` and the line).
std::string points_csv(const std::vector<SweepRow>& rows);
std::vector<SweepRow> read_points_csv(const std::string& text, const std::string& source);

// meta.json: schema version, config text, git commit, compiler, library versions, date, and
// the shard ("K/N", "1/1" for a whole sweep).
std::string meta_json(const SweepConfig& c, int jobs, double seconds, const Shard& shard = {});

}  // namespace cosda
