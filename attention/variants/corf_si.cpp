#include "attention/variants/corf_si.hpp"

#include <algorithm>

#include "attention/counting/closed_form.hpp"
#include "attention/registry.hpp"

namespace cosda {

// Exact forms: the key's features (W k, |k|^2 / (2 sqrt(d)), offset, exp), the slide of S and z,
// the query's (W q, max, offset, exp), phi(q) S, phi(q) z, reciprocal, scaling.
const exact::Forms& closed_forms_corf_si() {
  using exact::Buckets, exact::f;
  // One W (m x d) for all heads where h heads keep h copies: -(h - 1) m d. Live at the first ops:
  // the key head-minor (x_, d a head) beside the token, where a head holds a_ (m).
  constexpr exact::HeadsForm heads = [](std::int64_t, std::int64_t d, std::int64_t m,
                                        std::int64_t h,
                                        exact::HeadsMemory one) -> exact::HeadsMemory {
    return {h * one.valley - (h - 1) * m * d, h * std::max(4 * d, 3 * d + m)};
  };
  static const exact::Forms forms{
      {f({{5, 0, 1, 1}, {2, 0, 1}, {1, 0, 0, 1}, {1}}), f({{5, 0, 1, 1}, {3, 0, 0, 1}, {-2}}),
       f({{1}}), f({{2, 0, 0, 1}}), f({{1, 0, 0, 1}, {-1}})},
      std::nullopt,
      f({{1, 1, 1}, {1, 1, 0, 1}, {2, 0, 1, 1}, {1, 0, 0, 1}}),
      {Poly{{3, 0, 1}, {1, 0, 0, 1}}},
      {},
      heads};
  return forms;
}

COSDA_DEFINE_VARIANT(corf_si, CoRfSi)

COSDA_DEFINE_HEADS(corf_si, CoRfSi)
}  // namespace cosda
