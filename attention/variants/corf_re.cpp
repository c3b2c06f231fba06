#include "attention/variants/corf_re.hpp"

#include "attention/counting/closed_form.hpp"
#include "attention/registry.hpp"

namespace cosda {

// Exact forms: corf_si's key features, slide and query features, then the n queries' features
// against S and z, n reciprocals, row scaling.
const exact::Forms& closed_forms_corf_re() {
  using exact::Buckets, exact::f;
  // One W (m x d) for all heads, as corf_si: -(h - 1) m d; live: h times one head's.
  constexpr exact::HeadsForm heads = [](std::int64_t, std::int64_t d, std::int64_t m,
                                        std::int64_t h,
                                        exact::HeadsMemory one) -> exact::HeadsMemory {
    return {h * one.valley - (h - 1) * m * d, h * *one.live};
  };
  static const exact::Forms forms{
      {f({{1, 1, 1, 1}, {4, 0, 1, 1}, {1, 1, 0, 1}, {1, 1, 1}, {1, 0, 1}, {1}}),
       f({{1, 1, 1, 1},
          {4, 0, 1, 1},
          {1, 1, 0, 1},
          {-1, 1, 1},
          {-1, 1},
          {2, 0, 0, 1},
          {1, 0, 1},
          {-1}}),
       f({{1, 1}}), f({{2, 0, 0, 1}}), f({{1, 0, 0, 1}, {-1}})},
      std::nullopt,
      f({{1, 1, 1}, {2, 1, 0, 1}, {2, 0, 1, 1}}),
      // Live beside the valley at the outputs' one op: the output (n d) and the oldest query's
      // features (m), read there for the last time; the denominators live only within the op.
      {Poly{{1, 1, 1}, {1, 0, 0, 1}}},
      {},
      heads};
  return forms;
}

COSDA_DEFINE_VARIANT(corf_re, CoRfRe)

COSDA_DEFINE_HEADS(corf_re, CoRfRe)
}  // namespace cosda
