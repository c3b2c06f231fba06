// Head-batched kernels (attention/ops_heads.hpp, attention/co_si_heads.hpp): the batched ops
// count what they execute and what the per-head products they replace count, and one object
// for h heads computes and counts what h single-head objects do.
#include <cmath>
#include <type_traits>

#include "attention/co_si_heads.hpp"
#include "attention/multi_head.hpp"
#include "tests/test_util.hpp"

namespace cosda::test {
namespace {

double value_of(double x) { return x; }
double value_of(float x) { return double(x); }
double value_of(const Counted& x) { return x.value(); }

template <class S>
Mat<S> filled(std::int64_t r, std::int64_t c, std::uint64_t seed, double scale = 0.5) {
  const MatD x = random_stream(r, c, seed, scale);
  Mat<S> m(r, c);
  for (std::int64_t i = 0; i < r; ++i)
    for (std::int64_t j = 0; j < c; ++j) m(i, j) = S(x(i, j));
  return m;
}

// h heads of dh features over n tokens: q 1 x d, K and V d x n (a token per column).
struct HeadShape {
  std::int64_t h, dh, n;
};

// The last: rows longer than vector_matrix takes (n = 450) and, in double, a head's V larger
// than matrix_vector takes (300 x 450), both left to Eigen.
const HeadShape kOpShapes[] = {{1, 1, 1}, {1, 5, 7},   {2, 1, 7},    {3, 5, 1},
                               {3, 5, 7}, {16, 12, 9}, {2, 300, 450}};

TEST(HeadsSeam, EveryBatchedOpTalliesWhatItExecutes) {
  for (const HeadShape s : kOpShapes) {
    const std::int64_t d = s.h * s.dh;
    expect_same_count(
        [&](auto e) {
          using E = decltype(e);
          using S = typename E::Scalar;
          const Mat<S> q = filled<S>(1, d, 1), k = filled<S>(d, s.n, 2);
          Mat<S> a(s.h, s.n), out(1, d), sums(1, s.h);
          ops::heads_gemm_nn<E>(q, k, a);
          ops::heads_gemm_nt<E>(a, k, out);
          ops::heads_exp_scores<E>(q, k, a, sums.data(), ops::Shift<S>{});
          ops::heads_exp_scores<E>(q, k, a, sums.data(), ops::Shift<S>{true, S(0.5)});
        },
        "heads_gemm_nn, heads_gemm_nt, heads_exp_scores h" + std::to_string(s.h) + " dh" +
            std::to_string(s.dh) + " n" + std::to_string(s.n));
  }
}

// Each batched op computes and counts the per-head ops it stands for: head i's gemm_nn
// (q_i K_i) and gemm_nt (a_i V_i^T) on its slices, and for the scores gemm_nn, exp_inplace
// and sum.
template <class E>
void expect_batched_ops_equal_per_head(const HeadShape& s, bool shifted, double tol) {
  using S = typename E::Scalar;
  const std::int64_t d = s.h * s.dh;
  // q scaled by 1/sqrt(dh) as the kernels scale it: scores of order one at every dh.
  const Mat<S> q = filled<S>(1, d, 3, 0.5 / std::sqrt(double(s.dh)));
  const Mat<S> k = filled<S>(d, s.n, 4), v = filled<S>(d, s.n, 5);
  const ops::Shift<S> shift{shifted, S(0.25)};
  Mat<S> a(s.h, s.n), e(s.h, s.n), sums(1, s.h), out(1, d);
  Mat<S> a_i(1, s.n), e_i(1, s.n), out_i(1, s.dh);
  const OpCounts c0 = thread_counts();
  ops::heads_gemm_nn<E>(q, k, a);
  ops::heads_gemm_nt<E>(a, v, out);
  const OpCounts c1 = thread_counts();
  ops::heads_exp_scores<E>(q, k, e, sums.data(), shift);
  const OpCounts products = c1 - c0, scores = thread_counts() - c1;
  OpCounts per_head_products, per_head_scores;
  for (std::int64_t i = 0; i < s.h; ++i) {
    const OpCounts c2 = thread_counts();
    ops::gemm_nn<E>(q.middleCols(i * s.dh, s.dh), k.middleRows(i * s.dh, s.dh), a_i);
    ops::gemm_nt<E>(a.row(i), v.middleRows(i * s.dh, s.dh), out_i);
    const OpCounts c3 = thread_counts();
    ops::gemm_nn<E>(q.middleCols(i * s.dh, s.dh), k.middleRows(i * s.dh, s.dh), e_i);
    ops::exp_inplace<E>(e_i.data(), s.n, shift);
    const S sum_i = ops::sum<E>(e_i.data(), s.n);
    per_head_products += c3 - c2;
    per_head_scores += thread_counts() - c3;
    EXPECT_NEAR(value_of(sums(0, i)), value_of(sum_i), tol * double(s.n)) << "head " << i;
    for (std::int64_t t = 0; t < s.n; ++t) {
      EXPECT_NEAR(value_of(a(i, t)), value_of(a_i(0, t)), tol) << "head " << i << " token " << t;
      EXPECT_NEAR(value_of(e(i, t)), value_of(e_i(0, t)), tol) << "head " << i << " token " << t;
    }
    for (std::int64_t j = 0; j < s.dh; ++j)
      EXPECT_NEAR(value_of(out(0, i * s.dh + j)), value_of(out_i(0, j)), tol * double(s.n))
          << "head " << i << " feature " << j;
  }
  EXPECT_EQ(products, per_head_products)
      << describe(products) << " vs " << describe(per_head_products);
  EXPECT_EQ(scores, per_head_scores) << describe(scores) << " vs " << describe(per_head_scores);
}

TEST(HeadsSeam, BatchedOpsEqualTheirPerHeadProducts) {
  for (const HeadShape s : kOpShapes) {
    SCOPED_TRACE("h " + std::to_string(s.h) + " dh " + std::to_string(s.dh) + " n " +
                 std::to_string(s.n));
    for (bool shifted : {false, true}) {
      expect_batched_ops_equal_per_head<Tally<double>>(s, shifted, 1e-13);
      expect_batched_ops_equal_per_head<Tally<float>>(s, shifted, 1e-5);
      expect_batched_ops_equal_per_head<Exact>(s, shifted, 1e-13);
    }
  }
}

// A co_si stream of h heads: one CoSiHeads object against h CoSi objects of width d / h fed
// their slices, step by step over many passes of the rings. Outputs agree to tol relative to
// the largest output, and every step's counts are h times one head's (the same for every head).
template <class E>
void expect_heads_equal_per_head(std::int64_t n, std::int64_t d, std::int64_t h, double tol,
                                 bool shifted = false) {
  using S = typename E::Scalar;
  Config c{.n = n, .d = d};
  if (shifted) c.exp_shift = 0.75;
  auto batched = make_co_si_heads<E>(c, h);
  Config hc = c;
  hc.d = d / h;
  std::vector<std::unique_ptr<Attention<E>>> heads;
  for (std::int64_t i = 0; i < h; ++i) heads.push_back(make_variant<E>("co_si", hc));
  const std::int64_t steps = std::is_same_v<S, Counted> ? 2 * n + 3 : 6 * n + 5;
  const Mat<S> x = filled<S>(steps, 3 * d, 6);
  std::int64_t compared = 0;
  for (std::int64_t t = 0; t < steps; ++t) {
    const S* q = &x(t, 0);
    const OpCounts c0 = thread_counts();
    const bool ready = batched->step(q, q + d, q + 2 * d);
    const OpCounts all = thread_counts() - c0;
    OpCounts one;
    for (std::int64_t i = 0; i < h; ++i) {
      const S* qi = q + i * hc.d;
      const OpCounts c1 = thread_counts();
      ASSERT_EQ(heads[i]->step(qi, qi + d, qi + 2 * d), ready);
      const OpCounts head = thread_counts() - c1;
      if (i == 0) one = head;
      ASSERT_EQ(head, one) << "head " << i << " step " << t;
    }
    OpCounts h_times;
    for (std::int64_t i = 0; i < h; ++i) h_times += one;
    ASSERT_EQ(all, h_times) << "step " << t << ": " << describe(all) << " vs " << describe(one);
    if (!ready) continue;
    const MatCRef<S> out = batched->output();
    ASSERT_EQ(out.rows(), 1);
    ASSERT_EQ(out.cols(), d);
    double diff = 0, scale = 0;
    for (std::int64_t i = 0; i < h; ++i)
      for (std::int64_t j = 0; j < hc.d; ++j) {
        const double b = value_of(out(0, i * hc.d + j)), p = value_of(heads[i]->output()(0, j));
        diff = std::max(diff, std::abs(b - p)), scale = std::max(scale, std::abs(p));
      }
    EXPECT_LE(diff, tol * scale) << "step " << t;
    ++compared;
  }
  EXPECT_EQ(compared, steps - n + 1);
}

struct StreamShape {
  std::int64_t n, d, h;
};
const StreamShape kStreams[] = {{37, 48, 1},  {37, 48, 2}, {37, 48, 3},
                                {37, 48, 16}, {5, 32, 16}, {120, 192, 16}};

TEST(CoSiHeads, EqualsHeadsRunSeparatelyInDouble) {
  for (const StreamShape s : kStreams) {
    SCOPED_TRACE("n " + std::to_string(s.n) + " d " + std::to_string(s.d) + " h " +
                 std::to_string(s.h));
    expect_heads_equal_per_head<Tally<double>>(s.n, s.d, s.h, 1e-12);
    expect_heads_equal_per_head<Tally<double>>(s.n, s.d, s.h, 1e-12, true);
  }
}

TEST(CoSiHeads, EqualsHeadsRunSeparatelyInFloat) {
  for (const StreamShape s : kStreams) {
    SCOPED_TRACE("n " + std::to_string(s.n) + " d " + std::to_string(s.d) + " h " +
                 std::to_string(s.h));
    expect_heads_equal_per_head<Tally<float>>(s.n, s.d, s.h, 1e-5);
    expect_heads_equal_per_head<Tally<float>>(s.n, s.d, s.h, 1e-5, true);
  }
}

// Scalar-level counting through the batched object: every executed operation, h times one
// head's, on shorter streams (Counted is slow).
TEST(CoSiHeads, ScalarLevelCountsAreHTimesOneHead) {
  for (const StreamShape s : {StreamShape{9, 12, 1}, StreamShape{9, 12, 4}, StreamShape{7, 32, 16}})
    expect_heads_equal_per_head<Exact>(s.n, s.d, s.h, 1e-12);
  expect_heads_equal_per_head<Exact>(9, 12, 3, 1e-12, true);
}

// The timed build steps co_si's heads in one object; counting policies, one head and the other
// variants keep one object per head.
TEST(CoSiHeads, MultiHeadBatchesOnlyThePlainCoSiHeads) {
  const Config c{.n = 8, .d = 12, .m = 2};
  EXPECT_TRUE(MultiHead<Plain<float>>("co_si", c, 4).batched());
  EXPECT_TRUE(MultiHead<Plain<double>>("co_si", c, 4).batched());
  EXPECT_FALSE(MultiHead<Plain<double>>("co_si", c, 1).batched());
  EXPECT_FALSE(MultiHead<Tally<double>>("co_si", c, 4).batched());
  EXPECT_FALSE(MultiHead<Exact>("co_si", c, 4).batched());
  EXPECT_FALSE(MultiHead<Plain<double>>("co_re", c, 4).batched());
  EXPECT_FALSE(MultiHead<Plain<double>>("co_si", c, 4, 2).batched());
}

}  // namespace
}  // namespace cosda::test
