#include "attention/variants/cony_re_fix.hpp"

#include "attention/counting/closed_form.hpp"
#include "attention/registry.hpp"
#include "attention/variants/cony_re_fix_heads.hpp"

namespace cosda {

namespace {

// The newest row of B_phi Gamma_phi^+ formed head-minor (m a head) beside n d + d m, where a
// head's phases are n d + d m and n d + d m - d + m.
exact::HeadsMemory heads_memory_cony_re_fix(std::int64_t n, std::int64_t d, std::int64_t m,
                                            std::int64_t h, exact::HeadsMemory one) {
  return {h * one.valley, h * (n * d + d * m + m)};
}

}  // namespace

// Exact forms (attention/counting/closed_form.hpp): the plain step of cony_re_cont, every step (the
// new query's row of B_phi Gamma_phi^+ is computed as it arrives).
const exact::Forms& closed_forms_cony_re_fix() {
  using exact::Buckets, exact::f;
  static const exact::Forms forms{
      closed_forms_cony_re_cont().step,
      std::nullopt,
      f({{2, 1, 1}, {1, 1, 0, 1}, {3, 0, 1, 1}, {1, 0, 0, 2}}),
      {Poly{{1, 1, 1}, {1, 0, 1, 1}}, Poly{{1, 1, 1}, {1, 0, 1, 1}, {-1, 0, 1}, {1, 0, 0, 1}}},
      {},
      heads_memory_cony_re_fix};
  return forms;
}

COSDA_DEFINE_VARIANT(cony_re_fix, CoNyReFix)
COSDA_DEFINE_BATCHED(cony_re_fix, CoNyReFixHeads)
}  // namespace cosda
