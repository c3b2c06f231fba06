#include "attention/variants/cony_si_fix.hpp"

#include "attention/counting/closed_form.hpp"
#include "attention/registry.hpp"
#include "attention/variants/cony_si_fix_heads.hpp"

namespace cosda {

// cony_si_cont's plain step without its running sum (attention/variants/cony_si_cont.cpp).
exact::Buckets closed_forms_cony_si_step();

// Exact forms (attention/counting/closed_form.hpp): every step is cony_si_cont's plain step without
// its running sum of queries.
const exact::Forms& closed_forms_cony_si_fix() {
  using exact::Buckets, exact::f;
  static const exact::Forms forms{closed_forms_cony_si_step(),
                                  std::nullopt,
                                  f({{2, 1, 1}, {3, 0, 1, 1}, {1, 0, 0, 2}, {1, 0, 0, 1}}),
                                  {Poly{{3, 0, 1}}, Poly{{2, 0, 0, 1}}},
                                  {}};
  return forms;
}

COSDA_DEFINE_VARIANT(cony_si_fix, CoNySiFix)

COSDA_DEFINE_BATCHED(cony_si_fix, CoNySiFixHeads)
}  // namespace cosda
