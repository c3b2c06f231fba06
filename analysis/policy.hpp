// Turns a run's (counting, precision) into an execution policy (attention/exec.hpp) and calls a
// generic lambda with it: with_policy(Counting::kTally, Precision::kFloat, [&]<class E>() {...})
// runs E = Tally<float>; kExact runs Exact whatever the precision (Counted scalars are double).
#pragma once

#include "analysis/measure.hpp"
#include "attention/exec.hpp"

namespace cosda {

template <class F>
decltype(auto) with_policy(Counting counting, Precision precision, F&& f) {
  if (counting == Counting::kExact) return f.template operator()<Exact>();
  if (precision == Precision::kFloat) return f.template operator()<Tally<float>>();
  return f.template operator()<Tally<double>>();
}

// f.template operator()<E>() with E = Plain<float> or Plain<double>: no counting, no memory record.
template <class F>
decltype(auto) with_plain(Precision precision, F&& f) {
  if (precision == Precision::kFloat) return f.template operator()<Plain<float>>();
  return f.template operator()<Plain<double>>();
}

}  // namespace cosda
