#include "attention/variants/co_si.hpp"

#include <algorithm>

#include "attention/counting/closed_form.hpp"
#include "attention/registry.hpp"

namespace cosda {

// Exact forms: q/sqrt(d), q K^T, exp, sum, reciprocal, a V, scaling.
const exact::Forms& closed_forms_co_si() {
  using exact::Buckets, exact::f;
  // Head panels keep the scores within the op: 4 d a head beside the valley (a head holds a_ (n)
  // between ops). Wider heads: every head's scores (n) beside their sums (one a head).
  constexpr exact::HeadsForm heads = [](std::int64_t n, std::int64_t d, std::int64_t,
                                        std::int64_t h,
                                        exact::HeadsMemory one) -> exact::HeadsMemory {
    if (d <= ops::kSingleQueryMaxWidth) return {h * one.valley, 4 * h * d};
    return {h * one.valley, h * std::max(4 * d, 3 * d + n + 1)};
  };
  static const exact::Forms forms{
      {f({{2, 1, 1}, {2, 0, 1}}), f({{2, 1, 1}, {-1, 0, 1}, {-1}}), f({{1}}), f({{1, 1}}), f({})},
      std::nullopt,
      f({{2, 1, 1}, {-2, 0, 1}}),
      {Poly{{1, 1}, {3, 0, 1}}, Poly{{4, 0, 1}}},
      {},
      heads};
  return forms;
}

COSDA_DEFINE_VARIANT(co_si, CoSi)

COSDA_DEFINE_HEADS(co_si, CoSi)
}  // namespace cosda
