#include "attention/cony_re_fix.hpp"

#include "attention/registry.hpp"

namespace cosda {
COSDA_DEFINE_VARIANT(cony_re_fix, CoNyReFix)
}  // namespace cosda
