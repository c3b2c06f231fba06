#include "attention/cony_re_cont.hpp"

#include "attention/registry.hpp"

namespace cosda {
COSDA_DEFINE_VARIANT(cony_re_cont, CoNyReCont)
}  // namespace cosda
