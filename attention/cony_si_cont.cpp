#include "attention/cony_si_cont.hpp"

#include "attention/registry.hpp"

namespace cosda {
COSDA_DEFINE_FACTORY(cony_si_cont, CoNySiCont)
#define COSDA_INSTANTIATE(E) COSDA_INSTANTIATE_VARIANT(cony_si_cont, CoNySiCont, E)
COSDA_POLICIES(COSDA_INSTANTIATE)
#undef COSDA_INSTANTIATE
}  // namespace cosda
