#include "attention/ny.hpp"

#include "attention/registry.hpp"

namespace cosda {
#define COSDA_INSTANTIATE(E) template class Ny<E>;
COSDA_POLICIES(COSDA_INSTANTIATE)
#undef COSDA_INSTANTIATE
}  // namespace cosda
