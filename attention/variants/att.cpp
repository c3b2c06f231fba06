#include "attention/variants/att.hpp"

#include "attention/counting/closed_form.hpp"
#include "attention/registry.hpp"
#include "attention/variants/att_heads.hpp"

namespace cosda {

// Exact forms (attention/counting/closed_form.hpp): Q/sqrt(d), QK^T, exp, row sums, AV,
// reciprocals, row scaling.
const exact::Forms& closed_forms_att() {
  using exact::Buckets, exact::f;
  static const exact::Forms forms{
      {f({{2, 2, 1}, {2, 1, 1}}), f({{2, 2, 1}, {-1, 1, 1}, {-1, 1}}), f({{1, 1}}), f({{1, 2}}),
       f({})},
      std::nullopt,
      f({{3, 1, 1}, {-3, 0, 1}}),
      {Poly{{1, 2}, {1, 1, 1}, {1, 1}, {1, 0, 1}}, Poly{{1, 2}, {1, 1, 1}, {2, 0, 1}}},
      {}};
  return forms;
}

COSDA_DEFINE_VARIANT(att, Att)

COSDA_DEFINE_BATCHED(att, AttHeads)
}  // namespace cosda
