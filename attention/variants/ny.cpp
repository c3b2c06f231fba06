#include "attention/variants/ny.hpp"

#include "attention/counting/closed_form.hpp"
#include "attention/registry.hpp"

namespace cosda {

// Exact forms: segment means, B_phi, Gamma_phi and its pseudo-inverse, Delta_phi V, two products.
const exact::Forms& closed_forms_ny() {
  using exact::Buckets, exact::f;
  static const exact::Forms forms{
      {f({{4, 1, 1, 1},
          {1, 1, 0, 2},
          {1, 0, 1, 2},
          {24, 0, 0, 3},
          {1, 1, 1},
          {1, 1, 0, 1},
          {1, 0, 1, 1},
          {8, 0, 0, 2}}),
       f({{4, 1, 1, 1},
          {1, 1, 0, 2},
          {1, 0, 1, 2},
          {24, 0, 0, 3},
          {1, 1, 1},
          {-1, 1, 0, 1},
          {-3, 0, 1, 1},
          {-5, 0, 0, 2},
          {-1, 1},
          {-3, 0, 0, 1}}),
       f({{2, 0, 1, 1}, {1, 1}, {2, 0, 0, 1}, {1}}), f({{2, 1, 0, 1}, {1, 0, 0, 2}}),
       f({{1, 0, 0, 1}, {-1}})},
      std::nullopt,
      f({{3, 1, 1}, {-3, 0, 1}}),
      {Poly{{1, 1, 1}, {1, 1, 0, 1}, {2, 0, 1, 1}, {2, 0, 1}},
       Poly{{1, 1, 0, 1}, {1, 0, 1, 1}, {5, 0, 0, 2}, {2, 0, 1}},
       Poly{{2, 1, 0, 1}, {1, 0, 0, 2}, {1, 0, 1, 1}, {1, 0, 1}, {1, 0, 0, 1}}},
      {},
      exact::heads_valley_only};  // peak measured: landmarks formed while the queries are live
  return forms;
}

COSDA_DEFINE_VARIANT(ny, Ny)
COSDA_DEFINE_HEADS(ny, Ny)
}  // namespace cosda
