// Report sections 1-3: exact forms vs execution and as printed; Nyström App. A, B vs execution.
#include <fmt/ranges.h>

#include <algorithm>
#include <functional>

#include "analysis/published.hpp"
#include "analysis/verify_sections.hpp"
#include "attention/registry.hpp"

namespace cosda::verify {
namespace {

namespace pub = published;
using conventions::Convention;

std::string fixed_of(std::string_view id) {
  return std::string(fixed_landmarks_of(variant(id))->id);
}

// The MAC branch (mul or add) that holds at the given values of a buckets form.
bool mac_uses_mul(const exact::Buckets& b, const std::vector<Triple>& pts, bool update) {
  int mul_wins = 0;
  for (const Triple& t : pts) {
    const std::int64_t s = update ? exact::segments(t[0], t[2]).c : 0;
    mul_wins += b.mul.eval(t[0], t[1], t[2], s) >= b.add.eval(t[0], t[1], t[2], s);
  }
  return 2 * mul_wins >= int(pts.size());
}

std::vector<Triple> points_for(std::string_view id, const std::vector<Triple>& pts) {
  std::vector<Triple> out;
  for (Triple t : pts) {
    if (!has_landmarks(id)) t[2] = 1;
    if (std::find(out.begin(), out.end(), t) == out.end()) out.push_back(t);
  }
  return out;
}

using AtPoint = std::function<std::optional<double>(const Triple&)>;

// One published formula against execution at several points (memory rows: no executed_in).
struct Row {
  std::string id, key, quantity, source;
  Convention conv;
  Poly published;    // symbolic (for amortized rows: the cycle total numerator)
  exact::Form ours;  // symbolic, same scale as `published`
  AtPoint published_at, executed_at;
  std::function<std::optional<double>(const Triple&, Convention)> executed_in;
  std::vector<Triple> points;
  std::string symbolic_note;
};

void emit_points(Text& r, const Row& row, const std::string& verdict, bool memory) {
  const std::string unit = memory ? "elements" : std::string(conventions::info(row.conv).id);
  for (const Triple& t : row.points) {
    const std::optional<double> pv = row.published_at(t), ev = row.executed_at(t);
    if (!pv || !ev) continue;
    r.p("| {} | {} | {} | {} | {} | {}", t[0], t[1], t[2], num(*pv), num(*ev), ratio(*ev, *pv));
    if (!memory) {
      const std::optional<double> all = row.executed_in(t, Convention::kAll);
      const std::optional<double> mul = row.executed_in(t, Convention::kMul);
      r.p(" | {} | {}", all ? ratio(*all, *pv) : "-", mul ? ratio(*mul, *pv) : "-");
    }
    r.p(" |\n");
    r.csv.row("nystrom", row.source, row.id, row.quantity, unit, t[0], t[1], t[2], 1, 1, *pv, *ev,
              std::nullopt, verdict, r.cls("nystrom", row.id + " " + row.key, verdict));
  }
}

void emit_row(Text& r, const Row& row) {
  const bool memory = !row.executed_in;
  const Verdict v = compare_forms(row.published, row.ours);
  const std::string verdict = verdict_name(v);
  r.verdicts.push_back({memory ? "appendix_b" : "appendix_a", row.id + " " + row.key, verdict});
  if (memory)
    r.p("**{} — {}** ({}; elements)\n\n| n | d | m | published | executed | ratio |\n"
        "|---|---|---|---|---|---|\n",
        row.id, row.quantity, row.source);
  else
    r.p("**{} — {}** ({}; convention `{}`)\n\n| n | d | m | published | executed | ratio | "
        "ratio (all) | ratio (mul) |\n|---|---|---|---|---|---|---|---|\n",
        row.id, row.quantity, row.source, conventions::info(row.conv).id);
  emit_points(r, row, verdict, memory);
  if (memory)
    r.p("\nVerdict: **{}**. Published `{}`; ours `{}`{}.", verdict, row.published.str(),
        row.ours.str(), row.symbolic_note);
  else
    r.p("\nVerdict: **{}**. Published {} = `{}`; ours = `{}`{}.", verdict,
        row.key == "amortized" ? "cycle total" : "form", row.published.str(), row.ours.str(),
        row.symbolic_note);
  if (v != Verdict::kExact)
    r.p(" Leading terms: published `{}`, ours `{}`.", row.published.leading().str(),
        leading_str(row.ours));
  r.p("\n");
  const std::string why = explain(row.id, row.key);
  if (!why.empty()) r.p("Why: {}\n", why);
  r.p("\n");
}

AtPoint evaluated(const Poly& p) {
  return [p](const Triple& t) -> std::optional<double> {
    return p.eval(double(t[0]), double(t[1]), double(t[2]));
  };
}

// The rows of one variant; cost() measures (or recalls) a one-layer point.
struct Variant {
  Runs& runs;
  std::string id;
  const exact::Forms& f;
  std::vector<Triple> pts;
  const Cost& cost(const Triple& t) { return runs.get({id, t[0], t[1], t[2], 1}); }

