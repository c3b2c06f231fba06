#include "attention/cony_re_fix.hpp"

#include "attention/registry.hpp"

namespace cosda {
COSDA_DEFINE_FACTORY(cony_re_fix, CoNyReFix)
#define COSDA_INSTANTIATE(E) COSDA_INSTANTIATE_VARIANT(cony_re_fix, CoNyReFix, E)
COSDA_POLICIES(COSDA_INSTANTIATE)
#undef COSDA_INSTANTIATE
}  // namespace cosda
