#include "attention/ny_fix.hpp"

#include "attention/registry.hpp"

namespace cosda {
COSDA_DEFINE_VARIANT(ny_fix, NyFix)
}  // namespace cosda
