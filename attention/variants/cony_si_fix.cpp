#include "attention/variants/cony_si_fix.hpp"

#include <algorithm>

#include "attention/counting/closed_form.hpp"
#include "attention/registry.hpp"

namespace cosda {

// Exact forms: every step slides the kept scores (the new token's, dm + m exps; slide_sums), then
// the landmark row (its keys come scaled, the query does not), the row scaled by 1/phi(Delta) (m)
// and its product with Delta V (dm). Valley: the V ring (nd) and the scores ring (nm), not K's.
const exact::Forms& closed_forms_cony_si_fix() {
  using exact::Buckets, exact::f;
  // The token copied head-minor (DeltaHeads::k_new_, v_new_) while its scores (m) or the output
  // (d) are live, or the row and 1/phi(Delta): max(4d, 3d + m, 2m) a head (one: 3d + m or 2m).
  constexpr exact::HeadsForm heads = [](std::int64_t, std::int64_t d, std::int64_t m,
                                        std::int64_t h,
                                        exact::HeadsMemory one) -> exact::HeadsMemory {
    return {h * one.valley, h * std::max({4 * d, 3 * d + m, 2 * m})};
  };
  static const exact::Forms forms{
      Buckets{f({{5, 0, 1, 1}, {1, 0, 0, 2}, {2, 0, 0, 1}}),
              f({{5, 0, 1, 1}, {1, 0, 0, 2}, {-1, 0, 1}, {-1}}), f({{1, 0, 0, 1}, {1}}),
              f({{2, 0, 0, 1}}), f({})},
      std::nullopt,
      f({{1, 1, 1}, {1, 1, 0, 1}, {3, 0, 1, 1}, {1, 0, 0, 2}, {1, 0, 0, 1}}),
      {Poly{{3, 0, 1}, {1, 0, 0, 1}}, Poly{{2, 0, 0, 1}}},
      {},
      heads};
  return forms;
}

COSDA_DEFINE_VARIANT(cony_si_fix, CoNySiFix)

COSDA_DEFINE_HEADS(cony_si_fix, CoNySiFix)
}  // namespace cosda
