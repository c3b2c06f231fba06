// The seam's ops over rings in head panels (attention/ops/heads_attention.hpp), att's, co_si's
// and co_re's batched heads: each computes and counts what the per-head ops it stands for do.
#include <algorithm>
#include <cmath>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "attention/families/window.hpp"
#include "attention/ops/heads.hpp"
#include "attention/ops/heads_attention.hpp"
#include "attention/ops/seam.hpp"
#include "tests/heads_util.hpp"

namespace cosda::test {
namespace {

// Every head's ring of `slots` tokens (head i's the rows [i slots, (i+1) slots) of x, token t
// in row t) in head panels, entered a token at a time.
template <class E>
std::vector<typename E::Scalar> panels_of(const Mat<typename E::Scalar>& x, std::int64_t h,
                                          std::int64_t slots) {
  const std::int64_t dh = x.cols();
  std::vector<typename E::Scalar> ring(std::size_t(h * slots * dh)), token(std::size_t(h * dh));
  for (std::int64_t t = 0; t < slots; ++t) {
    for (std::int64_t i = 0; i < h; ++i)
      for (std::int64_t c = 0; c < dh; ++c) token[std::size_t(i * dh + c)] = x(i * slots + t, c);
    ops::heads_panels_enter<E>(h, dh, slots, token.data(), ring.data(), t);
  }
  return ring;
}

// h heads' windows of n tokens of dh features: the heads' slices (head i's rows [i n, (i+1) n),
// token t in row t) and the same rings in head panels.
template <class E>
struct Window {
  using S = typename E::Scalar;
  Window(std::int64_t h, std::int64_t n, std::int64_t dh, int seed)
      : qs(filled<S>(h * n, dh, seed)),
        ks(filled<S>(h * n, dh, seed + 1)),
        vs(filled<S>(h * n, dh, seed + 2)),
        q(panels_of<E>(qs, h, n)),
        k(panels_of<E>(ks, h, n)),
        v(panels_of<E>(vs, h, n)) {}
  Mat<S> qs, ks, vs;
  std::vector<S> q, k, v;
};

// att's op over rings in head panels computes and counts what each head's Att step does on its
// slices (scale_in_window_order, gemm_nt, exp_row_sums, gemm_nn, reciprocals, scale_rows), its
// query rows in two calls as threads share them out. Shapes: a packet of heads and the half,
// quarter and single heads after it; windows and head widths that fill the register tiles and
// leave tails.
template <class E>
void expect_attention_equals_each_heads(std::int64_t h, std::int64_t n, std::int64_t dh,
                                        double tol) {
  using S = typename E::Scalar;
  const Window<E> w(h, n, dh, 80);
  const auto &qs = w.qs, &ks = w.ks, &vs = w.vs;
  const auto &q = w.q, &k = w.k, &v = w.v;
  const S scale = S(1.0 / std::sqrt(double(dh)));
  const std::int64_t oldest = n / 3, split = std::min<std::int64_t>(n, 4 * (n / 8) + 1);
  std::vector<S> work(std::size_t(ops::heads_attention_scratch<E>(n, dh)));
  Mat<S> out(n, h * dh);
  const OpCounts c0 = thread_counts();
  ops::heads_panels_attention<E>(n, dh, h, q.data(), k.data(), v.data(), scale, oldest, 0, split,
                                 out, work.data());
  ops::heads_panels_attention<E>(n, dh, h, q.data(), k.data(), v.data(), scale, oldest, split,
                                 n - split, out, work.data());
  const OpCounts batched = thread_counts() - c0;
  OpCounts per_head;
  double diff = 0, largest = 0;
  for (std::int64_t i = 0; i < h; ++i) {
    // head i's ring: its n x dh slices, token t in row t
    const MatCRef<S> qi = qs.middleRows(i * n, n), ki = ks.middleRows(i * n, n),
                     vi = vs.middleRows(i * n, n);
    Mat<S> scaled(n, dh), a(n, n), want(n, dh);
    std::vector<S> rs(static_cast<std::size_t>(n));
    const OpCounts c1 = thread_counts();
    scale_in_window_order<E>(qi, oldest, scale, scaled);
    ops::gemm_nt<E>(scaled, ki, a);
    ops::exp_row_sums<E>(a, rs.data());
    ops::gemm_nn<E>(a, vi, want);
    ops::reciprocals<E>(rs.data(), rs.data(), n);
    ops::scale_rows<E>(want, rs.data());
    per_head += thread_counts() - c1;
    for (std::int64_t r = 0; r < n; ++r)
      for (std::int64_t c = 0; c < dh; ++c) {
        const double w = value_of(want(r, c));
        diff = std::max(diff, std::abs(value_of(out(r, i * dh + c)) - w));
        largest = std::max(largest, std::abs(w));
      }
  }
  EXPECT_LE(diff, tol * largest);
  EXPECT_EQ(batched, per_head) << describe(batched) << " vs " << describe(per_head);
}

// check.template operator()<E>(h, n, dh, tol) in double and float under Tally and, on small
// shapes, under Exact.
template <class F>
void under_each_policy(std::int64_t h, std::int64_t n, std::int64_t dh, F check) {
  SCOPED_TRACE("h " + std::to_string(h) + " n " + std::to_string(n) + " dh " + std::to_string(dh));
  check.template operator()<Tally<double>>(h, n, dh, 1e-13);
  check.template operator()<Tally<float>>(h, n, dh, 1e-5);
  if (n * h <= 16 * 9) check.template operator()<Exact>(h, n, dh, 1e-13);
}

TEST(HeadsMinor, AttentionEqualsEachHeadsAtt) {
  for (const auto& [h, n, dh] : {std::tuple<std::int64_t, std::int64_t, std::int64_t>{1, 1, 1},
                                 {16, 120, 12},
                                 {16, 9, 5},
                                 {31, 7, 3},
                                 {3, 13, 9}})
    under_each_policy(
        h, n, dh, []<class E>(auto... shape) { expect_attention_equals_each_heads<E>(shape...); });
}

// Every width the single-query ops take, packets of heads with the half, quarter and single
// heads after them, windows that fill the groups of keys and leave tails.
template <class F>
void under_each_single_query_shape(F check) {
  for (std::int64_t dh = 1; dh <= ops::kSingleQueryMaxWidth; ++dh)
    for (const auto& [h, n] :
         {std::pair<std::int64_t, std::int64_t>{1, 1}, {16, 120}, {31, 7}, {3, 9}})
      under_each_policy(h, n, dh, check);
}

// co_si's op over rings in head panels computes and counts, for one query, what att's op does
// for the newest row of the window (CoTrans Eq. 7 is Eq. 1's last row), and shifted,
// exp(x - c), the same outputs for one more add per score.
template <class E>
void expect_single_equals_newest_row(std::int64_t h, std::int64_t n, std::int64_t dh, double tol) {
  using S = typename E::Scalar;
  const Window<E> w(h, n, dh, 83);
  const auto& qs = w.qs;
  const auto &q = w.q, &k = w.k, &v = w.v;
  const S scale = S(1.0 / std::sqrt(double(dh)));
  const std::int64_t oldest = n / 3, newest = (oldest + n - 1) % n;
  Mat<S> token(1, h * dh);  // the newest query, heads order
  for (std::int64_t i = 0; i < h; ++i) token.middleCols(i * dh, dh) = qs.row(i * n + newest);
  std::vector<S> work(std::size_t(ops::heads_attention_scratch<E>(n, dh)));
  Mat<S> att(n, h * dh), single(1, h * dh), shifted(1, h * dh);
  OpCounts c0 = thread_counts();
  ops::heads_panels_attention<E>(n, dh, h, q.data(), k.data(), v.data(), scale, oldest, n - 1, 1,
                                 att, work.data());
  const OpCounts want = thread_counts() - c0;
  c0 = thread_counts();
  ops::heads_panels_single<E>(n, dh, h, token.data(), k.data(), v.data(), scale, ops::Shift<S>{},
                              single, work.data());
  const OpCounts got = thread_counts() - c0;
  c0 = thread_counts();
  ops::heads_panels_single<E>(n, dh, h, token.data(), k.data(), v.data(), scale,
                              ops::Shift<S>{true, S(0.75)}, shifted, work.data());
  OpCounts got_shifted = thread_counts() - c0;
  EXPECT_EQ(got, want) << describe(got) << " vs " << describe(want);
  got_shifted.add -= h * n;
  EXPECT_EQ(got_shifted, want) << describe(got_shifted) << " vs " << describe(want);
  double diff = 0, diff_shifted = 0, largest = 0;
  for (std::int64_t j = 0; j < h * dh; ++j) {
    const double w = value_of(att(n - 1, j));
    diff = std::max(diff, std::abs(value_of(single(0, j)) - w));
    diff_shifted = std::max(diff_shifted, std::abs(value_of(shifted(0, j)) - w));
    largest = std::max(largest, std::abs(w));
  }
  EXPECT_LE(diff, tol * largest);
  EXPECT_LE(diff_shifted, tol * largest);
}

TEST(HeadsMinor, SingleQueryEqualsAttentionsNewestRow) {
  under_each_single_query_shape(
      []<class E>(auto... shape) { expect_single_equals_newest_row<E>(shape...); });
}

// co_re's newest row over rings in head panels computes and counts what its head-major ops do
// over the same window a token per column (heads_exp_scores, heads_gemm_nt; CoTrans Eqs. 3, 5),
// plain and shifted; and every slot leaves the panels as the token that entered it.
template <class E>
void expect_row_equals_head_major(std::int64_t h, std::int64_t n, std::int64_t dh, double tol) {
  using S = typename E::Scalar;
  const Window<E> w(h, n, dh, 86);
  const std::int64_t d = h * dh;
  Mat<S> kt(d, n), vt(d, n), token(1, d), left(1, d);
  for (std::int64_t i = 0; i < h; ++i) {
    kt.middleRows(i * dh, dh) = w.ks.middleRows(i * n, n).transpose();
    vt.middleRows(i * dh, dh) = w.vs.middleRows(i * n, n).transpose();
    token.middleCols(i * dh, dh) = w.qs.row(i * n + n / 2) * S(0.5);
  }
  for (std::int64_t t = 0; t < n; ++t) {
    ops::heads_panels_leave<E>(h, dh, n, w.k.data(), t, left.data());
    for (std::int64_t f = 0; f < d; ++f) ASSERT_EQ(value_of(left(0, f)), value_of(kt(f, t)));
  }
  std::vector<S> work(std::size_t(ops::heads_single_scratch<E>(dh)));
  for (const ops::Shift<S> shift : {ops::Shift<S>{}, ops::Shift<S>{true, S(0.75)}}) {
    Mat<S> a(h, n), sums(1, h), av(1, d), row_sums(1, h), row_av(1, d);
    OpCounts c0 = thread_counts();
    ops::heads_exp_scores<E>(token, kt, a, sums.data(), shift);
    ops::heads_gemm_nt<E>(a, vt, av);
    const OpCounts want = thread_counts() - c0;
    c0 = thread_counts();
    ops::heads_panels_row<E>(n, dh, h, token.data(), w.k.data(), w.v.data(), shift, row_av,
                             row_sums.data(), work.data());
    const OpCounts got = thread_counts() - c0;
    EXPECT_EQ(got, want) << describe(got) << " vs " << describe(want);
    const auto max_diff = [](const Mat<S>& x, const Mat<S>& y) {
      double diff = 0, largest = 0;
      for (std::int64_t j = 0; j < x.size(); ++j) {
        diff = std::max(diff, std::abs(value_of(x(j)) - value_of(y(j))));
        largest = std::max(largest, std::abs(value_of(y(j))));
      }
      return diff / largest;
    };
    EXPECT_LE(max_diff(row_sums, sums), tol);
    EXPECT_LE(max_diff(row_av, av), tol);
  }
}

TEST(HeadsMinor, NewestRowEqualsHeadMajorOps) {
  under_each_single_query_shape(
      []<class E>(auto... shape) { expect_row_equals_head_major<E>(shape...); });
}

}  // namespace
}  // namespace cosda::test
