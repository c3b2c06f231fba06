#include "attention/co_si.hpp"

#include "attention/registry.hpp"

namespace cosda {
#define COSDA_INSTANTIATE(E) template class CoSi<E>;
COSDA_POLICIES(COSDA_INSTANTIATE)
#undef COSDA_INSTANTIATE
}  // namespace cosda
