// Helpers of the head-batching tests (tests/heads_seam_test.cpp, tests/heads_test.cpp): values
// of every scalar as double, and seeded matrices of any scalar.
#pragma once

#include "attention/counting/counted.hpp"
#include "tests/test_util.hpp"

namespace cosda::test {

inline double value_of(double x) { return x; }
inline double value_of(float x) { return double(x); }
inline double value_of(const Counted& x) { return x.value(); }

template <class S>
Mat<S> filled(std::int64_t r, std::int64_t c, std::uint64_t seed, double scale = 0.5) {
  const MatD x = random_stream(r, c, seed, scale);
  Mat<S> m(r, c);
  for (std::int64_t i = 0; i < r; ++i)
    for (std::int64_t j = 0; j < c; ++j) m(i, j) = S(x(i, j));
  return m;
}

}  // namespace cosda::test