  // FLOPs of one step kind (the measured `step`, exact form `b`) in convention mac. A plain
  // step of a continual-landmark variant is compared with its fixed counterpart's formula.
  Row step_row(std::string key, std::string quantity, const pub::Published& published,
               const exact::Buckets& b, bool update, OpCounts Cost::*step, bool plain) {
    const bool mul = mac_uses_mul(b, pts, update);
    return {id,
            std::move(key),
            std::move(quantity),
            std::string(published.source),
            Convention::kMac,
            published.total,
            conventions::form(b, Convention::kMac, mul),
            evaluated(published.total),
            [this, step, plain](const Triple& t) -> std::optional<double> {
              const Cost& c = cost(t);
              if (plain && c.plain_steps == 0) return std::nullopt;
              return double(conventions::count(c.*step, Convention::kMac));
            },
            [this, step](const Triple& t, Convention c) -> std::optional<double> {
              return double(conventions::count(cost(t).*step, c));
            },
            pts,
            mul || plain ? "" : " (mac branch: add > mul)"};
  }

  // The per-step average over a landmark cycle, compared as the cycle total.
  Row amortized_row() {
    const pub::Published& up = *pub::flops(id);
    const pub::Published& fx = *pub::flops(fixed_of(id));
    const Poly n{{1, 1}}, m{{1, 0, 0, 1}};
    const exact::Form u =
        conventions::form(*f.update, Convention::kMac, mac_uses_mul(*f.update, pts, true));
    const exact::Form pl =
        conventions::form(f.step, Convention::kMac, mac_uses_mul(f.step, pts, false));
    const bool single = variant(id).single_output;
    return {id,
            "amortized",
            "FLOPs per step, averaged over a landmark cycle",
            "Appendix A items " + std::string(single ? "9 and 7" : "8 and 6") +
                ", composed as in Sec. IV-A",
            Convention::kMac,
            m * up.total + (n - m) * fx.total,
            {m * u.base + n * u.per_s + (n - m) * pl.base, {}},
            [id = id](const Triple& t) -> std::optional<double> {
              return pub::amortized_flops(id, double(t[0]), double(t[1]), double(t[2]));
            },
            [this](const Triple& t) -> std::optional<double> {
              return amortized(cost(t), Convention::kMac);
            },
            [this](const Triple& t, Convention c) -> std::optional<double> {
              return amortized(cost(t), c);
            },
            pts,
            " (per step = cycle total / n)"};
  }

