#include "attention/cony_si_fix.hpp"

#include "attention/registry.hpp"

namespace cosda {
COSDA_DEFINE_FACTORY(cony_si_fix, CoNySiFix)
#define COSDA_INSTANTIATE(E) COSDA_INSTANTIATE_VARIANT(cony_si_fix, CoNySiFix, E)
COSDA_POLICIES(COSDA_INSTANTIATE)
#undef COSDA_INSTANTIATE
}  // namespace cosda
