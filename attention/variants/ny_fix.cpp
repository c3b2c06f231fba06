#include "attention/variants/ny_fix.hpp"

#include "attention/counting/closed_form.hpp"
#include "attention/registry.hpp"

namespace cosda {

// Exact forms: as ny without landmarks, Gamma_phi^+ (stored) and the queries' scaling (nd: the
// fixed keys come scaled).
const exact::Forms& closed_forms_ny_fix() {
  using exact::Buckets, exact::f;
  static const exact::Forms forms{{f({{4, 1, 1, 1}, {1, 1, 0, 2}, {1, 1, 0, 1}, {1, 0, 1, 1}}),
                                   f({{4, 1, 1, 1},
                                      {1, 1, 0, 2},
                                      {-1, 1, 1},
                                      {-1, 1, 0, 1},
                                      {-1, 0, 1, 1},
                                      {-1, 1},
                                      {-1, 0, 0, 1}}),
                                   f({{1, 1}, {1, 0, 0, 1}}), f({{2, 1, 0, 1}}), f({})},
                                  std::nullopt,
                                  f({{3, 1, 1}, {2, 0, 1, 1}, {1, 0, 0, 2}, {-3, 0, 1}}),
                                  {Poly{{2, 1, 0, 1}, {1, 0, 1, 1}, {1, 0, 1}, {1, 0, 0, 1}},
                                   Poly{{1, 1, 1}, {1, 1, 0, 1}, {1, 0, 1, 1}}},
                                  {},
                                  exact::heads_valley_only};  // peak: h heads' but at n < 8, d < 20
  return forms;
}

COSDA_DEFINE_VARIANT(ny_fix, NyFix)
COSDA_DEFINE_HEADS(ny_fix, NyFix)
}  // namespace cosda
