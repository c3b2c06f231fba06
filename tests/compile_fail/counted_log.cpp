// Must not compile: Counted has no log() and no conversion to double, so the call cannot
// silently run on a plain double outside the count. With -DCOSDA_CONTROL it uses exp(),
// which Counted does overload, and must compile (so the failure is the missing overload).
#include <cmath>

#include "attention/counting/counted.hpp"

cosda::Counted kernel(cosda::Counted x) {
#ifdef COSDA_CONTROL
  return exp(x);
#else
  using std::log;
  return log(x);
#endif
}
