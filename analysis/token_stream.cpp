#include "analysis/token_stream.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "analysis/numerics.hpp"
#include "analysis/policy.hpp"
#include "models/multi_head.hpp"

namespace cosda {
namespace {

template <class E>
std::vector<double> run_stream(const std::string& id, const Config& c, std::int64_t heads,
                               int layers, const Qkv& x) {
  using T = typename E::Scalar;
  MultiHead<E> mh(id, c, heads, layers);
  std::vector<double> out;
  Mat<T> q(1, c.d), k(1, c.d), v(1, c.d);
  for (std::int64_t t = 0; t < x.rows(); ++t) {
    q = x.q.row(t).cast<T>();
    k = x.k.row(t).cast<T>();
    v = x.v.row(t).cast<T>();
    if (!mh.step(q.data(), k.data(), v.data())) continue;
    const auto y = mh.output();
    for (std::int64_t r = 0; r < y.rows(); ++r)
      for (std::int64_t j = 0; j < y.cols(); ++j) {
        const double v = double(y(r, j));
        if (!std::isfinite(v))
          throw std::runtime_error(fmt::format(
              "{}: output is not finite at token {} (row {}, feature {}): exp() overflowed, or a "
              "running sum of exponentials cancelled to zero (there is no max-subtraction, as "
              "in the papers); scale the input down{}",
              id, t, r, j,
              c.exp_shift ? fmt::format(", or try another --exp-shift: with C = {}, every "
                                        "exp(score - C) may underflow to 0 (auto calibrates C "
                                        "on the tokens)",
                                        *c.exp_shift)
              : find_variant(id)->continual ? " or pass --exp-shift auto (the stabilised mode)"
                                            : ""));
        out.push_back(v);
      }
  }
  return out;
}

}  // namespace

std::vector<double> run_token_stream(const std::string& id, const Config& c, std::int64_t heads,
                                     int layers, const Qkv& x, Precision precision) {
  return with_plain(precision, [&]<class E>() { return run_stream<E>(id, c, heads, layers, x); });
}

}  // namespace cosda
