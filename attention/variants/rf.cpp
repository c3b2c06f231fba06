#include "attention/variants/rf.hpp"

#include <algorithm>

#include "attention/counting/closed_form.hpp"
#include "attention/registry.hpp"

namespace cosda {

// Exact forms: the keys' features (W K^T, |k|^2 / (2 sqrt(d)), offset, exp), S = phi(K)^T V, z,
// the queries' (Q W^T, max, offset, exp), phi(Q) S, phi(Q) z, reciprocals, row scaling.
const exact::Forms& closed_forms_rf() {
  using exact::Buckets, exact::f;
  // Key offsets (n) stay within heads_key_exp_cols, where a head stores them beside its key
  // features (m x n); where the sums S (m d) outgrow them both peak beside S.
  constexpr exact::HeadsForm heads = [](std::int64_t n, std::int64_t d, std::int64_t m,
                                        std::int64_t h,
                                        exact::HeadsMemory one) -> exact::HeadsMemory {
    return {h * one.valley, h * (*one.live - std::max<std::int64_t>(0, n - m * d))};
  };
  static const exact::Forms forms{
      {f({{4, 1, 1, 1}, {2, 1, 1}, {1, 1, 0, 1}, {1, 1}}),
       f({{4, 1, 1, 1}, {2, 1, 0, 1}, {-1, 0, 1, 1}, {-2, 1}, {-1, 0, 0, 1}}), f({{1, 1}}),
       f({{2, 1, 0, 1}}), f({{1, 1, 0, 1}, {-1, 1}})},
      std::nullopt,
      f({{3, 1, 1}, {1, 0, 1, 1}, {-3, 0, 1}}),
      {Poly{{1, 1, 1}, {1, 1, 0, 1}, {1, 0, 1, 1}, {1, 0, 0, 1}},
       Poly{{1, 1, 1}, {1, 1, 0, 1}, {1, 1}, {1, 0, 0, 1}}},
      {},
      heads};
  return forms;
}

COSDA_DEFINE_VARIANT(rf, Rf)
COSDA_DEFINE_HEADS(rf, Rf)
}  // namespace cosda
