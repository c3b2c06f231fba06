#include "attention/co_si.hpp"

#include "attention/registry.hpp"

namespace cosda {
COSDA_DEFINE_FACTORY(co_si, CoSi)
#define COSDA_INSTANTIATE(E) COSDA_INSTANTIATE_VARIANT(co_si, CoSi, E)
COSDA_POLICIES(COSDA_INSTANTIATE)
#undef COSDA_INSTANTIATE
}  // namespace cosda
