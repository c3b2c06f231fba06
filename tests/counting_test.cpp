// Executed counts: the fast path (Tally) equals scalar-level counting (Exact, Counted
// scalars through the same kernels) bucket by bucket, per op and per variant, and counting
// does not change what is computed.
#include <cmath>
#include <string>
#include <type_traits>

#include "analysis/measure.hpp"
#include "models/multi_head.hpp"
#include "tests/test_util.hpp"

namespace cosda::test {
namespace {

static_assert(!std::is_convertible_v<Counted, double>, "no implicit way out of the count");
static_assert(!std::is_convertible_v<double, Counted>, "constants are spelled S(x)");

TEST(Counted, CountsEachOperationInItsBucket) {
  const OpCounts before = thread_counts();
  Counted a(2.0), b(3.0);
  Counted c = a * b + a - b / a;
  c = exp(c) + sqrt(b);
  c = -c;
  const bool lt = a < b;
  const OpCounts got = thread_counts() - before;
  EXPECT_TRUE(lt);
  EXPECT_EQ(got, (OpCounts{.mul = 1, .add = 4, .div = 1, .exp = 1, .other = 2})) << describe(got);
  EXPECT_DOUBLE_EQ(c.value(), -(std::exp(2.0 * 3.0 + 2.0 - 1.5) + std::sqrt(3.0)));
}

TEST(Seam, EveryOpTalliesWhatItExecutes) {
  for (std::int64_t r : {1, 3}) {
    for (std::int64_t c : {1, 4}) {
      for (std::int64_t k : {1, 5}) {
        const std::string shape =
            std::to_string(r) + "x" + std::to_string(c) + "x" + std::to_string(k);
        auto mats = [&](auto e) {
          using S = typename decltype(e)::Scalar;
          return std::tuple{Mat<S>(Mat<S>::Constant(r, k, S(0.5))),
                            Mat<S>(Mat<S>::Constant(c, k, S(0.25))),
                            Mat<S>(Mat<S>::Constant(k, c, S(0.25))), Mat<S>(r, c)};
        };
        expect_same_count(
            [&](auto e) {
              using E = decltype(e);
              auto [a, b, bt, out] = mats(e);
              ops::gemm_nt<E>(a, b, out);
            },
            "gemm_nt " + shape);
        expect_same_count(
            [&](auto e) {
              using E = decltype(e);
              auto [a, b, bt, out] = mats(e);
              ops::gemm_nn<E>(a, bt, out);
            },
            "gemm_nn " + shape);
        expect_same_count(
            [&](auto e) {
              using E = decltype(e);
              using S = typename E::Scalar;
              auto [a, b, bt, out] = mats(e);
              std::vector<S> s(static_cast<std::size_t>(r));
              ops::exp_inplace<E>(a);
              ops::row_sums<E>(a, s.data());
              ops::scale_rows<E>(a, s.data());
              Mat<S> scaled(r, k);
              ops::scale_rows_into<E>(a, s.data(), scaled);
              ops::scale_into<E>(a, S(0.5), scaled);
              ops::exp_row_sums<E>(scaled, s.data());
              ops::scale<E>(a, S(2));
              ops::divide<E>(a.data(), a.size(), S(3));
              ops::axpy<E>(S(2), b.data(), a.data(), std::min(a.size(), b.size()), -1);
              ops::add<E>(b.data(), a.data(), std::min(a.size(), b.size()), +1);
              (void)ops::dot<E>(a.data(), a.data(), a.size());
              (void)ops::reciprocal<E>(S(4));
              (void)ops::max_value<E>(b.data(), b.size());
            },
            "elementwise " + shape);
        for (bool shifted : {false, true})
          expect_same_count(
              [&](auto e) {
                using E = decltype(e);
                using S = typename E::Scalar;
                auto [x, b, bt, out] = mats(e);  // x: r x k rows, y: r x c
                const std::vector<S> k_old(std::size_t(k), S(0.3)), k_new(std::size_t(k), S(-0.2));
                const std::vector<S> v_old(std::size_t(c), S(1.5)), v_new(std::size_t(c), S(2));
                const auto rows = std::size_t(r);
                std::vector<S> e_old(rows), e_new(rows), sums(rows, S(9));
                out.setConstant(S(1));
                ops::retro_update<E>(x, k_old.data(), k_new.data(), v_old.data(), v_new.data(),
                                     e_old.data(), e_new.data(), sums.data(), out,
                                     ops::Shift<S>{shifted, S(1)});
              },
              std::string("retro_update ") + (shifted ? "shifted " : "") + shape);
        expect_same_count(
            [&](auto e) {
              using E = decltype(e);
              using S = typename E::Scalar;
              auto [x, b, bt, out] = mats(e);  // out: r x c, r weights per token
              const std::vector<S> a_old(std::size_t(r), S(0.3)), a_new(std::size_t(r), S(0.7));
              const std::vector<S> v_old(std::size_t(c), S(1.5)), v_new(std::size_t(c), S(2));
              std::vector<S> sums(std::size_t(r), S(9));
              out.setConstant(S(1));
              ops::slide_sums<E>(a_old.data(), a_new.data(), v_old.data(), v_new.data(),
                                 sums.data(), out);
            },
            "slide_sums " + shape);
        expect_same_count(
            [&](auto e) {
              using E = decltype(e);
              using S = typename E::Scalar;
              auto [x, b, bt, out] = mats(e);
              const Mat<S> xt = x.transpose(), k_old = Mat<S>::Constant(k, 1, S(0.3));
              const Mat<S> v_old = Mat<S>::Constant(c, 1, S(1.5));
              Mat<S> yt = Mat<S>::Constant(c, r, S(1)), prod(r, c), scaled(r, c);
              const auto rows = std::size_t(r);
              std::vector<S> e_old(rows), e_new(rows), sums(rows, S(9));
              ops::gemm_tn<E>(xt, bt, prod);
              ops::retro_update_cols<E>(xt, k_old, k_old, v_old, v_old, e_old.data(), e_new.data(),
                                        sums.data(), yt, ops::Shift<S>{});
              ops::scale_rows_into<E>(yt, sums.data(), scaled, true);
            },
            "transposed forms " + shape);
        expect_same_count(
            [&](auto e) {
              using E = decltype(e);
              using S = typename E::Scalar;
              Mat<S> x = Mat<S>::Constant(r, r, S(0.5)), out(r, r);
              ops::shifted_negation<E>(x, S(7), out);
              (void)ops::max_col_sum<E>(x);
            },
            "square " + shape);
      }
    }
  }
}

// The ops for states stored transposed compute what their row forms compute, on shapes that
// are not multiples of the vector width or of scale_rows_into's 16 x 16 tiles (src transposed),
// with fewer and more than 16 columns (its two loops).
class TransposedForms : public ::testing::TestWithParam<std::int64_t> {};
TEST_P(TransposedForms, MatchTheRowForms) {
  using E = Plain<double>;
  const std::int64_t r = 37, d = 5, c = GetParam();
  const Mat<double> x = Mat<double>::Random(r, d), b = Mat<double>::Random(d, c);
  const Mat<double> xt = x.transpose(), k_old = Mat<double>::Random(d, 1);
  const Mat<double> k_new = Mat<double>::Random(d, 1), v_old = Mat<double>::Random(c, 1);
  const Mat<double> v_new = Mat<double>::Random(c, 1);
  Mat<double> prod_t(r, c), prod(r, c);
  ops::gemm_tn<E>(xt, b, prod_t);
  ops::gemm_nn<E>(x, b, prod);
  EXPECT_LT((prod_t - prod).cwiseAbs().maxCoeff(), 1e-12);

  Mat<double> y = Mat<double>::Random(r, c), yt = y.transpose();
  const auto rows = std::size_t(r);
  std::vector<double> sums(rows, 40.0), sums_t = sums;
  std::vector<double> eo(rows), en(rows), eo_t(rows), en_t(rows);
  const ops::Shift<double> shift{true, 0.5};
  ops::retro_update<E>(x, k_old.data(), k_new.data(), v_old.data(), v_new.data(), eo.data(),
                       en.data(), sums.data(), y, shift);
  ops::retro_update_cols<E>(xt, k_old, k_new, v_old, v_new, eo_t.data(), en_t.data(), sums_t.data(),
                            yt, shift);
  for (std::size_t i = 0; i < sums.size(); ++i) {
    EXPECT_NEAR(eo_t[i], eo[i], 1e-12 * eo[i]) << i;
    EXPECT_NEAR(en_t[i], en[i], 1e-12 * en[i]) << i;
    EXPECT_NEAR(sums_t[i], sums[i], 1e-12 * sums[i]) << i;
  }
  EXPECT_LT((yt.transpose() - y).cwiseAbs().maxCoeff(), 1e-12);

  Mat<double> out_t(r, c), out(r, c);
  ops::scale_rows_into<E>(yt, sums.data(), out_t, true);
  ops::scale_rows_into<E>(y, sums.data(), out);
  EXPECT_LT((out_t - out).cwiseAbs().maxCoeff(), 1e-10);
  for (std::int64_t i = 0; i < r; ++i)
    EXPECT_NEAR(out(i, 0), y(i, 0) * sums[std::size_t(i)], 1e-10) << i;
}
INSTANTIATE_TEST_SUITE_P(Seam, TransposedForms, ::testing::Values(7, 19));

// The shallow product kernels (attention/kernels/shallow_gemm.hpp) compute A B on the shapes they
// take: wide and narrow, odd and even rows, columns with and without a tail past whole blocks or
// packets, depth 1 and kShallowMaxDepth, operands that are blocks of larger matrices (strides)
// and contiguous ones (the narrow kernel stores whole packets into later rows then), B or B^T
// (narrow); they decline the shapes they leave to Eigen and OpenBLAS.
template <class T>
void expect_shallow_product(std::int64_t r, std::int64_t c, std::int64_t k, bool strided,
                            bool trans_b, double tol) {
  const std::int64_t pad = strided ? 3 : 0, br = trans_b ? c : k, bc = trans_b ? k : c;
  const Mat<T> big_a = Mat<T>::Random(r + pad, k + pad), big_b = Mat<T>::Random(br + pad, bc + pad);
  const MatCRef<T> a = big_a.block(pad / 3, pad / 3, r, k),
                   b = big_b.block(pad / 3, pad / 3, br, bc);
  Mat<T> big_c = Mat<T>::Constant(r + pad, c + pad, T(-7));
  MatRef<T> out = big_c.block(pad / 3, pad / 3, r, c);
  const std::string shape = std::to_string(r) + " x " + std::to_string(c) + " x " +
                            std::to_string(k) + (strided ? " strided" : "") +
                            (trans_b ? " B^T" : "");
  ASSERT_TRUE(kernels::shallow_gemm(trans_b, r, c, k, a.data(), a.outerStride(), b.data(),
                                    b.outerStride(), out.data(), out.outerStride()))
      << shape;
  const Mat<T> want = trans_b ? Mat<T>(a * b.transpose()) : Mat<T>(a * b);
  const double scale = want.cwiseAbs().maxCoeff();
  EXPECT_LE((out - want).cwiseAbs().maxCoeff(), tol * scale) << shape;
  Mat<T> around = big_c;  // nothing outside C is written
  around.block(pad / 3, pad / 3, r, c).setConstant(T(-7));
  EXPECT_TRUE((around.array() == T(-7)).all()) << shape;
}

template <class T>
void expect_shallow_products(double tol) {
  constexpr std::int64_t W = Eigen::internal::packet_traits<T>::size;
  constexpr std::int64_t kMax = kernels::kShallowMaxDepth;
  const std::int64_t wide[][2] = {{kernels::kShallowMinOutput / (4 * W), 4 * W},
                                  {kernels::kShallowMinOutput / (8 * W) + 1, 8 * W},
                                  {1000, 1000},
                                  {613, 217},
                                  {1, 131072}};
  const std::int64_t narrow[][2] = {{kernels::kNarrowMinRows, 1},
                                    {120, 12 % W + 1},
                                    {5, W},
                                    {9, W + 1},
                                    {120, 2 * W},
                                    {77, 2 * W - 1}};
  for (std::int64_t k : {std::int64_t(1), std::int64_t(5), kMax}) {
    for (const auto& rc : wide) expect_shallow_product<T>(rc[0], rc[1], k, true, false, tol);
    for (const auto& rc : narrow)
      for (bool strided : {false, true})
        for (bool trans_b : {false, true})
          expect_shallow_product<T>(rc[0], rc[1], k, strided, trans_b, tol);
  }
}

TEST(ShallowProduct, EqualsTheProductOnEveryShapeItTakes) {
  expect_shallow_products<float>(1e-5);
  expect_shallow_products<double>(1e-13);
}

TEST(ShallowProduct, DeclinesWhatItLeavesToEigenAndOpenBlas) {
  constexpr std::int64_t W = Eigen::internal::packet_traits<float>::size;
  std::vector<float> a(1 << 20, 1.0f), b(1 << 20, 1.0f), c(1 << 20, 5.0f);
  const auto take = [&](std::int64_t r, std::int64_t cols, std::int64_t k, bool trans_b = false) {
    return kernels::shallow_gemm(trans_b, r, cols, k, a.data(), k, b.data(), trans_b ? k : cols,
                                 c.data(), cols);
  };
  const std::int64_t wide_rows = kernels::kShallowMinOutput / (4 * W);
  EXPECT_FALSE(take(wide_rows, 4 * W, kernels::kShallowMaxDepth + 1)) << "too deep";
  EXPECT_FALSE(take(120, W, kernels::kShallowMaxDepth + 1)) << "too deep";
  EXPECT_FALSE(take(wide_rows, 4 * W, 0)) << "no depth";
  EXPECT_FALSE(take(wide_rows - 1, 4 * W, 8)) << "wide, below kShallowMinOutput outputs";
  EXPECT_FALSE(take(4096, 2 * W + 1, 8)) << "between narrow and wide";
  EXPECT_FALSE(take(kernels::kNarrowMinRows - 1, W, 8)) << "narrow, too few rows";
  EXPECT_FALSE(take(wide_rows, 4 * W, 8, true)) << "wide with B^T";
  EXPECT_EQ(c[0], 5.0f) << "declined products write nothing";
  EXPECT_TRUE(take(wide_rows, 4 * W, 8));
  EXPECT_EQ(c[0], 8.0f);
  EXPECT_TRUE(take(kernels::kNarrowMinRows, W, 3));
  EXPECT_EQ(c[0], 3.0f);
}

// Through ops::gemm, products the shallow and vector-matrix kernels take count as any product.
TEST(Seam, ShallowProductTalliesWhatItExecutes) {
  expect_same_count(
      [](auto e) {
        using E = decltype(e);
        using S = typename E::Scalar;
        const Mat<S> a = Mat<S>::Constant(513, 8, S(0.5)), b = Mat<S>::Constant(8, 257, S(0.25));
        Mat<S> out(513, 257), narrow(120, 12), narrow_t(120, 4);
        ops::gemm_nn<E>(a, b, out);
        ops::gemm_nn<E>(a.topRows(120).leftCols(4), b.topLeftCorner(4, 12), narrow);
        ops::gemm_nt<E>(narrow, Mat<S>::Constant(4, 12, S(0.25)), narrow_t);
        Mat<S> row(1, 100);
        ops::gemm_nn<E>(a.topRows(1).leftCols(8), b.topLeftCorner(8, 100), row);
        ops::gemm_nt<E>(a.topRows(1), a.middleRows(1, 100), row);
      },
      "gemm_nn 513x257x8, 120x12x4, 1x100x8, gemm_nt 120x4x12, 1x100x8");
}

// The acceptance grid: small shapes with n mod m != 0, m = 1, m = n, several d, d > n, two
// heads.
std::vector<Point> fast_path_grid() {
  std::vector<Point> g;
  const std::int64_t shapes[][3] = {{4, 2, 2},  {7, 3, 1},  {7, 3, 7}, {10, 4, 3}, {11, 5, 4},
                                    {12, 1, 5}, {16, 6, 4}, {9, 2, 2}, {5, 8, 2}};
  for (const auto& id : variant_ids())
    for (const auto& s : shapes) {
      g.push_back({id, s[0], s[1], s[2], 1});
      if (s[1] % 2 == 0) g.push_back({id, s[0], s[1], s[2], 2});
    }
  return g;
}

class FastPath : public ::testing::TestWithParam<Point> {};

TEST_P(FastPath, TallyEqualsScalarLevelCountingBucketByBucket) {
  const Point& p = GetParam();
  const Cost exact = measure(p, Counting::kExact);
  const Cost tally = measure(p, Counting::kTally);
  EXPECT_EQ(exact.update_step, tally.update_step)
      << describe(exact.update_step) << " vs " << describe(tally.update_step);
  EXPECT_EQ(exact.plain_step, tally.plain_step)
      << describe(exact.plain_step) << " vs " << describe(tally.plain_step);
  EXPECT_EQ(exact.cycle_total, tally.cycle_total);
  EXPECT_EQ(exact.update_steps, tally.update_steps);
  EXPECT_EQ(exact.valley, tally.valley);
  EXPECT_EQ(exact.peak, tally.peak);
  EXPECT_GT(tally.cycle_total.flops(), 0);
  const VariantTraits& t = *find_variant(p.variant);
  if (t.landmarks == LandmarkKind::kContinual) {
    EXPECT_EQ(tally.update_steps, p.m) << "one landmark per segment, m per cycle";
    EXPECT_EQ(tally.cycle_steps, p.n);
  } else {
    EXPECT_EQ(tally.update_steps, 0);
  }
}

INSTANTIATE_TEST_SUITE_P(
    AllVariants, FastPath, ::testing::ValuesIn(fast_path_grid()), [](const auto& info) {
      const Point& p = info.param;
      return shape_name(p.variant, {p.n, p.d, p.m}) + "_h" + std::to_string(p.heads);
    });

// Counting executes the same algorithm: Counted values equal plain double values, and the
// counts do not depend on the token values.
TEST(Counting, ScalarLevelRunComputesTheSameOutputs) {
  for (const auto& id : variant_ids()) {
    const std::int64_t n = 10, d = 4, m = 3;
    Config c{.n = n, .d = d, .m = m};
    if (find_variant(id)->landmarks == LandmarkKind::kFixed)
      c.fixed_q = c.fixed_k = random_stream(m, d, 3);
    auto plain = make_variant<Plain<double>>(id, c);
    auto counted = make_variant<Exact>(id, c);
    const MatD x = random_stream(3 * n, d, 9);
    for (std::int64_t i = 0; i < x.rows(); ++i) {
      const Mat<double> xi = x.row(i);
      Mat<Counted> ci(1, d);
      for (std::int64_t j = 0; j < d; ++j) ci(0, j) = Counted(xi(0, j));
      const bool a = plain->step(xi.data(), xi.data(), xi.data());
      const bool b = counted->step(ci.data(), ci.data(), ci.data());
      ASSERT_EQ(a, b);
      if (!a) continue;
      const auto out = counted->output();
      for (std::int64_t r = 0; r < out.rows(); ++r)
        for (std::int64_t j = 0; j < out.cols(); ++j)
          EXPECT_NEAR(out(r, j).value(), plain->output()(r, j), 1e-12) << id << " step " << i;
    }
  }
}

// Steps of variants without landmark updates all cost the same; so do the plain steps of
// continual-landmark variants.
TEST(Counting, SteadyStateStepsCostTheSame) {
  for (const auto& id : variant_ids()) {
    const std::int64_t n = 10, d = 4, m = 3;
    Config c{.n = n, .d = d, .m = m};
    if (find_variant(id)->landmarks == LandmarkKind::kFixed)
      c.fixed_q = c.fixed_k = random_stream(m, d, 3);
    auto v = make_variant<Tally<double>>(id, c);
    const MatD x = random_stream(4 * n, d, 10);
    std::optional<OpCounts> plain;
    for (std::int64_t i = 0; i < x.rows(); ++i) {
      const Mat<double> xi = x.row(i);
      const OpCounts before = thread_counts();
      v->step(xi.data(), xi.data(), xi.data());
      const OpCounts got = thread_counts() - before;
      if (i < n || v->updated_landmarks()) continue;
      if (!plain) plain = got;
      EXPECT_EQ(*plain, got) << id << " step " << i;
    }
  }
}

}  // namespace
}  // namespace cosda::test
