// The seam ops of whole models (attention/ops/seam.hpp, used by models/encoder.hpp): they count
// what they execute, and GELU, ReLU and LayerNorm compute their definitions.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <string>
#include <vector>

#include "models/encoder.hpp"
#include "tests/test_util.hpp"

namespace cosda::test {
namespace {

// ---- seam ops ----------------------------------------------------------------------------

TEST(EncoderSeam, NewOpsTallyWhatTheyExecute) {
  for (std::int64_t n : {1, 2, 7}) {
    auto vec = [&](auto e, double start) {
      using S = typename decltype(e)::Scalar;
      std::vector<S> v;
      for (std::int64_t i = 0; i < n; ++i) v.push_back(S(start + 0.37 * double(i) - 1.0));
      return v;
    };
    const std::string sz = " n=" + std::to_string(n);
    expect_same_count(
        [&](auto e) {
          using E = decltype(e);
          using S = typename E::Scalar;
          auto x = vec(e, 0.2), w = vec(e, 1.1);
          ops::offset<E>(x.data(), n, S(0.5), +1);
          ops::offset<E>(x.data(), n, S(0.25), -1);
          ops::multiply<E>(w.data(), x.data(), n);
        },
        "offset, multiply" + sz);
    expect_same_count(
        [&](auto e) {
          using E = decltype(e);
          auto x = vec(e, -0.3);
          ops::relu_inplace<E>(x.data(), n);
        },
        "relu" + sz);
    expect_same_count(
        [&](auto e) {
          using E = decltype(e);
          auto x = vec(e, -2.0);
          ops::gelu_inplace<E>(x.data(), n);
        },
        "gelu" + sz);
  }
  expect_same_count(
      [&](auto e) {
        using E = decltype(e);
        using S = typename E::Scalar;
        (void)ops::sqrt_of<E>(ops::plus<E>(ops::product<E>(S(2.0), S(3.0)), S(1.0)));
      },
      "sqrt_of, product, plus");
}

TEST(EncoderSeam, GeluAndReluValues) {
  std::vector<double> xs;
  for (double x = -9.0; x <= 9.0; x += 0.25) xs.push_back(x);
  xs.push_back(-60.0);
  xs.push_back(60.0);
  std::vector<double> g = xs, r = xs;
  ops::gelu_inplace<Plain<double>>(g.data(), std::int64_t(g.size()));
  ops::relu_inplace<Plain<double>>(r.data(), std::int64_t(r.size()));
  std::vector<Counted> gc;
  for (double x : xs) gc.push_back(Counted(x));
  ops::gelu_inplace<Exact>(gc.data(), std::int64_t(gc.size()));
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const double x = xs[i];
    const double want =
        0.5 * x * (1.0 + std::tanh(std::sqrt(2.0 / std::numbers::pi) * (x + 0.044715 * x * x * x)));
    EXPECT_NEAR(g[i], want, 1e-12 * std::max(1.0, std::abs(want))) << "gelu at " << x;
    EXPECT_DOUBLE_EQ(gc[i].value(), g[i]) << "Exact gelu at " << x;
    EXPECT_EQ(r[i], std::max(x, 0.0)) << "relu at " << x;
  }
}

TEST(EncoderSeam, LayerNormMatchesDefinition) {
  const std::int64_t d = 7;
  NormWeights w;
  for (std::int64_t i = 0; i < d; ++i) {
    w.gamma.push_back(1.0 + 0.1 * double(i));
    w.beta.push_back(-0.05 * double(i));
  }
  MatD x = random_stream(3, d, 5, 2.0);
  Mat<double> y = x;
  encoder_detail::LayerNorm<Plain<double>>(w).apply(y);
  for (std::int64_t r = 0; r < 3; ++r) {
    const double mean = x.row(r).mean();
    const double var = (x.row(r).array() - mean).square().mean();
    for (std::int64_t j = 0; j < d; ++j)
      EXPECT_NEAR(y(r, j), (x(r, j) - mean) / std::sqrt(var + 1e-5) * w.gamma[j] + w.beta[j],
                  1e-12);
  }
}

}  // namespace
}  // namespace cosda::test
