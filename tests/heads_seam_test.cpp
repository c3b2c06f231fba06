// The seam's head-batched ops (attention/ops/heads.hpp, attention/ops/heads_rf.hpp): each counts
// what it executes, and computes and counts what the per-head ops it stands for compute and count.
#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "attention/families/landmarks.hpp"
#include "attention/families/random_features.hpp"
#include "attention/families/window.hpp"
#include "attention/ops/heads.hpp"
#include "attention/ops/heads_landmarks.hpp"
#include "attention/ops/heads_rf.hpp"
#include "tests/heads_util.hpp"

namespace cosda::test {
namespace {

// h heads of dh features over n tokens: q 1 x d, K and V d x n (a token per column).
struct HeadShape {
  std::int64_t h, dh, n;
};

// The last: rows longer than vector_matrix takes (n = 450) and, in double, a head's V larger
// than matrix_vector takes (300 x 450), both left to Eigen.
const HeadShape kOpShapes[] = {{1, 1, 1}, {1, 5, 7},   {2, 1, 7},     {3, 5, 1},
                               {3, 5, 7}, {16, 12, 9}, {16, 12, 120}, {2, 300, 450}};

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
          // the random-feature ops: n features per head, the sums' rows dh wide
          const Mat<S> w = filled<S>(2, s.h * s.n, 11);
          Mat<S> sums_rf = Mat<S>::Constant(1, s.h * s.n, S(1)),
                 y_rf = filled<S>(s.h * s.n, s.dh, 12);
          ops::heads_slide_sums<E>(s.h, &w(0, 0), &w(1, 0), &q(0, 0), &q(0, 0), sums_rf.data(),
                                   y_rf);
          Mat<S> u = filled<S>(s.h, s.n, 13);
          for (bool shifted : {false, true})
            ops::heads_key_exp<E>(q, S(0.25), ops::Shift<S>{shifted, S(0.5)}, u);
          ops::heads_max_exp<E>(u);
          // the token-per-column state: n columns padded as co_re pads them, dv = dh
          const std::int64_t np = kernels::padded_cols<S>(s.n);
          const Mat<S> xt = filled<S>(d, np, 14), kt = filled<S>(d, 2, 15);
          Mat<S> yt = filled<S>(d, np, 16), eo(s.h, np), en(s.h, np);
          Mat<S> den = Mat<S>::Constant(s.h, np, S(9));
          for (bool shifted : {false, true})
            ops::heads_retro_update_cols<E>(s.n, s.n / 2, xt, kt.col(0), kt.col(1), kt.col(1),
                                            kt.col(0), eo, en, den, yt,
                                            ops::Shift<S>{shifted, S(0.5)});
          const Mat<S> av = filled<S>(d, np, 17), inv = filled<S>(s.h, np, 18);
          Mat<S> out_t(s.n, d);
          ops::heads_scale_rows_into<E>(av, inv, s.n / 2, out_t);
          // a ring of n rows of three weights per head, each head's 3 x dh block
          const Mat<S> w_ring = filled<S>(s.n, 3 * s.h, 19), blocks = filled<S>(3 * s.h, s.dh, 20);
          ops::heads_ring_gemm_nn<E>(w_ring, blocks, s.n / 2, out_t);
          // ny_fix's landmark-major operands: three landmarks per head, n padded by one column
          const Mat<S> g = filled<S>(3 * s.h, 3, 21), x_lm = filled<S>(3 * s.h, s.n + 1, 22);
          Mat<S> y_lm(3 * s.h, s.n + 1);
          ops::heads_gemm_lm<E>(g, x_lm, y_lm, 0, s.h);
          ops::heads_ring_gemm_lm<E>(x_lm, filled<S>(3, d, 23), s.n / 2, out_t, s.h / 2,
                                     s.h - s.h / 2);
          // rf's window of key and query features, three per head, a token per column
          Mat<S> feats = filled<S>(3 * s.h, s.n + 1, 24), scratch(1, s.n + 1);
          ops::heads_key_exp_cols<E>(k, S(0.25), s.h, s.h / 2, s.h - s.h / 2, s.n, feats, scratch);
          ops::heads_max_exp_cols<E>(s.h, s.n, feats, scratch);
          // ny's segment means over the token ring, one run and one that wraps
          Mat<S> means(1, d);
          ops::segment_mean_cols<E>(k, 1, std::max<std::int64_t>(1, s.n / 2), means.data());
          ops::segment_mean_cols<E>(k, s.n - 1, s.n / 2 + 1, means.data());
          // ny's landmark kernels and their pseudo-inverses, three landmarks a head
          const std::int64_t mm = 9 * s.h;
          const Mat<S> lq = filled<S>(3, d, 25), lk = filled<S>(3, d, 26);
          Mat<S> lx(1, mm), lz(1, mm), lsums(1, 3 * s.h), lwork(1, 3 * mm);
          ops::heads_minor_gram<E>(lq, lk, s.h, lx.data());
          ops::heads_minor_normalize_rows<E>(3, 3, s.h, lx.data(), lsums.data());
          ops::heads_minor_pinv<E>(3, s.h, 2, lx.data(), lz.data(), lwork.data());
        },
        "heads_gemm_nn, heads_gemm_nt, heads_exp_scores, heads_slide_sums, "
        "heads_key_exp, heads_max_exp, heads_retro_update_cols, heads_scale_rows_into, "
        "heads_ring_gemm_nn, heads_gemm_lm, heads_ring_gemm_lm, heads_key_exp_cols, "
        "heads_max_exp_cols, segment_mean_cols, heads_minor_* h" +
            std::to_string(s.h) + " dh" + std::to_string(s.dh) + " n" + std::to_string(s.n));
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

