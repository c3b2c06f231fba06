#include "attention/cony_re_cont.hpp"

#include "attention/registry.hpp"

namespace cosda {
COSDA_DEFINE_FACTORY(cony_re_cont, CoNyReCont)
#define COSDA_INSTANTIATE(E) COSDA_INSTANTIATE_VARIANT(cony_re_cont, CoNyReCont, E)
COSDA_POLICIES(COSDA_INSTANTIATE)
#undef COSDA_INSTANTIATE
}  // namespace cosda
