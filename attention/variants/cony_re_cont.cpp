#include "attention/variants/cony_re_cont.hpp"

#include "attention/counting/closed_form.hpp"
#include "attention/registry.hpp"

namespace cosda {

// Exact forms: update steps also recompute B's replaced column and all of B_phi Gamma_phi^+.
const exact::Forms& closed_forms_cony_re_cont() {
  using exact::Buckets, exact::f;
  static const exact::Forms forms{
      // The plain step; the fixed-landmark variant's every step is this less q / sqrt(d) (d mul).
      Buckets{f({{1, 1, 1, 1}, {6, 0, 1, 1}, {1, 0, 0, 2}, {1, 0, 1}, {1, 0, 0, 1}}),
              f({{1, 1, 1, 1}, {-1, 1, 1}, {5, 0, 1, 1}, {1, 0, 0, 2}, {-1, 0, 0, 1}, {-1}}),
              f({{1, 0, 0, 1}, {1}}), f({{3, 0, 0, 1}}), f({})},
      Buckets{f({{1, 1, 1, 1},
                 {1, 1, 0, 2},
                 {24, 0, 0, 3},
                 {3, 1, 1},
                 {1, 1, 0, 1},
                 {8, 0, 1, 1},
                 {8, 0, 0, 2},
                 {-5, 0, 1}}),
              f({{1, 1, 1, 1},
                 {1, 1, 0, 2},
                 {24, 0, 0, 3},
                 {2, 1, 1},
                 {-1, 1, 0, 1},
                 {7, 0, 1, 1},
                 {-5, 0, 0, 2},
                 {1, 1},
                 {-9, 0, 1},
                 {-5}},
                {{2, 0, 1}}),
              f({{1, 1}, {2, 0, 1}, {2, 0, 0, 1}, {1}}), f({{2, 1}, {5, 0, 0, 1}, {-4}}),
              f({{1, 0, 0, 1}, {-1}})},
      f({{3, 1, 1},
         {2, 1, 0, 1},
         {3, 0, 1, 1},
         {2, 0, 0, 2},
         {1, 1},
         {-2, 0, 0, 1},
         {-2, 0, 1},
         {-3}}),
      {Poly{{1, 1, 1}, {1, 0, 1, 1}, {1, 0, 0, 1}}},
      {Poly{{4, 0, 0, 2}, {1, 1, 0, 1}, {3, 1}, {2, 0, 1}, {2, 0, 0, 1}},
       Poly{{1, 1, 1}, {1, 0, 1, 1}, {1, 0, 0, 1}}},
      exact::heads_valley_only};  // continual landmarks' peaks are measured only
  return forms;
}

COSDA_DEFINE_VARIANT(cony_re_cont, CoNyReCont)

COSDA_DEFINE_HEADS(cony_re_cont, CoNyReCont)
}  // namespace cosda
