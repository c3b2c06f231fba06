// The single-output step's fused seam ops (attention/ops/single.hpp) and their kernels
// (attention/kernels/scores.hpp): each op counts what it executes, and computes and counts what
// the chain of ops it replaces computes and counts, on every kernel path it takes.
#include <cmath>
#include <string>

#include "attention/ops/single.hpp"
#include "tests/heads_util.hpp"

namespace cosda::test {
namespace {

// n tokens of d features. Paths of the timed build: rows of scores shorter than, equal to and
// longer than a packet (exp_matrix_vector's tail and whole packets), K by column in and out of
// vector_matrix (n of at most 16 packets), K by row beyond matrix_vector's 1 MiB, and V by
// row in and out of vector_matrix.
struct SingleShape {
  std::int64_t n, d;
};
const SingleShape kShapes[] = {{1, 1},  {1, 5},   {3, 5},    {8, 8},    {7, 12},
                               {16, 3}, {37, 20}, {120, 12}, {300, 40}, {400, 400}};

std::string name_of(const SingleShape& s, bool k_by_column, bool v_by_column, bool shifted) {
  return "n " + std::to_string(s.n) + " d " + std::to_string(s.d) + (k_by_column ? " K col" : "") +
         (v_by_column ? " V col" : "") + (shifted ? " shifted" : "");
}

TEST(SingleSeam, FusedOpsTallyWhatTheyExecute) {
  for (const SingleShape s : kShapes)
    for (bool by_column : {false, true})
      for (bool shifted : {false, true})
        expect_same_count(
            [&](auto e) {
              using E = decltype(e);
              using S = typename E::Scalar;
              const Mat<S> q = filled<S>(1, s.d, 1, 0.5 / std::sqrt(double(s.d)));
              const Mat<S> k = by_column ? filled<S>(s.d, s.n, 2) : filled<S>(s.n, s.d, 2);
              Mat<S> a(1, s.n), out(1, s.d);
              const S sum = ops::exp_scores<E>(q, k, by_column, a, ops::Shift<S>{shifted, S(0.5)});
              ops::weighted_average<E>(a, sum, k, by_column, out);
            },
            "exp_scores, weighted_average " + name_of(s, by_column, by_column, shifted));
}

// Each fused op against the chain it replaces on the same operands: q K^T (gemm_nt, or
// gemm_nn by column), exp_inplace and sum; reciprocal, a V (gemm_nn, or gemm_nt by column)
// and scale. Outputs within tol, counts equal.
template <class E>
void expect_fused_equal_chain(const SingleShape& s, bool k_by_column, bool v_by_column,
                              bool shifted, double tol) {
  using S = typename E::Scalar;
  const Mat<S> q = filled<S>(1, s.d, 3, 0.5 / std::sqrt(double(s.d)));
  const Mat<S> k = k_by_column ? filled<S>(s.d, s.n, 4) : filled<S>(s.n, s.d, 4);
  const Mat<S> v = v_by_column ? filled<S>(s.d, s.n, 5) : filled<S>(s.n, s.d, 5);
  const ops::Shift<S> shift{shifted, S(0.25)};
  Mat<S> a(1, s.n), out(1, s.d), a_1(1, s.n), out_1(1, s.d);
  const OpCounts c0 = thread_counts();
  const S sum = ops::exp_scores<E>(q, k, k_by_column, a, shift);
  const OpCounts c1 = thread_counts();
  ops::weighted_average<E>(a, sum, v, v_by_column, out);
  const OpCounts c2 = thread_counts();
  ops::gemm<E>(false, !k_by_column, q, k, a_1);
  ops::exp_inplace<E>(a_1.data(), s.n, shift);
  const S sum_1 = ops::sum<E>(a_1.data(), s.n);
  const OpCounts c3 = thread_counts();
  const S inv = ops::reciprocal<E>(sum_1);
  ops::gemm<E>(false, v_by_column, a_1, v, out_1);
  ops::scale<E>(out_1.data(), s.d, inv);
  const OpCounts c4 = thread_counts();
  EXPECT_EQ(c1 - c0, c3 - c2) << describe(c1 - c0) << " vs " << describe(c3 - c2);
  EXPECT_EQ(c2 - c1, c4 - c3) << describe(c2 - c1) << " vs " << describe(c4 - c3);
  EXPECT_NEAR(value_of(sum), value_of(sum_1), tol * double(s.n));
  for (std::int64_t t = 0; t < s.n; ++t)
    EXPECT_NEAR(value_of(a(0, t)), value_of(a_1(0, t)), tol) << "token " << t;
  for (std::int64_t j = 0; j < s.d; ++j)
    EXPECT_NEAR(value_of(out(0, j)), value_of(out_1(0, j)), tol) << "feature " << j;
}

TEST(SingleSeam, FusedOpsEqualTheChainTheyReplace) {
  for (const SingleShape s : kShapes)
    for (bool k_by_column : {false, true})
      for (bool v_by_column : {false, true})
        for (bool shifted : {false, true}) {
          SCOPED_TRACE(name_of(s, k_by_column, v_by_column, shifted));
          expect_fused_equal_chain<Tally<double>>(s, k_by_column, v_by_column, shifted, 1e-13);
          expect_fused_equal_chain<Tally<float>>(s, k_by_column, v_by_column, shifted, 1e-5);
          expect_fused_equal_chain<Exact>(s, k_by_column, v_by_column, shifted, 1e-13);
        }
}

// kernels::exp_sum and kernels::exp_matrix_vector equal plain loops at every length up to
// three packets and three (whole, half and quarter packets, single elements), on rows of B
// starting off a packet boundary and ldb apart with a gap, and write nothing beyond y.
template <class T>
void expect_score_kernels(double tol) {
  constexpr std::int64_t W = Eigen::internal::packet_traits<T>::size;
  for (std::int64_t n = 1; n <= 3 * W + 3; ++n)
    for (const std::int64_t k : {std::int64_t(1), std::int64_t(7), W + 3})
      for (bool shifted : {false, true}) {
        const std::string what = "n = " + std::to_string(n) + ", k = " + std::to_string(k);
        const std::int64_t off = n % 3 + 1, ldb = k + off + 2;
        const T c = shifted ? T(0.5) : T(0);
        const Mat<T> x = Mat<T>::Random(1, k), b = Mat<T>::Random(n, ldb);
        Mat<T> y = Mat<T>::Constant(1, n + 2, T(-7)), z = Mat<T>::Random(1, n + 2);
        z(0, 0) = z(0, n + 1) = T(-7);
        Mat<T> z_in = z;
        const T sum_y = kernels::exp_matrix_vector(k, x.data(), b.data() + off, ldb, n,
                                                   y.data() + 1, shifted, c);
        const T sum_z = kernels::exp_sum(z.data() + 1, n, shifted, c);
        for (Mat<T>* m : {&y, &z}) {
          EXPECT_EQ((*m)(0, 0), T(-7)) << "written before y: " << what;
          EXPECT_EQ((*m)(0, n + 1), T(-7)) << "written beyond y: " << what;
        }
        T want_y = 0, want_z = 0;
        for (std::int64_t j = 0; j < n; ++j) {
          T dot = 0;
          for (std::int64_t l = 0; l < k; ++l) dot += x(0, l) * b(j, off + l);
          const T ey = std::exp(dot - c), ez = std::exp(z_in(0, j + 1) - c);
          want_y += ey, want_z += ez;
          EXPECT_NEAR(y(0, j + 1), ey, tol * ey * T(k + 1)) << what << ", row " << j;
          EXPECT_NEAR(z(0, j + 1), ez, tol * ez) << what << ", element " << j;
        }
        EXPECT_NEAR(sum_y, want_y, tol * want_y * T(k + n)) << what;
        EXPECT_NEAR(sum_z, want_z, tol * want_z * T(n)) << what;
      }
}

TEST(ScoreKernels, EqualPlainLoopsAtEveryLength) {
  expect_score_kernels<float>(1e-5);
  expect_score_kernels<double>(1e-13);
}

}  // namespace
}  // namespace cosda::test
