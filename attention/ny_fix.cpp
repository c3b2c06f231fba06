#include "attention/ny_fix.hpp"

#include "attention/registry.hpp"

namespace cosda {
#define COSDA_INSTANTIATE(E) template class NyFix<E>;
COSDA_POLICIES(COSDA_INSTANTIATE)
#undef COSDA_INSTANTIATE
}  // namespace cosda