// The random-feature ops compute and count the per-head ops they stand for (corf_si's step,
// h heads of dh features, m = n features per head): slide_sums of head i's n rows of the sums
// against its value slices; FeatureMap's key offset (dot, product, plus when shifted) and
// shifted exponentials; FeatureMap::query's max and shifted exponentials.
template <class E>
void expect_rf_ops_equal_per_head(const HeadShape& s, bool shifted, double tol) {
  using S = typename E::Scalar;
  const std::int64_t d = s.h * s.dh, m = s.n, hm = s.h * m;
  const S scale(0.5 / std::sqrt(double(s.dh)));
  const ops::Shift<S> shift{shifted, S(0.75)};
  const Mat<S> k = filled<S>(1, d, 21), v = filled<S>(2, d, 22), a = filled<S>(2, hm, 23);
  Mat<S> sums = filled<S>(1, hm, 24), y = filled<S>(hm, s.dh, 25), u = filled<S>(2, hm, 26);
  Mat<S> sums_1 = sums, y_1 = y, u_1 = u;
  const OpCounts c0 = thread_counts();
  ops::heads_slide_sums<E>(s.h, &a(0, 0), &a(1, 0), &v(0, 0), &v(1, 0), sums.data(), y);
  ops::heads_key_exp<E>(k, scale, shift, Eigen::Map<Mat<S>>(&u(0, 0), s.h, m));
  ops::heads_max_exp<E>(Eigen::Map<Mat<S>>(&u(1, 0), s.h, m));
  const OpCounts batched = thread_counts() - c0;
  for (std::int64_t i = 0; i < s.h; ++i) {
    const std::int64_t r = i * m, f = i * s.dh;
    ops::slide_sums<E>(&a(0, r), &a(1, r), &v(0, f), &v(1, f), &sums_1(0, r), y_1.middleRows(r, m));
    S offset = ops::product<E>(ops::dot<E>(&k(0, f), &k(0, f), s.dh), scale);
    if (shifted) offset = ops::plus<E>(offset, shift.c);
    ops::exp_inplace<E>(&u_1(0, r), m, ops::Shift<S>{true, offset});
    const S top = ops::max_value<E>(&u_1(1, r), m);
    ops::exp_inplace<E>(&u_1(1, r), m, ops::Shift<S>{true, top});
  }
  const OpCounts per_head = thread_counts() - c0 - batched;
  EXPECT_EQ(batched, per_head) << describe(batched) << " vs " << describe(per_head);
  for (std::int64_t j = 0; j < hm; ++j) {
    EXPECT_NEAR(value_of(sums(0, j)), value_of(sums_1(0, j)), tol) << "row " << j;
    for (std::int64_t l = 0; l < s.dh; ++l)
      EXPECT_NEAR(value_of(y(j, l)), value_of(y_1(j, l)), tol) << "row " << j << " col " << l;
    for (std::int64_t l = 0; l < 2; ++l)
      EXPECT_NEAR(value_of(u(l, j)), value_of(u_1(l, j)), tol) << "feature " << j;
  }
}

