// The random-feature family (attention/families/random_features.hpp): the drawing of the features,
// the estimator they give, and the continual variants against the variant of their family that
// re-runs over the window (the registry's recomputed_of), on long streams.
#include <cmath>

#include "models/multi_head.hpp"
#include "tests/test_util.hpp"

namespace cosda::test {
namespace {

double rel_error(const MatD& got, const MatD& want) {
  return (got - want).norm() / std::max(want.norm(), 1e-300);
}

std::vector<const VariantTraits*> family(bool continual) {
  std::vector<const VariantTraits*> out;
  for (const auto& v : kVariants)
    if (v.family == Family::kRandomFeatures && v.continual == continual) out.push_back(&v);
  return out;
}

TEST(RandomFeatures, TheFamilyIsInTheRegistry) {
  ASSERT_EQ(family(false).size(), 1u);
  ASSERT_EQ(family(true).size(), 2u);
  for (const VariantTraits* v : family(true)) {
    EXPECT_EQ(recomputed_of(*v), family(false)[0]) << v->id;
    EXPECT_EQ(v->landmarks, LandmarkKind::kRandomFeatures);
  }
}

TEST(RandomFeatures, DrawingIsAFunctionOfDMAndSeed) {
  for (const auto& [d, m] : {std::pair<std::int64_t, std::int64_t>{4, 3}, {5, 12}, {1, 3}}) {
    const MatD a = draw_random_features(d, m, 0x5eed), b = draw_random_features(d, m, 0x5eed);
    EXPECT_EQ(a, b);
    EXPECT_NE(a, MatD(draw_random_features(d, m, 0x5eee)));
    // Orthogonal within each block of d rows; the first rows do not depend on m.
    for (std::int64_t first = 0; first < m; first += d)
      for (std::int64_t i = first; i < std::min(m, first + d); ++i)
        for (std::int64_t j = first; j < i; ++j)
          EXPECT_NEAR(a.row(i).dot(a.row(j)), 0.0, 1e-10 * a.row(i).norm() * a.row(j).norm());
    const MatD more = draw_random_features(d, m + d, 0x5eed);
    EXPECT_EQ(MatD(more.topRows(std::min(m, d))), MatD(a.topRows(std::min(m, d))));
  }
}

// Rows are N(0, I_d): |w|^2 is chi-square with d degrees of freedom (mean d, variance 2d) and
// every coordinate has mean 0 and variance 1.
TEST(RandomFeatures, RowsAreStandardNormal) {
  const std::int64_t d = 6, m = 6000;
  const MatD w = draw_random_features(d, m, 7);
  const Eigen::VectorXd sq = w.rowwise().squaredNorm();
  EXPECT_NEAR(sq.mean(), double(d), 5 * std::sqrt(2.0 * d / m));
  const double var = (sq.array() - sq.mean()).square().mean();
  EXPECT_NEAR(var, 2.0 * d, 0.15 * 2.0 * d);
  for (std::int64_t j = 0; j < d; ++j) {
    EXPECT_NEAR(w.col(j).mean(), 0.0, 5 / std::sqrt(double(m)));
    EXPECT_NEAR(w.col(j).squaredNorm() / m, 1.0, 0.1);
  }
}

// E[phi(x) . phi(y)] = exp(x . y): the mean over many seeds of the estimate.
TEST(RandomFeatures, EstimatorIsUnbiased) {
  const std::int64_t d = 4, m = 8;
  const MatD xy = random_stream(2, d, 5);
  const Eigen::VectorXd x = xy.row(0), y = xy.row(1);
  double sum = 0, sum2 = 0;
  const int seeds = 4000;
  for (int s = 0; s < seeds; ++s) {
    const MatD w = draw_random_features(d, m, 1000 + s);
    const Eigen::VectorXd px = (w * x).array().exp() * std::exp(-0.5 * x.squaredNorm()),
                          py = (w * y).array().exp() * std::exp(-0.5 * y.squaredNorm());
    const double e = px.dot(py) / double(m);
    sum += e;
    sum2 += e * e;
  }
  const double mean = sum / seeds, sd = std::sqrt(sum2 / seeds - mean * mean);
  EXPECT_NEAR(mean, std::exp(x.dot(y)), 5 * sd / std::sqrt(double(seeds)));
}

// corf_si and corf_re equal rf over the same window at every step of a long stream, and
// corf_re's newest row is corf_si's output; m > n included.
TEST(RandomFeatures, ContinualVariantsEqualTheRecomputedOneEveryStep) {
  for (const Shape s : {Shape{8, 4, 3}, Shape{5, 6, 9}, Shape{1, 3, 2}, Shape{16, 12, 16}}) {
    const Config c{.n = s.n, .d = s.d, .m = s.m};
    const std::int64_t steps = 40 * s.n;
    const MatD q = random_stream(steps, s.d, 21), k = random_stream(steps, s.d, 22),
               v = random_stream(steps, s.d, 23);
    std::vector<std::unique_ptr<Attention<Plain<double>>>> runs;
    for (const VariantTraits* t : family(true))
      runs.push_back(make_variant<Plain<double>>(t->id, c));
    auto rf = make_variant<Plain<double>>(family(false)[0]->id, c);
    double worst = 0;
    for (std::int64_t i = 0; i < steps; ++i) {
      const Mat<double> qi = q.row(i), ki = k.row(i), vi = v.row(i);
      const bool ready = rf->step(qi.data(), ki.data(), vi.data());
      for (auto& r : runs) {
        ASSERT_EQ(r->step(qi.data(), ki.data(), vi.data()), ready);
        if (!ready) continue;
        const MatD want = rf->output(), got = r->output();
        worst = std::max(worst, rel_error(got, want.bottomRows(got.rows())));
      }
    }
    EXPECT_LT(worst, 1e-9) << shape_name("corf", s);
  }
}

// The stabilised mode subtracts a fixed C from every key exponent: the same outputs.
TEST(RandomFeatures, StabilisedModeGivesTheSameOutputs) {
  for (const VariantTraits* t : family(true)) {
    Config c{.n = 6, .d = 4, .m = 5};
    auto plain = make_variant<Plain<double>>(t->id, c);
    c.exp_shift = 30.0;
    auto shifted = make_variant<Plain<double>>(t->id, c);
    const MatD x = random_stream(30, 4, 31, 2.0);
    for (std::int64_t i = 0; i < x.rows(); ++i) {
      const Mat<double> xi = x.row(i);
      plain->step(xi.data(), xi.data(), xi.data());
      if (!shifted->step(xi.data(), xi.data(), xi.data())) continue;
      EXPECT_LT(rel_error(shifted->output(), plain->output()), 1e-12) << t->id << " step " << i;
    }
  }
}

}  // namespace
}  // namespace cosda::test
