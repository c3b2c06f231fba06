// The frozen exact forms of cosda's kernels; see exact.hpp for the contract. Monomials are
// {coef, power of n, power of d, power of m}, as in analysis/published.cpp. The counts were
// first fitted to executed counts (analysis/fit.hpp; tests/exact_test.cpp re-derives them) and
// then written down here; the live sets are the Live scopes of the kernels, read from source:
//   Pinv (6 iterations): mul 24m^3 + 7m^2, add 24m^3 - 5m^2 - m, div 1, other m - 1.
//   DeltaState::slide over k rows: mul 4kd, add 4kd, exp 2k; beta_row: mul dm + m^2 + m,
//   add dm + m^2 - m - 1, div 1, exp m; segment means of s tokens: add (s - 1)d, div d.
// Live phases that can never be the peak are left out: the slide scratch (2m) and the beta
// scratch (m, or d + 2m for cony_re_fix) are below the output phase of the same step, and
// co_re's 2n below its nd + n.
#include "analysis/exact.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "attention/registry.hpp"

namespace cosda::exact {
namespace {

std::int64_t checked_term(const Monomial& t, std::int64_t n, std::int64_t d, std::int64_t m) {
  if (t.coef != std::floor(t.coef)) throw std::logic_error("exact: non-integer coefficient");
  std::int64_t v = static_cast<std::int64_t>(t.coef);
  auto times = [&](std::int64_t x, int e) {
    for (int i = 0; i < e; ++i)
      if (__builtin_mul_overflow(v, x, &v)) throw std::overflow_error("exact: term overflows");
  };
  times(n, t.n);
  times(d, t.d);
  times(m, t.m);
  return v;
}

std::int64_t eval_int(const Poly& p, std::int64_t n, std::int64_t d, std::int64_t m) {
  std::int64_t sum = 0;
  for (const Monomial& t : p.terms())
    if (__builtin_add_overflow(sum, checked_term(t, n, d, m), &sum))
      throw std::overflow_error("exact: sum overflows");
  return sum;
}

Form f(Poly base, Poly per_s = {}) { return {std::move(base), std::move(per_s)}; }

// Steps shared by several variants.
Buckets single_output_nystrom_step() {  // slide (m rows) + beta_row + Delta_phi V + product
  return {f({{7, 0, 1, 1}, {1, 0, 0, 2}, {1, 0, 1}, {1, 0, 0, 1}}),
          f({{6, 0, 1, 1}, {1, 0, 0, 2}, {-1, 0, 1}, {-1, 0, 0, 1}, {-1}}), f({{1, 0, 0, 1}, {1}}),
          f({{3, 0, 0, 1}}), f({})};
}
Buckets retroactive_nystrom_step() {  // the same with n output rows
  return {f({{1, 1, 1, 1}, {6, 0, 1, 1}, {1, 0, 0, 2}, {1, 0, 1}, {1, 0, 0, 1}}),
          f({{1, 1, 1, 1}, {-1, 1, 1}, {5, 0, 1, 1}, {1, 0, 0, 2}, {-1, 0, 0, 1}, {-1}}),
          f({{1, 0, 0, 1}, {1}}), f({{3, 0, 0, 1}}), f({})};
}

const std::vector<Forms>& table() {
  static const std::vector<Forms> forms = [] {
    std::vector<Forms> t;
    // att: Q/sqrt(d), QK^T, exp, row sums, AV, reciprocals, row scaling.
    t.push_back({"att",
                 {f({{2, 2, 1}, {2, 1, 1}}), f({{2, 2, 1}, {-1, 1, 1}, {-1, 1}}), f({{1, 1}}),
                  f({{1, 2}}), f({})},
                 std::nullopt,
                 f({{3, 1, 1}}),
                 {Poly{{1, 2}, {1, 1, 1}, {1, 1}}},
                 {}});
    // ny: segment means, B_phi, Gamma_phi and its pseudo-inverse, Delta_phi V, two products.
    t.push_back({"ny",
                 {f({{4, 1, 1, 1},
                     {1, 1, 0, 2},
                     {1, 0, 1, 2},
                     {24, 0, 0, 3},
                     {1, 1, 1},
                     {1, 1, 0, 1},
                     {1, 0, 1, 1},
                     {8, 0, 0, 2}}),
                  f({{4, 1, 1, 1},
                     {1, 1, 0, 2},
                     {1, 0, 1, 2},
                     {24, 0, 0, 3},
                     {1, 1, 1},
                     {-1, 1, 0, 1},
                     {-3, 0, 1, 1},
                     {-5, 0, 0, 2},
                     {-1, 1},
                     {-3, 0, 0, 1}}),
                  f({{2, 0, 1, 1}, {1, 1}, {2, 0, 0, 1}, {1}}), f({{2, 1, 0, 1}, {1, 0, 0, 2}}),
                  f({{1, 0, 0, 1}, {-1}})},
                 std::nullopt,
                 f({{3, 1, 1}}),
                 {Poly{{1, 1, 1}, {3, 1, 0, 1}, {3, 0, 1, 1}, {5, 0, 0, 2}, {1, 1}}},
                 {}});
    // ny_fix: as ny without landmarks and without Gamma_phi^+ (stored).
    t.push_back({"ny_fix",
                 {f({{4, 1, 1, 1}, {1, 1, 0, 2}, {1, 1, 1}, {1, 1, 0, 1}, {1, 0, 1, 1}}),
                  f({{4, 1, 1, 1},
                     {1, 1, 0, 2},
                     {-1, 1, 1},
                     {-1, 1, 0, 1},
                     {-1, 0, 1, 1},
                     {-1, 1},
                     {-1, 0, 0, 1}}),
                  f({{1, 1}, {1, 0, 0, 1}}), f({{2, 1, 0, 1}}), f({})},
                 std::nullopt,
                 f({{3, 1, 1}, {2, 0, 1, 1}, {1, 0, 0, 2}}),
                 {Poly{{1, 1, 1}, {3, 1, 0, 1}, {1, 0, 1, 1}, {1, 1}}},
                 {}});
    // co_si: q/sqrt(d), q K^T, exp, sum, reciprocal, a V, scaling.
    t.push_back({"co_si",
                 {f({{2, 1, 1}, {2, 0, 1}}), f({{2, 1, 1}, {-1, 0, 1}, {-1}}), f({{1}}),
                  f({{1, 1}}), f({})},
                 std::nullopt,
                 f({{2, 1, 1}}),
                 {Poly{{2, 0, 1}, {1, 1}}},
                 {}});
    // co_re: n - 1 kept queries against k_old and k_new, the newest query's row, Eq. 6.
    t.push_back({"co_re",
                 {f({{7, 1, 1}, {-3, 0, 1}}), f({{6, 1, 1}, {-5, 0, 1}, {-1}}), f({{1, 1}}),
                  f({{3, 1}, {-2}}), f({})},
                 std::nullopt,
                 f({{4, 1, 1}, {1, 1}}),
                 {Poly{{1, 1, 1}, {1, 1}}},
                 {}});
    // cony_si_cont: update steps add two segment means, the Gamma row and column, the
    // pseudo-inverse and the replaced landmark's row of Delta (over the window).
    t.push_back(
        {"cony_si_cont",
         single_output_nystrom_step(),
         Buckets{
             f({{24, 0, 0, 3}, {2, 1, 1}, {9, 0, 1, 1}, {9, 0, 0, 2}, {-4, 0, 1}, {1, 0, 0, 1}}),
             f({{24, 0, 0, 3},
                {2, 1, 1},
                {8, 0, 1, 1},
                {-4, 0, 0, 2},
                {-9, 0, 1},
                {-1, 0, 0, 1},
                {-4}},
               {{2, 0, 1}}),
             f({{2, 0, 1}, {2, 0, 0, 1}, {2}}), f({{1, 1}, {5, 0, 0, 1}, {-3}}),
             f({{1, 0, 0, 1}, {-1}})},
         f({{2, 1, 1}, {3, 0, 1, 1}, {2, 0, 0, 2}, {2, 0, 0, 1}}, {{1, 0, 1}}),
         {Poly{{1, 0, 1, 1}, {1, 0, 1}, {4, 0, 0, 1}}},
         {Poly{{4, 0, 0, 2}, {1, 1}, {2, 0, 1}, {2, 0, 0, 1}},
          Poly{{1, 0, 1, 1}, {1, 0, 1}, {4, 0, 0, 1}}}});
    // cony_re_cont: update steps also recompute B's replaced column and all of
    // B_phi Gamma_phi^+.
    t.push_back({"cony_re_cont",
                 retroactive_nystrom_step(),
                 Buckets{f({{1, 1, 1, 1},
                            {1, 1, 0, 2},
                            {24, 0, 0, 3},
                            {3, 1, 1},
                            {1, 1, 0, 1},
                            {8, 0, 1, 1},
                            {8, 0, 0, 2},
                            {-5, 0, 1}}),
                         f({{1, 1, 1, 1},
                            {1, 1, 0, 2},
                            {24, 0, 0, 3},
                            {2, 1, 1},
                            {-1, 1, 0, 1},
                            {7, 0, 1, 1},
                            {-5, 0, 0, 2},
                            {1, 1},
                            {-9, 0, 1},
                            {-5}},
                           {{2, 0, 1}}),
                         f({{1, 1}, {2, 0, 1}, {2, 0, 0, 1}, {1}}), f({{2, 1}, {5, 0, 0, 1}, {-4}}),
                         f({{1, 0, 0, 1}, {-1}})},
                 f({{3, 1, 1}, {2, 1, 0, 1}, {3, 0, 1, 1}, {2, 0, 0, 2}, {1, 1}, {2, 0, 0, 1}}),
                 {Poly{{1, 1, 1}, {1, 0, 1, 1}, {1, 0, 0, 1}}},
                 {Poly{{4, 0, 0, 2}, {1, 1, 0, 1}, {3, 1}, {2, 0, 1}, {2, 0, 0, 1}},
                  Poly{{1, 1, 1}, {1, 0, 1, 1}, {1, 0, 0, 1}}}});
    // cony_si_fix: the plain step of cony_si_cont, every step.
    t.push_back({"cony_si_fix",
                 single_output_nystrom_step(),
                 std::nullopt,
                 f({{2, 1, 1}, {3, 0, 1, 1}, {1, 0, 0, 2}, {1, 0, 0, 1}}),
                 {Poly{{1, 0, 1, 1}, {2, 0, 1}, {4, 0, 0, 1}}},
                 {}});
    // cony_re_fix: the plain step of cony_re_cont, every step (the new query's row of
    // B_phi Gamma_phi^+ is computed as it arrives).
    t.push_back({"cony_re_fix",
                 retroactive_nystrom_step(),
                 std::nullopt,
                 f({{2, 1, 1}, {1, 1, 0, 1}, {3, 0, 1, 1}, {1, 0, 0, 2}, {1, 0, 0, 1}}),
                 {Poly{{1, 1, 1}, {1, 0, 1, 1}, {1, 0, 0, 1}}},
                 {}});
    return t;
  }();
  return forms;
}

std::int64_t max_live(const std::vector<Poly>& phases, std::int64_t n, std::int64_t d,
                      std::int64_t m) {
  std::int64_t best = 0;
  for (const Poly& p : phases) best = std::max(best, eval_int(p, n, d, m));
  return best;
}

}  // namespace

std::int64_t Form::eval(std::int64_t n, std::int64_t d, std::int64_t m, std::int64_t s) const {
  std::int64_t v = eval_int(base, n, d, m), per = eval_int(per_s, n, d, m);
  if (__builtin_mul_overflow(per, s, &per) || __builtin_add_overflow(v, per, &v))
    throw std::overflow_error("exact: form overflows");
  return v;
}

std::string Form::str() const {
  if (per_s.is_zero()) return base.str();
  std::string s = per_s.terms().size() == 1 ? "s" + per_s.str() : "s(" + per_s.str() + ")";
  if (base.is_zero()) return s;
  return base.str() + " + " + s;
}

OpCounts Buckets::eval(std::int64_t n, std::int64_t d, std::int64_t m, std::int64_t s) const {
  return {mul.eval(n, d, m, s), add.eval(n, d, m, s), div.eval(n, d, m, s), exp.eval(n, d, m, s),
          other.eval(n, d, m, s)};
}

Form Buckets::flops() const {
  return {mul.base + add.base + div.base + exp.base + other.base,
          mul.per_s + add.per_s + div.per_s + exp.per_s + other.per_s};
}

const Forms* forms(std::string_view id) {
  for (const Forms& f : table())
    if (f.id == id) return &f;
  return nullptr;
}

Segments segments(std::int64_t n, std::int64_t m) {
  if (m < 1 || n < m) throw std::invalid_argument("segments: needs 1 <= m <= n");
  return {(n + m - 1) / m, n / m, n % m};
}

Buckets cycle_forms(const Forms& f) {
  if (!f.update) return f.step;
  const Poly n{{1, 1}}, m{{1, 0, 0, 1}};
  auto cycle = [&](const Form& u, const Form& p) -> Form {
    return {m * u.base + n * u.per_s + (n - m) * p.base, {}};
  };
  return {cycle(f.update->mul, f.step.mul), cycle(f.update->add, f.step.add),
          cycle(f.update->div, f.step.div), cycle(f.update->exp, f.step.exp),
          cycle(f.update->other, f.step.other)};
}

Cost evaluate(const Point& p) {
  if (std::string why = skip_reason(p); !why.empty()) throw std::invalid_argument(why);
  if (p.layers != 1) throw std::invalid_argument("exact forms cover one layer only");
  if (p.stabilised)
    throw std::invalid_argument("exact forms cover the default (unstabilised) mode only");
  const Forms& f = *forms(p.variant);
  const std::int64_t h = p.heads, n = p.n, d = p.d / p.heads;
  const bool landmarks = find_variant(p.variant)->landmarks != LandmarkKind::kNone;
  const std::int64_t m = landmarks ? p.m : 1;
  auto times_h = [h](OpCounts c) {
    return OpCounts{c.mul * h, c.add * h, c.div * h, c.exp * h, c.other * h};
  };
  Cost c;
  c.point = p;
  if (f.update) {
    const Segments seg = segments(n, m);
    const OpCounts plain = f.step.eval(n, d, m);
    const OpCounts big = f.update->eval(n, d, m, seg.c), small = f.update->eval(n, d, m, seg.f);
    OpCounts total;
    for (std::int64_t i = 0; i < seg.r; ++i) total += big;
    for (std::int64_t i = seg.r; i < m; ++i) total += small;
    for (std::int64_t i = m; i < n; ++i) total += plain;
    c.cycle_steps = n;
    c.update_steps = m;
    c.plain_steps = n - m;
    c.update_step = times_h(seg.r > 0 ? big : small);
    c.plain_step = c.plain_steps > 0 ? times_h(plain) : OpCounts{};
    c.cycle_total = times_h(total);
    std::int64_t live = max_live(f.update_live, n, d, m);
    if (c.plain_steps > 0) live = std::max(live, max_live(f.step_live, n, d, m));
    c.valley = h * f.valley.eval(n, d, m, seg.c);
    c.peak = c.valley + h * live;
  } else {
    c.cycle_steps = 1;
    c.plain_steps = 1;
    c.plain_step = times_h(f.step.eval(n, d, m));
    c.cycle_total = c.plain_step;
    c.valley = h * f.valley.eval(n, d, m);
    c.peak = c.valley + h * max_live(f.step_live, n, d, m);
  }
  return c;
}

}  // namespace cosda::exact
