#include "attention/variants/co_si.hpp"

#include "attention/counting/closed_form.hpp"
#include "attention/registry.hpp"
#include "attention/variants/co_si_heads.hpp"

namespace cosda {

// Exact forms (attention/counting/closed_form.hpp): q/sqrt(d), q K^T, exp, sum, reciprocal, a V,
// scaling.
const exact::Forms& closed_forms_co_si() {
  using exact::Buckets, exact::f;
  static const exact::Forms forms{
      {f({{2, 1, 1}, {2, 0, 1}}), f({{2, 1, 1}, {-1, 0, 1}, {-1}}), f({{1}}), f({{1, 1}}), f({})},
      std::nullopt,
      f({{2, 1, 1}, {-2, 0, 1}}),
      {Poly{{1, 1}, {3, 0, 1}}, Poly{{4, 0, 1}}},
      {}};
  return forms;
}

COSDA_DEFINE_VARIANT(co_si, CoSi)

COSDA_DEFINE_BATCHED(co_si, CoSiHeads)
}  // namespace cosda
