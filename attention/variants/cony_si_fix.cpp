#include "attention/variants/cony_si_fix.hpp"

#include <algorithm>

#include "attention/counting/closed_form.hpp"
#include "attention/registry.hpp"

namespace cosda {

// cony_si_cont's plain step without its running sum (attention/variants/cony_si_cont.cpp).
exact::Buckets closed_forms_cony_si_step();

namespace {

// The key copied head-minor (DeltaHeads::k_new_) while the token is live: 4 d a head (one: 3 d).
exact::HeadsMemory heads_memory_cony_si_fix(std::int64_t, std::int64_t d, std::int64_t m,
                                            std::int64_t h, exact::HeadsMemory one) {
  return {h * one.valley, h * std::max(4 * d, 2 * m)};
}

}  // namespace

// Exact forms: every step is cony_si_cont's plain step without its running sum of queries.
const exact::Forms& closed_forms_cony_si_fix() {
  using exact::Buckets, exact::f;
  static const exact::Forms forms{closed_forms_cony_si_step(),
                                  std::nullopt,
                                  f({{2, 1, 1}, {3, 0, 1, 1}, {1, 0, 0, 2}, {1, 0, 0, 1}}),
                                  {Poly{{3, 0, 1}}, Poly{{2, 0, 0, 1}}},
                                  {},
                                  heads_memory_cony_si_fix};
  return forms;
}

COSDA_DEFINE_VARIANT(cony_si_fix, CoNySiFix)

COSDA_DEFINE_HEADS(cony_si_fix, CoNySiFix)
}  // namespace cosda
