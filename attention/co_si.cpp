#include "attention/co_si.hpp"

#include "attention/registry.hpp"

namespace cosda {
COSDA_DEFINE_VARIANT(co_si, CoSi)
}  // namespace cosda
