#include "attention/cony_si_cont.hpp"

#include "attention/registry.hpp"

namespace cosda {
#define COSDA_INSTANTIATE(E) template class CoNySiCont<E>;
COSDA_POLICIES(COSDA_INSTANTIATE)
#undef COSDA_INSTANTIATE
}  // namespace cosda
