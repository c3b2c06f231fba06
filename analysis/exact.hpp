// Exact closed forms of what cosda's own kernels execute and hold, per variant: operations per
// steady-state step in each bucket (mul, add, div, exp, other), logical valley and peak memory.
// They are frozen polynomials (analysis/exact.cpp), first derived by fitting integer
// coefficients to executed counts (analysis/fit.hpp) and checked against measure() by
// tests/exact_test.cpp and by `cosda verify`.
//
// Contract:
//  - Everything is per head of width d; a Point with h heads costs h times one head of width
//    d/h (evaluate() applies that). Only one-layer points in the default (unstabilised)
//    mode are covered.
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
//  - Peak = valley + the largest live set of any phase of a step that occurs in the cycle:
//    `step_live` on plain steps (if the cycle has any, i.e. m < n or no landmark updates),
//    `update_live` on update steps. The phases are the Live scopes of the kernels.
//  - Forms have small integer coefficients; eval() computes in 64-bit integers and throws
//    std::overflow_error if a term overflows.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/measure.hpp"
#include "analysis/poly.hpp"
#include "attention/op_counts.hpp"

namespace cosda::exact {

// base(n, d, m) + s * per_s(n, d, m).
struct Form {
  Poly base, per_s;

  std::int64_t eval(std::int64_t n, std::int64_t d, std::int64_t m, std::int64_t s = 0) const;
  // e.g. "ndm + 2nd + s(d)"; per_s printed only when non-zero.
  std::string str() const;
  bool operator==(const Form&) const = default;
};

struct Buckets {
  Form mul, add, div, exp, other;

  OpCounts eval(std::int64_t n, std::int64_t d, std::int64_t m, std::int64_t s = 0) const;
  // mul + add + div + exp + other.
  Form flops() const;
};

struct Forms {
  std::string_view id;
  Buckets step;                   // every step / the plain step of continual landmarks
  std::optional<Buckets> update;  // continual landmarks only: update step, segment size s
  Form valley;
  std::vector<Poly> step_live;    // live elements beside the state, per phase
  std::vector<Poly> update_live;  // continual landmarks only
};

// The forms of a variant id; nullptr for an unknown id.
const Forms* forms(std::string_view id);

// Segment sizes: c = ceil(n/m), f = floor(n/m), r = n mod m (count of segments of size c when
// r > 0).
struct Segments {
  std::int64_t c, f, r;
};
Segments segments(std::int64_t n, std::int64_t m);

// Cycle totals per bucket as polynomials (per_s = 0): m U.base + n U.per_s + (n - m) P for
// continual landmarks, the step itself otherwise.
Buckets cycle_forms(const Forms& f);

// What measure() reports for a one-layer point, from the forms alone (heads applied). Mirrors
// analysis/measure.hpp's Cost: update_step is the most expensive update step (size c),
// plain_step is zero when the cycle has none, update_step zero for variants without updates.
// Heap fields stay -1. Throws std::invalid_argument for a point with a skip reason, with
// layers != 1 or in the stabilised mode.
Cost evaluate(const Point& p);

}  // namespace cosda::exact
