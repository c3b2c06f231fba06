#include "attention/ny.hpp"

#include "attention/registry.hpp"

namespace cosda {
COSDA_DEFINE_VARIANT(ny, Ny)
}  // namespace cosda
