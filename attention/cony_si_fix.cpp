#include "attention/cony_si_fix.hpp"

#include "attention/registry.hpp"

namespace cosda {
COSDA_DEFINE_VARIANT(cony_si_fix, CoNySiFix)
}  // namespace cosda
