#include "attention/att.hpp"

#include "attention/registry.hpp"

namespace cosda {
COSDA_DEFINE_FACTORY(att, Att)
#define COSDA_INSTANTIATE(E) COSDA_INSTANTIATE_VARIANT(att, Att, E)
COSDA_POLICIES(COSDA_INSTANTIATE)
#undef COSDA_INSTANTIATE
}  // namespace cosda
