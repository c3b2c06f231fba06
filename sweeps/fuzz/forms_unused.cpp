// The config fuzzer links the parser without the kernels: these stand in for the variants' exact
// forms (attention/variants/<id>.cpp), which parsing never evaluates, and abort if reached.
#include <cstdlib>

#include "attention/counting/closed_form.hpp"
#include "attention/registry.hpp"

namespace cosda {
#define COSDA_FORMS_UNUSED(id, Class) \
  const exact::Forms& closed_forms_##id() { std::abort(); }
COSDA_VARIANTS(COSDA_FORMS_UNUSED)
#undef COSDA_FORMS_UNUSED
}  // namespace cosda
