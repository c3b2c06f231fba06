// The config fuzzer (sweeps/fuzz/run.sh) links the config parser without the kernels: the
// registry's descriptions point at each variant's exact forms (attention/variants/<id>.cpp), which
// parsing a config never evaluates. These stand in for them and stop the run if reached.
#include <cstdlib>

#include "attention/counting/closed_form.hpp"
#include "attention/registry.hpp"

namespace cosda {
#define COSDA_FORMS_UNUSED(id, Class) \
  const exact::Forms& closed_forms_##id() { std::abort(); }
COSDA_VARIANTS(COSDA_FORMS_UNUSED)
#undef COSDA_FORMS_UNUSED
}  // namespace cosda