TEST(HeadsSeam, RandomFeatureOpsEqualTheirPerHeadOps) {
  for (const HeadShape s : kOpShapes) {
    SCOPED_TRACE("h " + std::to_string(s.h) + " dh " + std::to_string(s.dh) + " m " +
                 std::to_string(s.n));
    for (bool shifted : {false, true}) {
      expect_rf_ops_equal_per_head<Tally<double>>(s, shifted, 1e-13);
      expect_rf_ops_equal_per_head<Tally<float>>(s, shifted, 1e-5);
      expect_rf_ops_equal_per_head<Exact>(s, shifted, 1e-13);
    }
  }
}

// The token-per-column ops compute and count the per-head ops they stand for (co_re's step,
// h heads of dh features, a ring of n tokens whose slot j is replaced): head i's
// retro_update_cols on its rows of Q and AV in the two runs beside j, against its slices of
// the leaving and entering tokens, and scale_rows_into (src transposed) of its rows of AV over
// the ring's two runs in window order. Column j and the padding stay as they were.
template <class E>
void expect_cols_ops_equal_per_head(const HeadShape& s, bool shifted, double tol) {
  using S = typename E::Scalar;
  const std::int64_t d = s.h * s.dh, n = s.n, j = n / 3, np = kernels::padded_cols<S>(n);
  const ops::Shift<S> shift{shifted, S(0.75)};
  const Mat<S> x = filled<S>(d, np, 31, 0.5 / std::sqrt(double(s.dh))), k = filled<S>(d, 2, 32);
  const Mat<S> v = filled<S>(d, 2, 33);
  Mat<S> y = filled<S>(d, np, 34), sums = filled<S>(s.h, np, 35, 2.0);
  Mat<S> scales = filled<S>(s.h, np, 36), y_1 = y, sums_1 = sums;
  Mat<S> eo = Mat<S>::Zero(s.h, np), en = eo, eo_1(1, n), en_1(1, n), out(n, d), out_1(n, d);
  const OpCounts c0 = thread_counts();
  ops::heads_retro_update_cols<E>(n, j, x, k.col(0), k.col(1), v.col(0), v.col(1), eo, en, sums, y,
                                  shift);
  ops::heads_scale_rows_into<E>(y, scales, j, out);
  const OpCounts batched = thread_counts() - c0;
  for (std::int64_t i = 0; i < s.h; ++i) {
    const std::int64_t f = i * s.dh;
    for_rows_except(n, j, [&](std::int64_t first, std::int64_t r) {
      ops::retro_update_cols<E>(x.block(f, first, s.dh, r), k.block(f, 0, s.dh, 1),
                                k.block(f, 1, s.dh, 1), v.block(f, 0, s.dh, 1),
                                v.block(f, 1, s.dh, 1), &eo_1(0, first), &en_1(0, first),
                                &sums_1(i, first), y_1.block(f, first, s.dh, r), shift);
      for (std::int64_t t = first; t < first + r; ++t) {
        EXPECT_NEAR(value_of(eo(i, t)), value_of(eo_1(0, t)), tol) << "head " << i << " col " << t;
        EXPECT_NEAR(value_of(en(i, t)), value_of(en_1(0, t)), tol) << "head " << i << " col " << t;
      }
    });
    EXPECT_EQ(value_of(eo(i, j)), 0.0) << "head " << i;
    for_ring_in_window_order(n, j, [&](std::int64_t a, std::int64_t count, std::int64_t row) {
      ops::scale_rows_into<E>(y_1.block(f, a, s.dh, count), &scales(i, a),
                              out_1.block(row, f, count, s.dh), true);
    });
  }
  const OpCounts per_head = thread_counts() - c0 - batched;
  EXPECT_EQ(batched, per_head) << describe(batched) << " vs " << describe(per_head);
  for (std::int64_t i = 0; i < s.h; ++i)
    for (std::int64_t t = 0; t < np; ++t)
      EXPECT_NEAR(value_of(sums(i, t)), value_of(sums_1(i, t)), tol)
          << "head " << i << " col " << t;
  for (std::int64_t f = 0; f < d; ++f)
    for (std::int64_t t = 0; t < np; ++t)
      EXPECT_NEAR(value_of(y(f, t)), value_of(y_1(f, t)), tol) << "row " << f << " col " << t;
  for (std::int64_t t = 0; t < n; ++t)
    for (std::int64_t f = 0; f < d; ++f)
      EXPECT_NEAR(value_of(out(t, f)), value_of(out_1(t, f)), tol) << "row " << t << " col " << f;
}

