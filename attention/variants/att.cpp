#include "attention/variants/att.hpp"

#include <algorithm>

#include "attention/counting/closed_form.hpp"
#include "attention/registry.hpp"

namespace cosda {

// Exact forms: Q/sqrt(d), QK^T, exp, row sums, AV, reciprocals, row scaling.
const exact::Forms& closed_forms_att() {
  using exact::Buckets, exact::f;
  // Head panels: one op attends every head, scores within it, so beside the valley live only the
  // token and output, (n + 3) d a head. Wider heads run head by head on one A and row sums: one
  // head's live beside earlier heads' outputs (n d each), or at n = 3 a phase of 4 d a head.
  constexpr exact::HeadsForm heads = [](std::int64_t n, std::int64_t d, std::int64_t,
                                        std::int64_t h,
                                        exact::HeadsMemory one) -> exact::HeadsMemory {
    if (h > 1 && d <= ops::kSingleQueryMaxWidth) return {h * one.valley, h * (n + 3) * d};
    return {h * one.valley, std::max(*one.live + (h - 1) * n * d, 4 * h * d)};
  };
  static const exact::Forms forms{
      {f({{2, 2, 1}, {2, 1, 1}}), f({{2, 2, 1}, {-1, 1, 1}, {-1, 1}}), f({{1, 1}}), f({{1, 2}}),
       f({})},
      std::nullopt,
      f({{3, 1, 1}, {-3, 0, 1}}),
      {Poly{{1, 2}, {1, 1, 1}, {1, 1}, {1, 0, 1}}, Poly{{1, 2}, {1, 1, 1}, {2, 0, 1}}},
      {},
      heads};
  return forms;
}

COSDA_DEFINE_VARIANT(att, Att)

COSDA_DEFINE_HEADS(att, Att)
}  // namespace cosda
