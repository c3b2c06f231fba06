// fit_loglog(): a cost's local growth exponent from executed counts, for Table I's orders.
// (The integer-coefficient fits of the exact forms are tests/fit_form.hpp.)
#pragma once

#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <vector>

namespace cosda::fit {

// The slope of the least squares of log y on log x (x, y > 0, two or more distinct x). No FMA
// contraction, never inlined: under -march=native the slope's last bits would depend on the caller
// (a constant cost fitted -5e-16, printed -0.000).
#if defined(__GNUC__) && !defined(__clang__)
[[gnu::noinline, gnu::optimize("fp-contract=off")]]
#endif
inline double
fit_loglog(const std::vector<double>& x, const std::vector<double>& y) {
  if (x.size() != y.size() || x.size() < 2)
    throw std::invalid_argument("fit_loglog: needs two or more (x, y) pairs");
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  const double k = double(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (x[i] <= 0 || y[i] <= 0) throw std::invalid_argument("fit_loglog: needs x, y > 0");
    const double lx = std::log(x[i]), ly = std::log(y[i]);
    sx += lx;
    sy += ly;
    sxx += lx * lx;
    sxy += lx * ly;
  }
  const double den = k * sxx - sx * sx;
  if (den == 0) throw std::invalid_argument("fit_loglog: needs two distinct x");
  return (k * sxy - sx * sy) / den;
}

}  // namespace cosda::fit
