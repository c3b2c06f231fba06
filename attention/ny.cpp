#include "attention/ny.hpp"

#include "attention/registry.hpp"

namespace cosda {
COSDA_DEFINE_FACTORY(ny, Ny)
#define COSDA_INSTANTIATE(E) COSDA_INSTANTIATE_VARIANT(ny, Ny, E)
COSDA_POLICIES(COSDA_INSTANTIATE)
#undef COSDA_INSTANTIATE
}  // namespace cosda
