// Exact closed forms of what cosda's own kernels execute and hold: operations per steady-state
// step in each bucket (mul, add, div, exp, other), logical valley and peak memory. Each
// variant's forms live in its own attention/variants/<id>.cpp and its description points to them
// (VariantTraits::closed_forms). They are frozen polynomials, first derived by fitting integer
// coefficients to executed counts (analysis/fit.hpp) and checked against measure() by
// tests/exact_test.cpp and by `cosda verify`; analysis/exact.hpp evaluates them.
//
// Contract:
//  - Everything is per head of width d; a Point with h heads costs h times one head of width
//    d/h (exact::evaluate() applies that). Only one-layer points in the default (unstabilised)
//    mode are covered. The one object for h heads (the batched kernel) executes the same
//    operations and holds its own memory: Forms::heads writes it from one head's forms
//    (exact::heads_memory).
//  - A Form is base(n, d, m) + s * per_s(n, d, m). s is the size of the landmark segment a
//    landmark-update step completes (continual-landmark variants): the first r = n mod m
//    segments of a cycle hold c = ceil(n/m) tokens, the other m - r hold f = floor(n/m).
//    The valley of cony_si_cont uses s = c (it keeps the last c queries for the next
//    landmark). Every other form has per_s = 0.
//  - Step kinds follow analysis/measure.hpp: `step` is every steady-state step of a variant
//    without landmark updates and the plain (no new landmark) step of a continual-landmark
//    variant; `update` is the landmark-update step of segment size s. A cycle of n steps holds
//    exactly m update steps (r of size c, m - r of size f) and n - m plain steps, so
//      cycle total = r U(c) + (m - r) U(f) + (n - m) P = m U.base + n U.per_s + (n - m) P,
//    a polynomial in n, d, m whatever n mod m is (r c + (m - r) f = n). amortized = cycle / n.
//  - Memory is measured by liveness (attention/counting/liveness.hpp). Valley: the values that
//  cross a
//    step boundary. Peak = valley + the largest of the phases, each the live count beside the
//    valley at some op of a step: `step_live` on plain steps (if the cycle has any),
//    `update_live` on update steps. Both were fitted to measured figures and are exact on the
//    domain of analysis/exact.hpp (memory_exact, valley_exact); the continual-landmark
//    variants' phases are the former declarations, an estimate (their peaks are measured only).
//  - Forms have small integer coefficients; eval() computes in 64-bit integers and throws
//    std::overflow_error if a term overflows.
//
// Monomials are {coef, power of n, power of d, power of m}, as in analysis/published.cpp.
// Pieces shared by several forms:
//   Pinv (6 iterations): mul 24m^3 + 7m^2, add 24m^3 - 5m^2 - m, div 1, other m - 1.
//   DeltaHeads::slide over k rows: mul 4kd, add 4kd, exp 2k; the landmark row: mul dm + m^2 + m,
//   add dm + m^2 - m - 1, div 1, exp m; segment means of s tokens: add (s - 1)d, div d.
#pragma once

#include <cmath>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "attention/counting/op_counts.hpp"
#include "attention/counting/poly.hpp"

namespace cosda::exact {

namespace detail {
inline std::int64_t checked_term(const Monomial& t, std::int64_t n, std::int64_t d,
                                 std::int64_t m) {
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

inline std::int64_t eval_int(const Poly& p, std::int64_t n, std::int64_t d, std::int64_t m) {
  std::int64_t sum = 0;
  for (const Monomial& t : p.terms())
    if (__builtin_add_overflow(sum, checked_term(t, n, d, m), &sum))
      throw std::overflow_error("exact: sum overflows");
  return sum;
}

}  // namespace detail

// base(n, d, m) + s * per_s(n, d, m).
struct Form {
  Poly base, per_s;

  std::int64_t eval(std::int64_t n, std::int64_t d, std::int64_t m, std::int64_t s = 0) const {
    std::int64_t v = detail::eval_int(base, n, d, m), per = detail::eval_int(per_s, n, d, m);
    if (__builtin_mul_overflow(per, s, &per) || __builtin_add_overflow(v, per, &v))
      throw std::overflow_error("exact: form overflows");
    return v;
  }
  // e.g. "ndm + 2nd + s(d)"; per_s printed only when non-zero.
  std::string str() const {
    if (per_s.is_zero()) return base.str();
    std::string s = per_s.terms().size() == 1 ? "s" + per_s.str() : "s(" + per_s.str() + ")";
    if (base.is_zero()) return s;
    return base.str() + " + " + s;
  }
  bool operator==(const Form&) const = default;
};

struct Buckets {
  Form mul, add, div, exp, other;

  OpCounts eval(std::int64_t n, std::int64_t d, std::int64_t m, std::int64_t s = 0) const {
    return {mul.eval(n, d, m, s), add.eval(n, d, m, s), div.eval(n, d, m, s), exp.eval(n, d, m, s),
            other.eval(n, d, m, s)};
  }
  // mul + add + div + exp + other.
  Form flops() const {
    return {mul.base + add.base + div.base + exp.base + other.base,
            mul.per_s + add.per_s + div.per_s + exp.per_s + other.per_s};
  }
};

// The memory of one object for h heads of width d (the head-batched kernel, COSDA_BATCHED):
// its valley, and the most live beside it on a plain step (nullopt: not a closed form yet,
// measured only).
struct HeadsMemory {
  std::int64_t valley = 0;
  std::optional<std::int64_t> live;
};
// Written from one head's valley and plain-step live at (n, d, m), which the forms give: each
// variant names there the buffers it holds beyond h heads side by side (h valley, h live).
using HeadsForm = HeadsMemory (*)(std::int64_t n, std::int64_t d, std::int64_t m, std::int64_t h,
                                  HeadsMemory one_head);

struct Forms {
  Buckets step;                   // every step / the plain step of continual landmarks
  std::optional<Buckets> update;  // continual landmarks only: update step, segment size s
  Form valley;
  std::vector<Poly> step_live;    // live elements beside the valley, per phase
  std::vector<Poly> update_live;  // continual landmarks only
  HeadsForm heads = nullptr;      // the batched kernel for h > 1 heads (null: none)
};

// base + s * per_s, for writing forms compactly.
inline Form f(Poly base, Poly per_s = {}) { return {std::move(base), std::move(per_s)}; }

}  // namespace cosda::exact
