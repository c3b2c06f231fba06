#include "attention/variants/corf_re.hpp"

#include "attention/counting/closed_form.hpp"
#include "attention/registry.hpp"
#include "attention/variants/corf_re_heads.hpp"

namespace cosda {

namespace {

// One W (m x d) for all heads, as corf_si: -(h - 1) m d. Every head's denominators (den_, n)
// stay within heads_attend_cols, where a head's attend writes them in one op and reads them in
// two more: n d + m a head beside the valley.
exact::HeadsMemory heads_memory_corf_re(std::int64_t n, std::int64_t d, std::int64_t m,
                                        std::int64_t h, exact::HeadsMemory one) {
  return {h * one.valley - (h - 1) * m * d, h * (n * d + m)};
}

}  // namespace

// Exact forms (attention/counting/closed_form.hpp): corf_si's key features, slide and query
// features, then the n queries' features against S and z, n reciprocals, row scaling.
const exact::Forms& closed_forms_corf_re() {
  using exact::Buckets, exact::f;
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
      {Poly{{1, 1, 1}, {1, 1}}, Poly{{1, 1, 1}, {1, 1}, {-1, 0, 1}, {1, 0, 0, 1}, {-1}}},
      {},
      heads_memory_corf_re};
  return forms;
}

COSDA_DEFINE_VARIANT(corf_re, CoRfRe)

COSDA_DEFINE_BATCHED(corf_re, CoRfReHeads)
}  // namespace cosda
