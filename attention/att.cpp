#include "attention/att.hpp"

#include "attention/registry.hpp"

namespace cosda {
COSDA_DEFINE_VARIANT(att, Att)
}  // namespace cosda