TEST(HeadsSeam, TokenPerColumnOpsEqualTheirPerHeadOps) {
  for (const HeadShape s : kOpShapes) {
    SCOPED_TRACE("h " + std::to_string(s.h) + " dh " + std::to_string(s.dh) + " n " +
                 std::to_string(s.n));
    for (bool shifted : {false, true}) {
      expect_cols_ops_equal_per_head<Tally<double>>(s, shifted, 1e-13);
      expect_cols_ops_equal_per_head<Tally<float>>(s, shifted, 1e-5);
      expect_cols_ops_equal_per_head<Exact>(s, shifted, 1e-13);
    }
  }
}

// Positive values, as the random features' exponentials give them: denominators away from zero.
template <class S>
Mat<S> positive(std::int64_t r, std::int64_t c, std::uint64_t seed) {
  const MatD x = random_stream(r, c, seed);
  Mat<S> m(r, c);
  for (std::int64_t i = 0; i < r; ++i)
    for (std::int64_t j = 0; j < c; ++j) m(i, j) = S(std::abs(x(i, j)) + 0.25);
  return m;
}

// corf_re's window of outputs (attention/ops/heads_rf.hpp): m features per head for a ring of
// n queries, stored a token per column with the columns padded to whole packets as CoRfRe
// pads them, or not (the op's other path), or for one head a token per row, the ring's oldest
// slot at n / 3.
TEST(HeadsSeam, RandomFeatureWindowOpTalliesWhatItExecutes) {
  for (const HeadShape s : kOpShapes)
    for (const std::int64_t m : {1, 3})
      expect_same_count(
          [&](auto e) {
            using E = decltype(e);
            using S = typename E::Scalar;
            const std::int64_t hm = s.h * m;
            for (const std::int64_t cols : {s.n, kernels::padded_cols<S>(s.n)}) {
              const Mat<S> ut = positive<S>(hm, cols, 41), z = positive<S>(hm, 1, 42);
              const Mat<S> sums = filled<S>(hm, s.dh, 43);
              Mat<S> den(s.h, cols), out(s.n, s.h * s.dh);
              ops::heads_attend_cols<E>(ut, sums, z, s.n / 3, den, out);
            }
            if (s.h == 1) {
              const Mat<S> u = positive<S>(s.n, m, 41), z = positive<S>(m, 1, 42);
              const Mat<S> sums = filled<S>(m, s.dh, 43);
              Mat<S> den(1, s.n), out(s.n, s.dh);
              ops::heads_attend_cols<E>(u, sums, z, s.n / 3, den, out, true);
            }
          },
          "heads_attend_cols h" + std::to_string(s.h) + " dh" + std::to_string(s.dh) + " n" +
              std::to_string(s.n) + " m" + std::to_string(m));
}

