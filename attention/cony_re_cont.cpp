#include "attention/cony_re_cont.hpp"

#include "attention/registry.hpp"

namespace cosda {
#define COSDA_INSTANTIATE(E) template class CoNyReCont<E>;
COSDA_POLICIES(COSDA_INSTANTIATE)
#undef COSDA_INSTANTIATE
}  // namespace cosda
