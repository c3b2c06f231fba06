#include "attention/variants/ny_fix.hpp"

#include "attention/counting/closed_form.hpp"
#include "attention/registry.hpp"

namespace cosda {

namespace {

// The same valley; the plain-step peak (h heads' except at n < 8 or d < 20) is measured only.
exact::HeadsMemory heads_memory_ny_fix(std::int64_t, std::int64_t, std::int64_t, std::int64_t h,
                                       exact::HeadsMemory one) {
  return {h * one.valley, std::nullopt};
}

}  // namespace

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
                                  heads_memory_ny_fix};
  return forms;
}

COSDA_DEFINE_VARIANT(ny_fix, NyFix)
COSDA_DEFINE_HEADS(ny_fix, NyFix)
}  // namespace cosda
