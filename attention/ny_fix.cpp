#include "attention/ny_fix.hpp"

#include "attention/registry.hpp"

namespace cosda {
COSDA_DEFINE_FACTORY(ny_fix, NyFix)
#define COSDA_INSTANTIATE(E) COSDA_INSTANTIATE_VARIANT(ny_fix, NyFix, E)
COSDA_POLICIES(COSDA_INSTANTIATE)
#undef COSDA_INSTANTIATE
}  // namespace cosda
