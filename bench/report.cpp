// cosda-bench --cosda_report=DIR: DIR/timing/realized.md (FLOP ratio vs att beside time ratio vs
// att, medians of this run) and DIR/timing/points.tsv (the roofline figure's points).
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bench/bench_case.hpp"
#include "bench/plain_ring.hpp"
#include "io/atomic_file.hpp"
#include "sweeps/meta.hpp"

namespace cosda::bench {
namespace {

constexpr const char* kReportFiles[] = {"realized.md", "points.tsv"};  // in DIR/timing/

std::string si(double x) {
  if (x >= 1e9) return fmt::format("{:.3g} G", x / 1e9);
  if (x >= 1e6) return fmt::format("{:.3g} M", x / 1e6);
  if (x >= 1e3) return fmt::format("{:.3g} k", x / 1e3);
  return fmt::format("{:.3g}", x);
}

std::string duration(double s) {
  if (s >= 1) return fmt::format("{:.3g} s", s);
  if (s >= 1e-3) return fmt::format("{:.3g} ms", s * 1e3);
  if (s >= 1e-6) return fmt::format("{:.3g} µs", s * 1e6);
  return fmt::format("{:.3g} ns", s * 1e9);
}

// The kind a variant's realized row uses: the amortized cycle with continual landmarks, else step.
Kind realized_kind(const std::string& variant) {
  return find_variant(variant)->landmarks == LandmarkKind::kContinual ? Kind::kCycle : Kind::kStep;
}

// A run's case and its measurement by variant, shape, scalar, thread setting and kind; null
// where the run has no such case or no time for it.
class Lookup {
 public:
  Lookup(const std::vector<Case>& cases, const std::map<std::string, Measured>& results)
      : cases_(cases), results_(results) {}
  std::pair<const Case*, const Measured*> operator()(const std::string& variant,
                                                     const TimingShape& s, bool single, bool all,
                                                     Kind kind, bool ring = false) const {
    for (const auto& c : cases_)
      if (c.variant == variant && c.shape == &s && c.single == single && c.all_cores == all &&
          c.kind == kind && c.ring == ring) {
        auto it = results_.find(c.name());
        return {&c, it == results_.end() || it->second.seconds.empty() ? nullptr : &it->second};
      }
    return {nullptr, nullptr};
  }
  // A benchmark's measurement by name; null where the run has no time for it.
  const Measured* named(const std::string& name) const {
    auto it = results_.find(name);
    return it == results_.end() || it->second.seconds.empty() ? nullptr : &it->second;
  }

