#include "attention/co_re.hpp"

#include "attention/registry.hpp"

namespace cosda {
COSDA_DEFINE_VARIANT(co_re, CoRe)
}  // namespace cosda