  // Valley or peak memory; the peak's symbolic form is the phase largest at the last point.
  Row memory_row(bool is_valley) {
    const pub::Published& published = *(is_valley ? pub::valley(id) : pub::peak(id));
    exact::Form ours = f.valley;
    std::string note;
    if (!is_valley) {
      const Triple& t = pts.back();
      const std::vector<Poly>& phases = f.update ? f.update_live : f.step_live;
      const Poly* best = &phases.front();
      for (const Poly& q : phases)
        if (q.eval(t[0], t[1], t[2]) > best->eval(t[0], t[1], t[2])) best = &q;
      ours.base = ours.base + *best;
      if (phases.size() > 1) note = " (the live phase that is largest at the last point)";
    }
    if (!ours.per_s.is_zero()) note += " (s = c = ceil(n/m))";
    return {id,
            is_valley ? "valley" : "peak",
            is_valley ? "valley memory" : "peak memory",
            std::string(published.source),
            Convention::kAll,
            published.total,
            ours,
            evaluated(published.total),
            [this, is_valley](const Triple& t) -> std::optional<double> {
              return double(is_valley ? cost(t).valley : cost(t).peak);
            },
            {},
            pts,
            note};
  }
};

}  // namespace

void section_exact(Text& r, const std::vector<Check>& checks) {
  std::size_t bad = 0;
  for (const Check& c : checks) bad += !c.ok();
  r.p("## 1. Exact forms against execution\n\n");
  r.p("{} executed one-layer points (the [exact] grid of the config plus every point measured "
      "below), each compared field by field (update, plain and cycle counts in five buckets, "
      "step counts, valley, peak): **{} mismatches**.\n\n",
      checks.size(), bad);
  for (const Check& c : checks) {
    if (c.ok()) continue;
    r.p("- MISMATCH {} n={} d={} m={} heads={}: {}\n", c.point.variant, c.point.n, c.point.d,
        c.point.m, c.point.heads, fmt::join(c.mismatches, ", "));
  }
  if (bad) r.p("\n");
  for (const Check& c : checks)
    r.csv.row("exact", "attention/variants/<id>.cpp", c.point.variant, "cycle flops", "all",
              c.point.n, c.point.d, c.point.m, c.point.heads, 1, std::nullopt,
              double(c.executed_cycle_flops), double(c.exact_cycle_flops),
              c.ok() ? "equal" : "mismatch",
              c.ok() ? "reproduced" : "unexplained");  // self-checks: not in the class summary
}

void section_forms(Text& r) {
  r.p("## 2. Exact forms of cosda's kernels\n\n{}\n\n", required_note("forms intro"));
  for (std::string_view id : kVariantIds) {
    const exact::Forms& f = *exact::forms(id);
    r.p("### {} ({})\n\n", id, find_variant(id)->paper_name);
    r.p("| step kind | mul | add | div | exp | other | all (flops) "
        "|\n|---|---|---|---|---|---|---|\n");
    auto row = [&](const char* kind, const exact::Buckets& b) {
      r.p("| {} | {} | {} | {} | {} | {} | {} |\n", kind, b.mul.str(), b.add.str(), b.div.str(),
          b.exp.str(), b.other.str(), b.flops().str());
    };
    row(f.update ? "plain step" : "every step", f.step);
    if (f.update) {
      row("update step (segment size s)", *f.update);
      row("cycle total (n steps)", exact::cycle_forms(f));
    }
    std::string live, ulive;
    for (const Poly& q : f.step_live) live += (live.empty() ? "" : ", ") + q.str();
    for (const Poly& q : f.update_live) ulive += (ulive.empty() ? "" : ", ") + q.str();
    // Continual-landmark peaks have no exact form (docs/counting.md): their phases estimate.
    r.p("\nvalley: {}{}; live phases{}: max({}){}\n\n", f.valley.str(),
        f.valley.per_s.is_zero() ? "" : " (s = c)",
        f.update ? " (an estimate: the peak is measured only)" : "", live,
        f.update ? "; update steps: max(" + ulive + ")" : "");
  }
}

void section_nystrom(Text& r, Runs& runs, const Grid& g) {
  r.p("## 3. Nyström paper, Appendices A and B, against execution\n\n{}\n\n",
      required_note("nystrom intro"));
  for (std::string_view sid : kVariantIds) {
    const std::string id(sid);
    if (pub::flops(id) == nullptr) continue;  // no paper costs it
    Variant v{runs, id, *exact::forms(id), points_for(id, g.nystrom)};
    r.p("### {} ({})\n\n", id, find_variant(id)->paper_name);
    const pub::Published& own = *pub::flops(id);
    if (!v.f.update) {
      emit_row(
          r, v.step_row("step", "FLOPs per step", own, v.f.step, false, &Cost::plain_step, false));
    } else {
      emit_row(r, v.step_row("update", "FLOPs per landmark-update step (the largest, s = c)", own,
                             *v.f.update, true, &Cost::update_step, false));
      emit_row(r, v.step_row("plain", "FLOPs per step without a new landmark",
                             *pub::flops(fixed_of(id)), v.f.step, false, &Cost::plain_step, true));
      emit_row(r, v.amortized_row());
    }
    emit_row(r, v.memory_row(true));
    emit_row(r, v.memory_row(false));
  }
}

}  // namespace cosda::verify