 private:
  const std::vector<Case>& cases_;
  const std::map<std::string, Measured>& results_;
};

// One table of realized.md: a shape, scalar and thread setting, and att's figures in it.
struct Table {
  const TimingShape& s;
  bool single = false, all = false;
  StepCost att;
  double att_t = 0;
  roofline::Bound att_b;
};

// realized.md's opening: how it was measured, the machine, and what the columns mean.
std::string preamble(const Options& o, const std::optional<roofline::Machine>& m) {
  std::string md;
  md += "# Realized vs theoretical savings\n\n";
  md += fmt::format(
      "Written by `{}` at commit {} ({}) from `{}`; every time is the median over this run's "
      "repetitions, and "
      "every ratio divides two medians of the same run. One-thread times are the thread's CPU "
      "time per step (other processes on the cores do not count), all-core times wall-clock. "
      "FLOPs are executed counts (Tally), "
      "per steady-state step; continual-landmark variants are amortized over whole landmark "
      "cycles (plain and update steps are listed below each table). Load average (1 min) "
      "before the run {}, after it {}, on {} cores: above the core count, other processes "
      "shared the cores and the times are inflated.\n\n",
      o.command, build_commit(), utc_now(), o.config, o.load_before, o.load_after, cores());
  if (m) {
    md += fmt::format(
        "Machine ({}): {}, {}; compute peak (best large GEMM, Eigen or OpenBLAS) float {:.1f} / "
        "double {:.1f} GFLOP/s on one thread; read bandwidth L1 {:.0f}, L2 {:.0f}, L3 {:.0f}, "
        "DRAM {:.1f} GB/s on one thread.\n\n",
        o.machine, m->strings.count("cpu") ? m->strings.at("cpu") : "?",
        m->strings.count("vector_isa") ? m->strings.at("vector_isa") : "?",
        m->peak_gflops(true, false), m->peak_gflops(false, false), m->read_gbs("l1", false),
        m->read_gbs("l2", false), m->read_gbs("l3", false), m->read_gbs("dram", false));
  } else {
    md += fmt::format("Timed on {}. No roofline ({}): run `cosda roofline` first.\n\n",
                      roofline::cpu_name(),
                      o.machine_elsewhere.empty() ? o.machine + " missing" : o.machine_elsewhere);
  }
  md +=
      "Columns: **FLOP ratio** = FLOPs(att) / FLOPs(variant), the theoretical saving; **time "
      "ratio** = time(att) / time(variant), the realized one; **realized** = time ratio / FLOP "
      "ratio; **bound** = min(peak, intensity x read bandwidth measured at the step's bytes as "
      "working set), the roofline of `cosda roofline`; **% bound** = achieved FLOP/s / bound; "
      "**roofline ratio** = FLOP ratio x bound(variant) / bound(att), the time ratio the "
      "roofline predicts if both ran at their bound. Bytes per step are the memory the step's "
      "operations read and write, each byte once, recorded by executing the step under Tally "
      "(attention/counting/footprint.hpp).\n\n";
  return md;
}

// points.tsv's rows of one shape and scalar: every variant on one thread.
std::string shape_points(const Lookup& find, const TimingShape& s, bool single) {
  std::string points;
  for (const auto& v : kVariants) {
    auto [c, r] = find(std::string(v.id), s, single, false, realized_kind(std::string(v.id)));
    if (!c || !r) continue;
    const StepCost sc = step_cost(*c, cost_of(*c));
    points += fmt::format("{}\t{}\t{}\t{:.6g}\t{:.6g}\n", v.id, s.name, c->scalar(),
                          sc.flops / sc.bytes, sc.flops / r->median() / 1e9);
  }
  return points;
}

// A variant's row of a realized.md table.
std::string table_row(const Table& t, const std::string& id, const Case& c, const Measured& r,
                      const std::optional<roofline::Machine>& m) {
  const StepCost sc = step_cost(c, cost_of(c));
  const double time = r.median();
  const double flop_ratio = t.att.flops / sc.flops, time_ratio = t.att_t / time;
  const double gflops = sc.flops / time / 1e9;
  std::string bound_cells = "n/a | n/a | n/a";
  if (m) {
    const roofline::Bound b = roofline::bound(*m, t.single, t.all, cores(), sc.flops, sc.bytes);
    bound_cells = fmt::format("{:.1f} GFLOP/s, {} | {:.0f}% | {:.3g}", b.gflops, b.limit,
                              100 * gflops / b.gflops, flop_ratio * b.gflops / t.att_b.gflops);
  }
  return fmt::format(
      "| `{}` | {} | {:.3g} | {} (±{:.0f}%) | {:.3g} | {:.2f} | {:.3g} | "
      "{:.3g} | {} |\n",
      id, si(sc.flops), flop_ratio, duration(time), 50 * r.spread(), time_ratio,
      time_ratio / flop_ratio, gflops, sc.flops / sc.bytes, bound_cells);
}

// A continual-landmark variant's plain and update steps, listed below a table; empty when
// either was not timed.
std::string landmark_row(const Lookup& find, const Table& t, const std::string& id) {
  auto [pc, pr] = find(id, t.s, t.single, t.all, Kind::kPlain);
  auto [uc, ur] = find(id, t.s, t.single, t.all, Kind::kUpdate);
  if (!(pc && pr && uc && ur)) return "";
  const StepCost ps = step_cost(*pc, cost_of(*pc)), us = step_cost(*uc, cost_of(*uc));
  return fmt::format(
      "`{}`: plain step {} FLOPs in {} ({:.3g} GFLOP/s), update step {} FLOPs in {} "
      "({:.3g} GFLOP/s), {} update(s) per {} steps.  \n",
      id, si(ps.flops), duration(pr->median()), ps.flops / pr->median() / 1e9, si(us.flops),
      duration(ur->median()), us.flops / ur->median() / 1e9, cost_of(*pc).update_steps,
      cost_of(*pc).cycle_steps);
}

// The paragraph below a table on att's place in the roofline.
std::string roofline_note(const Table& t) {
  std::string md = fmt::format(
      "\nRoofline: `att` has intensity {:.3g} flop/byte against a ridge of {:.3g} at "
      "its working set, so it is {}; it reaches {:.0f}% of that bound. ",
      t.att.flops / t.att.bytes, t.att_b.ridge,
      t.att_b.limit == "compute" ? "compute-bound" : "bound by " + t.att_b.limit,
      100 * (t.att.flops / t.att_t / 1e9) / t.att_b.gflops);
  md +=
      "A variant whose bound is a bandwidth line cannot turn its FLOP saving into the "
      "same time saving: its roofline ratio, not its FLOP ratio, is the time ratio to "
      "expect, and the remaining gap to it is how far each kernel stays from its own "
      "bound (% bound) plus fixed per-step costs (calls, OpenMP) that no FLOP count "
      "sees.\n";
  return md;
}

// realized.md's table of one paper shape, scalar and thread setting; empty without att's time.
std::string shape_table(const Lookup& find, const TimingShape& s, bool single, bool all,
                        const std::optional<roofline::Machine>& m) {
  auto [ac, ar] = find(std::string(reference_variant().id), s, single, all, Kind::kStep);
  if (!ac || !ar) return "";
  const StepCost att = step_cost(*ac, cost_of(*ac));
  const Table t{
      s,
      single,
      all,
      att,
      ar->median(),
      m ? roofline::bound(*m, single, all, cores(), att.flops, att.bytes) : roofline::Bound{}};
  std::string md =
      fmt::format("## {} — n = {}, d = {}, m = {}, heads = {}; {}, {}\n\n", s.what, s.n, s.d, s.m,
                  s.heads, single ? "float" : "double",
                  all ? fmt::format("all {} cores (heads in parallel)", cores()) : "one thread");
  md +=
      "| variant | FLOPs/step | FLOP ratio | time/step (spread) | time ratio | realized | "
      "GFLOP/s | flop/byte | bound | % bound | roofline ratio |\n"
      "|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|\n";
  std::string landmark_rows;
  for (const auto& v : kVariants) {
    const std::string id(v.id);
    auto [c, r] = find(id, s, single, all, realized_kind(id));
    if (!c || !r) continue;
    md += table_row(t, id, *c, *r, m);
    if (realized_kind(id) == Kind::kCycle) landmark_rows += landmark_row(find, t, id);
  }
  md += "\n" + landmark_rows;
  if (m) md += roofline_note(t);
  md += "\n";
  return md;
}

// The median time of a variant's realized kind at a shape, scalar and thread setting (or of
// the plain-Eigen ring in its place); 0 where the run has none.
double realized_time(const Lookup& find, const std::string& id, const TimingShape& s, bool single,
                     bool all, bool ring = false) {
  auto [c, r] = find(id, s, single, all, realized_kind(id), ring);
  return c && r ? r->median() : 0;
}

std::string ratio_cell(double num, double den) {
  return num > 0 && den > 0 ? fmt::format("{:.2f}", num / den) : "n/a";
}

// The partner variant against the plain-Eigen ring at every shape of the run, one thread.
std::string ring_table(const Lookup& find, const TimingConfig& cfg) {
  const std::string id(ring_partner().id);
  std::string rows;
  for (const auto& s : cfg.shapes) {
    std::string cells;
    bool any = false;
    for (const bool single : {true, false}) {
      const double t = realized_time(find, id, s, single, false);
      const double ring = realized_time(find, id, s, single, false, true);
      any = any || (t > 0 && ring > 0);
      cells += fmt::format(" {} | {} | {} |", t > 0 ? duration(t) : "n/a",
                           ring > 0 ? duration(ring) : "n/a", ratio_cell(t, ring));
    }
    if (any) rows += fmt::format("| {} | {} | {} | {} |{}\n", s.name, s.n, s.d, s.heads, cells);
  }
  if (rows.empty()) return "";
  return fmt::format(
             "## `{0}` against a plain-Eigen ring\n\n"
             "The ring (bench/plain_ring.hpp): K and V as n x d row-major rings, a = exp(K q / "
             "sqrt(d)), out = V^T a / sum(a), in plain Eigen; with h heads, h independent rings "
             "of width d / h stepped one after another. Its outputs are checked against `{0}`'s "
             "on the same stream before it is timed. One thread; **ratio** = time(`{0}`) / "
             "time(ring), medians of this run (target: at most 1).\n\n"
             "| shape | n | d | heads | float `{0}` | float ring | ratio | double `{0}` | "
             "double ring | ratio |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
             id) +
         rows + "\n";
}

// Per-FLOP time of heads > 1 against the same window as one head (same n, d, m), one thread; also
// without exponentials (at the cost of one in att's softmax kernel), and the floor: every other
// FLOP at one head's rate.
std::string batching_table(const Lookup& find, const TimingConfig& cfg) {
  std::string md;
  for (const auto& s : cfg.shapes)
    for (const auto& o : cfg.shapes) {
      if (!(s.heads > 1 && o.heads == 1 && s.n == o.n && s.d == o.d && s.m == o.m)) continue;
      std::string rows, costs;
      for (const bool single : {true, false}) {
        const Measured* e = find.named(exp_case_name(s, single));
        const double c = e ? e->median() / double(s.n * s.n) : 0;  // seconds per exponential
        if (e) costs += fmt::format("{:.3g} ps in {}, ", c * 1e12, single ? "float" : "double");
        for (const auto& v : kVariants) {
          const std::string id(v.id);
          auto [hc, hr] = find(id, s, single, false, realized_kind(id));
          auto [oc, orr] = find(id, o, single, false, realized_kind(id));
          if (!(hc && hr && oc && orr)) continue;
          const StepCost ch = step_cost(*hc, cost_of(*hc)), co = step_cost(*oc, cost_of(*oc));
          const double ph = hr->median() / ch.flops, po = orr->median() / co.flops;
          const double qh = (hr->median() - ch.exps * c) / (ch.flops - ch.exps);
          const double qo = (orr->median() - co.exps * c) / (co.flops - co.exps);
          const double floor = (qo * (ch.flops - ch.exps) + c * ch.exps) / ch.flops / po;
          rows += fmt::format(
              "| `{}` | {} | {} | {} | {} | {:.3g} | {} | {} | {} | {:.3g} | {:.2f} | {} | {} |\n",
              id, single ? "float" : "double", si(ch.flops), si(ch.exps), duration(hr->median()),
              ph * 1e12, si(co.flops), si(co.exps), duration(orr->median()), po * 1e12, ph / po,
              e ? fmt::format("{:.2f}", qh / qo) : "n/a", e ? fmt::format("{:.2f}", floor) : "n/a");
        }
      }
      if (rows.empty()) continue;
      md += fmt::format(
          "## Head batching: {} heads of {} against one head of {} (n = {}, m = {})\n\n"
          "Time per executed FLOP (Tally counts, ps/FLOP) of `{}` and `{}`, one thread, "
          "medians of this run; **ratio** = per-FLOP time with {} heads / with one head (the "
          "target of batching the heads: at most 1.3). **exps**: the exponentials among the "
          "FLOPs, each counted as one FLOP though it costs many instructions; every head's "
          "softmax over the window takes its own exponentials. **w/o exps** = the ratio with "
          "the exponentials out of both times, at the cost of one in `att`'s softmax kernel "
          "timed in this run, and out of both counts: exponentials a kernel takes in short rows "
          "or through libm cost more, so for those this is an upper bound on the ratio without "
          "them. **floor** = the ratio of a batching that ran every FLOP but the exponentials "
          "at one head's rate and added each exponential at that cost: the least a step "
          "reaches whose exponentials take time of their own, as in a step bound by its "
          "arithmetic; a step bound by the reads of its state can take them while it waits "
          "on the reads and go below it.\n\n"
          "| variant | scalar | FLOPs/step, {} heads | exps | time/step | ps/FLOP | FLOPs/step, "
          "one head | exps | time/step | ps/FLOP | ratio | w/o exps | floor |\n"
          "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
          s.heads, s.d / s.heads, s.d, s.n, s.m, s.name, o.name, s.heads, s.heads);
      md += rows + "\n";
      if (!costs.empty())
        md += fmt::format(
            "One exponential (`kernels::exp_sum`, a row's exponentials and their sum, over {} "
            "rows of {}; benchmark `{}` and its double): {}.\n\n",
            s.n, s.n, exp_case_name(s, true), costs.substr(0, costs.size() - 2));
    }
  return md;
}

// All cores against one thread (wall clock) per variant and shape, with the share of parallel
// steps; ratios summarised apart where MultiHead chose parallel steps and where it kept one thread.
std::string threads_table(const Lookup& find, const TimingConfig& cfg) {
  std::string rows;
  std::vector<double> split, same;  // ratios where parallel steps were chosen, or not
  for (const auto& s : cfg.shapes)
    for (const auto& v : kVariants) {
      const std::string id(v.id);
      std::string cells;
      bool any = false;
      for (const bool single : {true, false}) {
        const Measured* r1 = find(id, s, single, false, realized_kind(id)).second;
        const Measured* r = find(id, s, single, true, realized_kind(id)).second;
        const double one = r1 != nullptr ? r1->wall_median() : 0;
        const double all = r != nullptr ? r->wall_median() : 0;
        const double share = r != nullptr ? Measured::median_of(r->parallel) : 0;
        const bool both = one > 0 && all > 0;
        any = any || both;
        if (both) (share >= 0.5 ? split : same).push_back(all / one);
        cells += fmt::format(" {} | {} | {} | {} |", one > 0 ? duration(one) : "n/a",
                             all > 0 ? duration(all) : "n/a",
                             all > 0 ? fmt::format("{:.0f}%", 100 * share) : "n/a",
                             ratio_cell(all, one));
      }
      if (any) rows += fmt::format("| {} | {} | `{}` |{}\n", s.name, s.heads, id, cells);
    }
  if (rows.empty()) return "";
  const auto summary = [](std::vector<double> x, std::string_view what) {
    if (x.empty()) return fmt::format("{}: none.", what);
    std::sort(x.begin(), x.end());
    const auto above = std::count_if(x.begin(), x.end(), [](double r) { return r > 1.0; });
    return fmt::format("{}: {} cells, ratios {:.2f}-{:.2f} (median {:.2f}), {} above 1.00.", what,
                       x.size(), x.front(), x.back(), Measured::median_of(x), above);
  };
  return fmt::format(
             "## All {} cores against one thread\n\n"
             "**ratio** = time on all cores (MultiHead splits one head's products of at least "
             "2^21 multiply-adds among the threads, or runs several heads in parallel, where its "
             "steps time that faster; one head splits first and falls back when one thread "
             "times faster) / time on one thread, both on the wall "
             "clock, medians of this run's repetitions, which ran interleaved in random order "
             "(target: at most 1). **parallel** = the share of the all-cores steps MultiHead "
             "took on several threads (median over the repetitions). Below 50% MultiHead kept "
             "one thread and ran in parallel only its trial steps (a few percent where it times "
             "both ways, 0% where it never does: one head whose products are all small, batched "
             "heads that do not split); there both settings ran nearly the same code, and the "
             "ratio measures mostly the machine's load between repetitions.\n\n"
             "| shape | heads | variant | float one | float all | parallel | ratio | double one "
             "| double all | parallel | ratio |\n"
             "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|\n",
             cores()) +
         rows + "\n" + summary(split, "Parallel steps chosen (50% or more)") + "  \n" +
         summary(same, "One thread kept (below 50%)") + "\n\n";
}

}  // namespace

void check_report_outputs(const Options& o) {
  const std::filesystem::path dir = std::filesystem::path(o.report) / "timing";
  check_output_dir(dir);
  for (const char* name : kReportFiles) check_output_file(dir / name);
}

std::optional<roofline::Machine> read_this_machine(Options& o) {
  std::optional<roofline::Machine> m = roofline::read_machine(o.machine);
  if (m) o.machine_elsewhere = roofline::measured_elsewhere(*m, o.machine, cores());
  if (o.machine_elsewhere.empty()) return m;
  fmt::print(stderr, "cosda-bench: {}: no bound counters; run `cosda roofline` here first\n",
             o.machine_elsewhere);
  return std::nullopt;
}

void write_reports(const Options& o, const TimingConfig& cfg, const std::vector<Case>& cases,
                   const std::map<std::string, Measured>& results,
                   const std::optional<roofline::Machine>& m) {
  const Lookup find(cases, results);
  std::string md = preamble(o, m);
  std::string points = roofline::kPointsHeader + std::string(roofline::kPointsMachine) +
                       roofline::machine_name(roofline::cpu_name(), cores()) + "\n";
  for (const auto& s : cfg.shapes) {
    bool any = false;
    for (const auto& c : cases)
      if (c.shape == &s) any = true;
    if (!any) continue;
    for (const bool single : {true, false})
      for (const bool all : {false, true}) {
        if (!all) points += shape_points(find, s, single);  // the figure's points: one thread
        if (s.paper) md += shape_table(find, s, single, all, m);
      }
  }
  md += ring_table(find, cfg) + batching_table(find, cfg) + threads_table(find, cfg);
  const std::filesystem::path dir = std::filesystem::path(o.report) / "timing";
  write_file_atomic(dir / kReportFiles[0], md);
  write_file_atomic(dir / kReportFiles[1], points);
  fmt::print(stderr, "wrote {} and {}\n", (dir / kReportFiles[0]).string(),
             (dir / kReportFiles[1]).string());
}

}  // namespace cosda::bench
