#include "attention/variants/cony_si_cont.hpp"

#include "attention/counting/closed_form.hpp"
#include "attention/registry.hpp"

namespace cosda {

// Exact forms: update steps add two segment means, the Gamma row and column, the pseudo-inverse
// and the replaced landmark's row of Delta (over the window).
const exact::Forms& closed_forms_cony_si_cont() {
  using exact::Buckets, exact::f;
  static const exact::Forms forms{
      // The plain step: slide (m rows, keys' scores computed anew), the landmark row of the query
      // scaled by 1/sqrt(d), the row scaled by 1/phi(Delta) (m), its product with Delta V (dm),
      // and the running sum of the queries.
      Buckets{f({{6, 0, 1, 1}, {1, 0, 0, 2}, {1, 0, 1}, {2, 0, 0, 1}}),
              f({{6, 0, 1, 1}, {1, 0, 0, 2}, {-1, 0, 0, 1}, {-1}}), f({{1, 0, 0, 1}, {1}}),
              f({{3, 0, 0, 1}}), f({})},
      Buckets{f({{24, 0, 0, 3}, {2, 1, 1}, {8, 0, 1, 1}, {9, 0, 0, 2}, {-4, 0, 1}, {2, 0, 0, 1}}),
              f({{24, 0, 0, 3},
                 {2, 1, 1},
                 {8, 0, 1, 1},
                 {-4, 0, 0, 2},
                 {-7, 0, 1},
                 {-1, 0, 0, 1},
                 {-4}},
                {{1, 0, 1}}),
              f({{2, 0, 1}, {2, 0, 0, 1}, {2}}), f({{1, 1}, {5, 0, 0, 1}, {-3}}),
              f({{1, 0, 0, 1}, {-1}})},
      f({{2, 1, 1}, {3, 0, 1, 1}, {2, 0, 0, 2}, {1, 0, 0, 1}, {1, 0, 1}, {-1}}),
      {Poly{{3, 0, 1}}, Poly{{2, 0, 0, 1}}},
      {Poly{{4, 0, 0, 2}, {1, 1}, {2, 0, 1}, {2, 0, 0, 1}}, Poly{{3, 0, 1}}},
      exact::heads_valley_only};  // continual landmarks' peaks are measured only
  return forms;
}

COSDA_DEFINE_VARIANT(cony_si_cont, CoNySiCont)

COSDA_DEFINE_HEADS(cony_si_cont, CoNySiCont)
}  // namespace cosda
