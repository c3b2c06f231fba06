#include "sweeps/sweep.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <omp.h>

#include <algorithm>
#include <exception>
#include <map>
#include <optional>
#include <stdexcept>

#include "analysis/exact.hpp"
#include "attention/registry.hpp"
#include "io/atomic_file.hpp"
#include "io/errors.hpp"
#include "sweeps/meta.hpp"

namespace cosda {
namespace {

SweepRow measure_row(const Point& p, const SweepConfig& c) {
  SweepRow r;
  r.point = p;
  r.published_flops = published_flops(p, c.formulas);
  r.published_valley = published_valley(p);
  r.published_peak = published_peak(p);
  r.skip_reason = skip_reason(p);
  if (!r.executed()) return r;
  // Our exact closed forms cover one-layer points (analysis/exact.hpp).
  if (p.layers == 1) r.exact_flops = exact::evaluate(p).amortized_flops();
  const Cost cost =
      measure(p, Counting::kTally, c.scalar == "float" ? Precision::kFloat : Precision::kDouble);
  set_measured(r, cost);
  return r;
}

// A rough relative cost of a point, to start the long ones first: n^2 d per layer, times a
// landmark cycle of n steps for continual landmarks (large-n cycles take longest).
double cost_proxy(const Point& p) {
  const VariantTraits* t = find_variant(p.variant);
  const bool cycle = t != nullptr && t->landmarks == LandmarkKind::kContinual;
  const double n = double(p.n), d = double(p.d);
  return n * n * d * double(p.layers) * (cycle ? n : 1.0);
}

// One run of a plan: the grid, the shard's share of it and the rows found so far.
struct Run {
  std::vector<Point> points;
  std::vector<std::size_t> mine;  // the shard's grid indices, in grid order
  std::vector<SweepRow> rows;     // by grid index
  std::vector<char> have;         // rows[i] holds a finished point
  std::vector<std::string> errors;
};

Run start_run(const SweepConfig& c, const Shard& shard) {
  Run run;
  run.points = grid_points(c);
  for (std::size_t i = 0; i < run.points.size(); ++i)
    if (shard.holds(i)) run.mine.push_back(i);
  run.rows.resize(run.points.size());
  run.have.assign(run.points.size(), 0);
  run.errors.resize(run.points.size());
  return run;
}

// Takes the rows an earlier run journaled; returns how many.
int keep_journaled(const SweepConfig& c, const std::filesystem::path& journal, Run& run) {
  std::map<std::string, SweepRow> kept = read_journal(c, journal);
  int count = 0;
  for (const std::size_t i : run.mine)
    if (auto it = kept.find(point_key(run.points[i])); it != kept.end()) {
      run.rows[i] = std::move(it->second);
      run.have[i] = 1;
      ++count;
    }
  return count;
}

// The journal is rewritten with the kept rows, then appended to point by point.
std::optional<JournalWriter> open_journal(const SweepConfig& c, const std::filesystem::path& path,
                                          const Run& run) {
  std::optional<JournalWriter> journal;
  if (path.empty()) return journal;
  std::vector<const SweepRow*> kept;
  for (const std::size_t i : run.mine)
    if (run.have[i]) kept.push_back(&run.rows[i]);
  journal.emplace(c, path, kept);
  return journal;
}

// The shard's points still to measure, most expensive first so the long ones do not start last.
std::vector<std::size_t> expensive_first(const Run& run) {
  std::vector<std::size_t> todo;
  for (const std::size_t i : run.mine)
    if (!run.have[i]) todo.push_back(i);
  std::vector<double> proxy(run.points.size());
  for (const std::size_t i : todo) proxy[i] = cost_proxy(run.points[i]);
  std::stable_sort(todo.begin(), todo.end(),
                   [&](std::size_t a, std::size_t b) { return proxy[a] > proxy[b]; });
  return todo;
}

// Measures the `todo` points in parallel, safe as counting is per thread (thread_counts(), heap
// counters) and MultiHead runs heads in turn; returns whether `stop` left some out.
bool measure_points(const SweepConfig& c, const SweepPlan& plan,
                    const std::vector<std::size_t>& todo, std::optional<JournalWriter>& journal,
                    int done, Run& run) {
  SweepProgress progress{done, static_cast<int>(run.mine.size()), 0, 0};
  std::vector<double> cost(todo.size());
  for (std::size_t t = 0; t < todo.size(); ++t) {
    cost[t] = predicted_cost(run.points[todo[t]]);
    progress.cost_left += cost[t];
  }
  // NOLINTNEXTLINE(clang-analyzer-deadcode.DeadStores): read by num_threads below
  const int threads = plan.jobs > 0 ? plan.jobs : omp_get_max_threads();
  bool stopped = false;
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
  for (std::size_t t = 0; t < todo.size(); ++t) {
    const std::size_t k = todo[t];
    if (plan.stop != nullptr && plan.stop->load()) {
#pragma omp critical(cosda_sweep_progress)
      stopped = true;
      continue;
    }
    try {
      run.rows[k] = measure_row(run.points[k], c);
    } catch (const std::exception& e) {
      run.errors[k] = e.what();
    }
#pragma omp critical(cosda_sweep_progress)
    {
      if (run.errors[k].empty()) {
        run.have[k] = 1;
        if (journal) journal->append(run.rows[k]);
      }
      ++progress.done;
      progress.cost_ran += cost[t];
      progress.cost_left = std::max(progress.cost_left - cost[t], 0.0);
      if (plan.progress) plan.progress(progress);
    }
  }
  return stopped;
}

// The config the results folder `dir` was swept with, from its meta.json; nullopt without one
// (or for an older cosda's config that no longer parses).
std::optional<SweepConfig> swept_config(const std::filesystem::path& dir) {
  if (const auto text = meta_string(read_file(dir / "meta.json").value_or(""), "config_text")) try {
      return parse_config(*text, (dir / "meta.json").string());
    } catch (const InputError&) {  // an older cosda's config that no longer parses
    }
  return std::nullopt;
}

}  // namespace

double predicted_cost(const Point& p) {
  if (!skip_reason(p).empty()) return 0;
  const std::optional<Cost> c = exact::evaluate_block(p);  // none: the forms do not cover p
  return c ? double(c->cycle_total.flops()) * double(p.layers) : cost_proxy(p);
}

std::optional<double> eta_seconds(double elapsed, double cost_ran, double cost_left) {
  if (!(cost_ran > 0)) return std::nullopt;
  return elapsed * cost_left / cost_ran;
}

std::vector<SweepRow> run_sweep(const SweepConfig& c, int jobs,
                                const std::function<void(const SweepProgress&)>& progress) {
  SweepPlan plan;
  plan.jobs = jobs;
  plan.progress = progress;
  return run_sweep(c, plan).rows;
}

SweepOutcome run_sweep(const SweepConfig& c, const SweepPlan& plan) {
  Run run = start_run(c, plan.shard);
  SweepOutcome out;
  if (plan.resume && !plan.journal.empty()) out.kept = keep_journaled(c, plan.journal, run);
  std::optional<JournalWriter> journal = open_journal(c, plan.journal, run);
  out.interrupted = measure_points(c, plan, expensive_first(run), journal, out.kept, run);
  for (const std::size_t k : run.mine)
    if (!run.errors[k].empty())
      throw std::runtime_error(
          fmt::format("measuring {}: {}", fmt::streamed(run.points[k]), run.errors[k]));
  for (const std::size_t k : run.mine)
    if (run.have[k]) out.rows.push_back(std::move(run.rows[k]));
  return out;
}

void check_some_point_runs(const SweepConfig& c) {
  const std::vector<Point> points = grid_points(c);
  for (const Point& p : points)
    if (skip_reason(p).empty()) return;
  if (points.empty()) return;
  throw InputError(fmt::format(
      "{}: every point of the grid is skipped, so the sweep would measure nothing (the first, "
      "{}: {}); change n, d, m or heads so that some point runs",
      c.source, fmt::streamed(points.front()), skip_reason(points.front())));
}

void check_sweep_outputs(const std::filesystem::path& dir, const std::filesystem::path& input) {
  check_output_dir(dir);
  for (const char* name : {"points.csv", "meta.json", "table.md", ".points.journal", ".lock"}) {
    check_output_file(dir / name);
    if (!input.empty() && same_file(input, dir / name))
      throw InputError("cannot write " + (dir / name).string() + ": it is the input " +
                       input.string() + " itself; choose another --out");
  }
}

std::filesystem::path sweep_dir(const std::filesystem::path& root, const SweepConfig& c,
                                const Shard& shard) {
  std::filesystem::path dir = root / c.name;
  if (!shard.whole()) dir /= fmt::format("shard-{}-of-{}", shard.k, shard.n);
  return dir;
}

std::vector<SweepRow> read_sweep_points(const SweepConfig& c, const std::filesystem::path& dir) {
  const std::filesystem::path csv = dir / "points.csv";
  const std::string sweep =
      "cosda sweep " + c.source +
      (dir.parent_path() == "results" ? "" : " --out " + dir.parent_path().string());
  const std::optional<std::string> text = read_file(csv);
  if (!text)
    throw InputError("cosda report: " + csv.string() + " not found; run " + sweep + " first");
  std::vector<SweepRow> rows = read_points_csv(*text, csv.string());
  const std::vector<Point> grid = grid_points(c);
  if (!std::equal(grid.begin(), grid.end(), rows.begin(), rows.end(),
                  [](const Point& p, const SweepRow& r) { return p == r.point; }))
    throw InputError("cosda report: " + csv.string() + " holds other points than " + c.source +
                     " describes; rerun " + sweep);
  // points.csv has no column for the formulas or the scalar it was swept with: its meta.json says.
  const std::optional<SweepConfig> swept = swept_config(dir);
  auto as_swept = [&](const char* key, const std::string& was, const std::string& now) {
    if (was != now)
      throw InputError(
          fmt::format("cosda report: {} was swept with {} = \"{}\", but {} says \"{}\"; rerun {}",
                      csv.string(), key, was, c.source, now, sweep));
  };
  if (swept) {
    as_swept("formulas", swept->formulas, c.formulas);
    as_swept("scalar", swept->scalar, c.scalar);
  }
  return rows;
}

std::set<std::string> replaced_report(const std::filesystem::path& dir,
                                      std::set<std::string> also) {
  std::error_code ec;
  for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::filesystem::path name = it->path().filename();
    const std::filesystem::path ext = name.extension();
    if (name == "table.md" || ext == ".gp" || ext == ".png" || ext == ".pdf")
      also.insert(name.string());
  }
  return also;
}

}  // namespace cosda
