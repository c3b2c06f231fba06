#include "attention/variants/co_re.hpp"

#include "attention/counting/closed_form.hpp"
#include "attention/registry.hpp"

namespace cosda {

// Exact forms (attention/counting/closed_form.hpp): n - 1 kept queries against k_old and k_new, the
// newest query's row, Eq. 6.
const exact::Forms& closed_forms_co_re() {
  using exact::Buckets, exact::f;
  // Beside one head's live, the newest query scaled in a row (q_row_, d a head) before its
  // column of the Q ring.
  constexpr exact::HeadsForm heads = [](std::int64_t, std::int64_t d, std::int64_t, std::int64_t h,
                                        exact::HeadsMemory one) -> exact::HeadsMemory {
    return {h * one.valley, h * (*one.live + d)};
  };
  static const exact::Forms forms{{f({{7, 1, 1}, {-3, 0, 1}}), f({{6, 1, 1}, {-5, 0, 1}, {-1}}),
                                   f({{1, 1}}), f({{3, 1}, {-2}}), f({})},
                                  std::nullopt,
                                  f({{4, 1, 1}, {1, 1}, {-2, 0, 1}, {-1}}),
                                  {Poly{{1, 1, 1}, {1, 1}}},
                                  {},
                                  heads};
  return forms;
}

COSDA_DEFINE_VARIANT(co_re, CoRe)
COSDA_DEFINE_HEADS(co_re, CoRe)
}  // namespace cosda