// The window op computes and counts what each head's FeatureSums::attend does: head i's
// features a token per row, its rows of S and z, the ring in window order. by_row: one head's
// features given a token per row (CoRfRe at h = 1).
template <class E>
void expect_rf_window_op_equals_per_head(const HeadShape& s, std::int64_t m, bool padded,
                                         double tol, bool by_row = false) {
  using S = typename E::Scalar;
  const std::int64_t n = s.n, hm = s.h * m, oldest = n / 3;
  const std::int64_t cols = padded ? kernels::padded_cols<S>(n) : n;
  const Mat<S> ut = positive<S>(hm, cols, 44), z = positive<S>(hm, 1, 45);
  const Mat<S> sums = filled<S>(hm, s.dh, 46);
  Mat<S> den(s.h, cols), out(n, s.h * s.dh), den_i(n, 1), out_i(n, s.dh);
  const OpCounts c0 = thread_counts();
  if (by_row)
    ops::heads_attend_cols<E>(ut.leftCols(n).transpose(), sums, z, oldest, den, out, true);
  else
    ops::heads_attend_cols<E>(ut, sums, z, oldest, den, out);
  const OpCounts batched = thread_counts() - c0;
  OpCounts per_head;
  for (std::int64_t i = 0; i < s.h; ++i) {
    FeatureSums<E> f(m, s.dh);
    f.s = sums.middleRows(i * m, m);
    f.z = z.middleRows(i * m, m);
    const Mat<S> u = ut.block(i * m, 0, m, n).transpose();  // as CoRfRe keeps them
    const OpCounts c1 = thread_counts();
    f.attend(u, den_i.data(), out_i, oldest);
    per_head += thread_counts() - c1;
    for (std::int64_t t = 0; t < n; ++t)
      for (std::int64_t l = 0; l < s.dh; ++l) {
        const double p = value_of(out_i(t, l));
        EXPECT_NEAR(value_of(out(t, i * s.dh + l)), p, tol * (1 + std::abs(p)))
            << "head " << i << " row " << t << " col " << l;
      }
  }
  EXPECT_EQ(batched, per_head) << describe(batched) << " vs " << describe(per_head);
}

TEST(HeadsSeam, RandomFeatureWindowOpEqualsItsPerHeadOps) {
  for (const HeadShape s : kOpShapes)
    for (const std::int64_t m : {1, 3})
      for (const bool padded : {false, true}) {
        SCOPED_TRACE("h " + std::to_string(s.h) + " dh " + std::to_string(s.dh) + " n " +
                     std::to_string(s.n) + " m " + std::to_string(m) + (padded ? " padded" : ""));
        expect_rf_window_op_equals_per_head<Tally<double>>(s, m, padded, 1e-13);
        expect_rf_window_op_equals_per_head<Tally<float>>(s, m, padded, 1e-5);
        expect_rf_window_op_equals_per_head<Exact>(s, m, padded, 1e-13);
        if (s.h == 1 && !padded) {
          SCOPED_TRACE("by row");
          expect_rf_window_op_equals_per_head<Tally<double>>(s, m, false, 1e-13, true);
          expect_rf_window_op_equals_per_head<Tally<float>>(s, m, false, 1e-5, true);
          expect_rf_window_op_equals_per_head<Exact>(s, m, false, 1e-13, true);
        }
      }
}

// The ring's per-head products compute and count the per-head ops they stand for
// (cony_re_fix's output, h heads of dh features, a ring of n rows of m weights per head whose
// oldest slot is j): head i's gemm_nn of its m columns of the ring's two runs by its m x dh
// block, into its columns of the output rows in window order.
template <class E>
void expect_ring_ops_equal_per_head(const HeadShape& s, std::int64_t m, double tol) {
  using S = typename E::Scalar;
  const std::int64_t d = s.h * s.dh, n = s.n, j = n / 3;
  const Mat<S> w = filled<S>(n, s.h * m, 41), b = filled<S>(s.h * m, s.dh, 42);
  Mat<S> out(n, d), out_1(n, d);
  const OpCounts c0 = thread_counts();
  ops::heads_ring_gemm_nn<E>(w, b, j, out);
  const OpCounts batched = thread_counts() - c0;
  for (std::int64_t i = 0; i < s.h; ++i)
    for_ring_in_window_order(n, j, [&](std::int64_t first, std::int64_t count, std::int64_t row) {
      ops::gemm_nn<E>(w.block(first, i * m, count, m), b.middleRows(i * m, m),
                      out_1.block(row, i * s.dh, count, s.dh));
    });
  const OpCounts per_head = thread_counts() - c0 - batched;
  EXPECT_EQ(batched, per_head) << describe(batched) << " vs " << describe(per_head);
  for (std::int64_t t = 0; t < n; ++t)
    for (std::int64_t f = 0; f < d; ++f)
      EXPECT_NEAR(value_of(out(t, f)), value_of(out_1(t, f)), tol) << "row " << t << " col " << f;
}

