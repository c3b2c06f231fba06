#include "attention/co_re.hpp"

#include "attention/registry.hpp"

namespace cosda {
COSDA_DEFINE_FACTORY(co_re, CoRe)
#define COSDA_INSTANTIATE(E) COSDA_INSTANTIATE_VARIANT(co_re, CoRe, E)
COSDA_POLICIES(COSDA_INSTANTIATE)
#undef COSDA_INSTANTIATE
}  // namespace cosda
