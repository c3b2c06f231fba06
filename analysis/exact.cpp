// Evaluation of the frozen exact forms (attention/variants/<id>.cpp; notes in closed_form.hpp).
#include "analysis/exact.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "attention/registry.hpp"

namespace cosda::exact {
namespace {

std::int64_t max_live(const std::vector<Poly>& phases, std::int64_t n, std::int64_t d,
                      std::int64_t m) {
  std::int64_t best = 0;
  for (const Poly& p : phases) best = std::max(best, detail::eval_int(p, n, d, m));
  return best;
}

// One head's valley and the live beside it on plain and update steps, at (n, d, m).
struct OneHead {
  std::int64_t valley, plain_live, update_live;
};

}  // namespace

bool valley_exact(const Point& p) {
  const VariantTraits* t = find_variant(p.variant);
  return t != nullptr && p.n >= 3 &&
         (t->landmarks == LandmarkKind::kNone || (p.m >= 2 && p.m < p.n));
}

bool memory_exact(const Point& p) {
  if (!valley_exact(p) || find_variant(p.variant)->landmarks == LandmarkKind::kContinual)
    return false;
  // h heads in one batched object: where its form gives the plain step's live.
  return p.heads == 1 || forms(p.variant)->heads == nullptr || !skip_reason(p).empty() ||
         heads_memory(p).live.has_value();
}

const Forms* forms(std::string_view id) {
  const VariantTraits* t = find_variant(id);
  return t == nullptr ? nullptr : &t->closed_forms();
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
  // Memory: h heads side by side, or the one batched object for them (Forms::heads).
  const auto memory = [&](const OneHead& one, Cost& c) {
    c.valley = h * one.valley;
    std::int64_t plain_live = h * one.plain_live;
    if (h > 1 && f.heads != nullptr) {
      const HeadsMemory all = f.heads(n, d, m, h, {one.valley, one.plain_live});
      c.valley = all.valley;
      plain_live = all.live.value_or(plain_live);  // measured only: an estimate (memory_exact)
    }
    if (c.update_steps > 0) c.update_peak = c.valley + h * one.update_live;
    if (c.plain_steps > 0) c.plain_peak = c.valley + plain_live;
    c.peak = std::max(c.plain_peak, c.update_peak);
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
    memory({f.valley.eval(n, d, m, seg.c), max_live(f.step_live, n, d, m),
            max_live(f.update_live, n, d, m)},
           c);
  } else {
    c.cycle_steps = 1;
    c.plain_steps = 1;
    c.plain_step = times_h(f.step.eval(n, d, m));
    c.cycle_total = c.plain_step;
    memory({f.valley.eval(n, d, m), max_live(f.step_live, n, d, m), 0}, c);
  }
  return c;
}

std::optional<Cost> evaluate_block(Point p) {
  p.layers = 1;
  p.stabilised = false;
  try {
    return evaluate(p);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

HeadsMemory heads_memory(const Point& p) {
  Point head = p;
  head.d = p.d / p.heads, head.heads = 1;
  const Cost one = evaluate(head);
  const HeadsForm heads = forms(p.variant)->heads;
  if (heads == nullptr) throw std::invalid_argument("no batched kernel: " + p.variant);
  const std::int64_t m = find_variant(p.variant)->landmarks != LandmarkKind::kNone ? p.m : 1;
  return heads(p.n, p.d / p.heads, m, p.heads, {one.valley, one.plain_peak - one.valley});
}

}  // namespace cosda::exact