TEST(HeadsSeam, RingOfHeadProductsEqualsItsPerHeadOps) {
  for (const HeadShape s : kOpShapes)
    for (const std::int64_t m : {1, 2, 3, 4, 8, 16, 17}) {
      SCOPED_TRACE("h " + std::to_string(s.h) + " dh " + std::to_string(s.dh) + " n " +
                   std::to_string(s.n) + " m " + std::to_string(m));
      expect_ring_ops_equal_per_head<Tally<double>>(s, m, 1e-13);
      expect_ring_ops_equal_per_head<Tally<float>>(s, m, 1e-5);
      expect_ring_ops_equal_per_head<Exact>(s, m, 1e-13);
    }
}

// The landmark-major ops compute and count the per-head ops they stand for (ny_fix's
// B_phi Gamma_phi^+ and output, h heads of m landmarks, row l h + i head i's row l): head i's
// gemm_nn of its m x m block by its m rows, and gemm_tn of its m rows of weights over the
// ring's two runs by its m x dh block, into its columns of the output rows in window order;
// the heads in two ranges, as threads share them out.
template <class E>
void expect_landmark_major_ops_equal_per_head(const HeadShape& s, std::int64_t m, double tol) {
  using S = typename E::Scalar;
  const std::int64_t d = s.h * s.dh, n = s.n, j = n / 3, hm = s.h * m;
  const Mat<S> a = filled<S>(hm, m, 43), x = filled<S>(hm, n + 2, 44), b = filled<S>(m, d, 45);
  Mat<S> y(hm, n + 2), y_1(m, n), out(n, d), out_1(n, d);
  const OpCounts c0 = thread_counts();
  const std::int64_t half = s.h / 2;
  for (const auto& [first, count] :
       {std::pair{std::int64_t(0), half}, std::pair{half, s.h - half}}) {
    ops::heads_gemm_lm<E>(a, x.leftCols(n), y.leftCols(n), first, count);  // rows n + 2 apart
    ops::heads_ring_gemm_lm<E>(x, b, j, out, first, count);
  }
  const OpCounts batched = thread_counts() - c0;
  OpCounts per_head;
  for (std::int64_t i = 0; i < s.h; ++i) {
    Mat<S> x_i(m, n);
    for (std::int64_t l = 0; l < m; ++l) x_i.row(l) = x.block(l * s.h + i, 0, 1, n);
    const OpCounts c1 = thread_counts();
    ops::gemm_nn<E>(a.middleRows(i * m, m), x_i, y_1);
    for_ring_in_window_order(n, j, [&](std::int64_t first, std::int64_t count, std::int64_t row) {
      ops::gemm_tn<E>(x_i.middleCols(first, count), b.middleCols(i * s.dh, s.dh),
                      out_1.block(row, i * s.dh, count, s.dh));
    });
    per_head += thread_counts() - c1;
    for (std::int64_t l = 0; l < m; ++l)
      for (std::int64_t t = 0; t < n; ++t)
        EXPECT_NEAR(value_of(y(l * s.h + i, t)), value_of(y_1(l, t)), tol)
            << "head " << i << " row " << l << " token " << t;
  }
  EXPECT_EQ(batched, per_head) << describe(batched) << " vs " << describe(per_head);
  for (std::int64_t t = 0; t < n; ++t)
    for (std::int64_t f = 0; f < d; ++f)
      EXPECT_NEAR(value_of(out(t, f)), value_of(out_1(t, f)), tol) << "row " << t << " col " << f;
}

TEST(HeadsSeam, LandmarkMajorOpsEqualTheirPerHeadOps) {
  for (const HeadShape s : kOpShapes)
    for (const std::int64_t m : {1, 2, 3, 4, 8, 16, 17}) {
      SCOPED_TRACE("h " + std::to_string(s.h) + " dh " + std::to_string(s.dh) + " n " +
                   std::to_string(s.n) + " m " + std::to_string(m));
      expect_landmark_major_ops_equal_per_head<Tally<double>>(s, m, 1e-13);
      expect_landmark_major_ops_equal_per_head<Tally<float>>(s, m, 1e-5);
      expect_landmark_major_ops_equal_per_head<Exact>(s, m, 1e-13);
    }
}

}  // namespace
}  // namespace cosda::test
