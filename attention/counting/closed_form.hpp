// Exact closed forms of what cosda's kernels execute and hold per steady-state step: operations
// per bucket, logical valley and peak. Frozen, in attention/variants/<id>.cpp; exact_test.cpp and
// `cosda verify` check them against measure(); analysis/exact.hpp evaluates them. Contract:
//  - Per head of width d: h heads cost h heads of width d/h (exact::evaluate()); one-layer,
//    unstabilised points only. A batched kernel runs the same ops; its memory is Forms::heads.
//  - A Form is base(n, d, m) + s * per_s(n, d, m), s the size of the segment a landmark-update
//    step completes: the first r = n mod m segments of a cycle hold c = ceil(n/m) tokens, the
//    other m - r hold f = floor(n/m). cony_si_cont's valley uses s = c (it keeps the last c
//    queries for the next landmark); every other form has per_s = 0.
//  - Step kinds (analysis/measure.hpp): `step` is every steady-state step, or a continual-landmark
//    variant's plain step (no new landmark); `update` its update step of segment size s. A cycle
//    of n steps holds m update steps (r of size c, m - r of size f) and n - m plain steps, so
//      cycle total = r U(c) + (m - r) U(f) + (n - m) P = m U.base + n U.per_s + (n - m) P,
//    a polynomial whatever n mod m is (r c + (m - r) f = n); amortized = cycle / n.
//  - Memory by liveness.hpp. Valley: values crossing a step boundary. Peak = valley + the largest
//    phase, the live count beside the valley at some op: `step_live` on plain steps (if any),
//    `update_live` on update steps; exact on analysis/exact.hpp's domain, but the continual
//    landmarks' phases are an estimate (their peaks are measured only).
//  - Small integer coefficients; eval() computes in int64, std::overflow_error if a term overflows.
// Monomials are {coef, power of n, power of d, power of m}. Pieces shared by several forms:
//   Pinv (6 iterations): mul 24m^3 + 7m^2, add 24m^3 - 5m^2 - m, div 1, other m - 1.
//   DeltaHeads::slide over k rows: mul 4kd, add 4kd, exp 2k (fixed landmarks, scores kept: mul
//   3kd, add 3kd + k, exp k); the landmark row: mul dm + m^2 + m,
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
  Form flops() const {
    return {mul.base + add.base + div.base + exp.base + other.base,
            mul.per_s + add.per_s + div.per_s + exp.per_s + other.per_s};
  }
};

// One object's memory for h heads of width d (COSDA_BATCHED): valley and the most live beside it
// on a plain step (nullopt: measured only).
struct HeadsMemory {
  std::int64_t valley = 0;
  std::optional<std::int64_t> live;
};
// Built from one head's memory at (n, d, m) and what the variant holds beyond h heads side by side.
using HeadsForm = HeadsMemory (*)(std::int64_t n, std::int64_t d, std::int64_t m, std::int64_t h,
                                  HeadsMemory one_head);
// h heads' valleys side by side, the peak measured only.
inline HeadsMemory heads_valley_only(std::int64_t, std::int64_t, std::int64_t, std::int64_t h,
                                     HeadsMemory one) {
  return {h * one.valley, std::nullopt};
}

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
