#include "attention/variants/cony_re_fix.hpp"

#include "attention/counting/closed_form.hpp"
#include "attention/registry.hpp"

namespace cosda {

// Exact forms: cony_re_cont's plain step (a query's row on arrival) less q / sqrt(d) (Kt is
// scaled) and less the leaving key's scores (dm mul, dm - m add, m exps: they are kept). Valley:
// the V ring (nd) and the scores ring (nm) where cony_re_cont keeps K's (nd).
const exact::Forms& closed_forms_cony_re_fix() {
  using exact::Buckets, exact::f;
  static const Buckets cont = closed_forms_cony_re_cont().step;
  constexpr exact::HeadsForm heads = [](std::int64_t, std::int64_t, std::int64_t, std::int64_t h,
                                        exact::HeadsMemory one) -> exact::HeadsMemory {
    return {h * one.valley, h * *one.live};
  };
  static const exact::Forms forms{
      Buckets{f(cont.mul.base - Poly{{1, 0, 1}, {1, 0, 1, 1}}),
              f(cont.add.base - Poly{{1, 0, 1, 1}, {-1, 0, 0, 1}}), cont.div,
              f(cont.exp.base - Poly{{1, 0, 0, 1}}), cont.other},
      std::nullopt,
      f({{1, 1, 1}, {2, 1, 0, 1}, {3, 0, 1, 1}, {1, 0, 0, 2}}),
      // Live beside the valley at Eq. 23's one op: the output (n d), Delta_phi V (d m) and the
      // next slot's row (m), read there for the last time.
      {Poly{{1, 1, 1}, {1, 0, 1, 1}, {1, 0, 0, 1}}},
      {},
      heads};
  return forms;
}

COSDA_DEFINE_VARIANT(cony_re_fix, CoNyReFix)
COSDA_DEFINE_HEADS(cony_re_fix, CoNyReFix)
}  // namespace cosda
