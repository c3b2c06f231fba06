#include "attention/cony_si_cont.hpp"

#include "attention/registry.hpp"

namespace cosda {
COSDA_DEFINE_VARIANT(cony_si_cont, CoNySiCont)
}  // namespace cosda
