// ny's per-step landmarks of every head at once (attention/ops_heads_landmarks.hpp): the
// segment means over a ring of tokens by column and the head-minor landmark kernels and
// pseudo-inverses compute and count what the per-head ops they stand for do.
#include <algorithm>
#include <cmath>
#include <tuple>
#include <vector>

#include "attention/landmarks.hpp"
#include "attention/nystrom.hpp"
#include "attention/ops_heads_landmarks.hpp"
#include "tests/heads_util.hpp"

namespace cosda::test {
namespace {

// ny's segment means of every head at once, over a ring of tokens by column, equal segment_mean
// over the same ring stored a token per row, in values and counts, wrapping or not.
template <class E>
void expect_segment_mean_cols_equal_segment_mean(std::int64_t d, std::int64_t n, double tol) {
  using S = typename E::Scalar;
  const Mat<S> x = filled<S>(d, n, 46), rows = x.transpose();
  Mat<S> cols(1, d), by_row(1, d);
  for (std::int64_t first : {std::int64_t(0), n / 2, n - 1, n + 1})
    for (std::int64_t count = 1; count <= n; count += std::max<std::int64_t>(1, n / 3)) {
      const OpCounts c0 = thread_counts();
      ops::segment_mean_cols<E>(x, first, count, cols.data());
      const OpCounts c1 = thread_counts();
      segment_mean<E>(rows, first, count, by_row.data());
      EXPECT_EQ(c1 - c0, thread_counts() - c1) << "first " << first << " count " << count;
      for (std::int64_t f = 0; f < d; ++f)
        EXPECT_NEAR(value_of(cols(0, f)), value_of(by_row(0, f)), tol) << "feature " << f;
    }
}

// Every head's landmark kernel and its pseudo-inverse, head-minor, equal landmark_kernel_pinv of
// each head (nystrom.hpp) in values and counts.
template <class E>
void expect_heads_minor_pinv_equal_per_head(std::int64_t h, std::int64_t dh, std::int64_t m,
                                            double tol) {
  using S = typename E::Scalar;
  const std::int64_t mm = h * m * m;
  const Mat<S> qt = filled<S>(m, h * dh, 47), kt = filled<S>(m, h * dh, 48);
  std::vector<S> x(static_cast<std::size_t>(mm)), z(static_cast<std::size_t>(mm)),
      work(static_cast<std::size_t>(3 * mm + h * m));
  const OpCounts c0 = thread_counts();
  ops::heads_minor_gram<E>(qt, kt, h, x.data());
  ops::exp_inplace<E>(x.data(), mm);
  ops::heads_minor_normalize_rows<E>(m, h, x.data(), work.data());
  ops::heads_minor_pinv<E>(m, h, 6, x.data(), z.data(), work.data());
  const OpCounts batched = thread_counts() - c0;
  OpCounts per_head;
  Pinv<E> pinv(m, 6, false);
  Mat<S> gamma(m, m), g(m, m);
  std::vector<S> sums(static_cast<std::size_t>(m));
  for (std::int64_t i = 0; i < h; ++i) {
    const OpCounts c1 = thread_counts();
    landmark_kernel_pinv<E>(qt.middleCols(i * dh, dh), kt.middleCols(i * dh, dh), pinv, gamma,
                            sums.data(), g);
    per_head += thread_counts() - c1;
    for (std::int64_t a = 0; a < m; ++a)
      for (std::int64_t b = 0; b < m; ++b)
        EXPECT_NEAR(value_of(z[std::size_t((a * m + b) * h + i)]), value_of(g(a, b)),
                    tol * std::max(1.0, std::abs(value_of(g(a, b)))))
            << "head " << i << " (" << a << ", " << b << ")";
  }
  EXPECT_EQ(batched, per_head) << describe(batched) << " vs " << describe(per_head);
}

TEST(HeadsSeam, HeadsMinorPseudoInversesEqualEachHeads) {
  for (const auto& [h, dh, m] :
       {std::tuple{1, 1, 1}, std::tuple{3, 5, 2}, std::tuple{16, 12, 4}, std::tuple{17, 3, 5}}) {
    SCOPED_TRACE("h " + std::to_string(h) + " dh " + std::to_string(dh) + " m " +
                 std::to_string(m));
    expect_heads_minor_pinv_equal_per_head<Tally<double>>(h, dh, m, 1e-10);
    expect_heads_minor_pinv_equal_per_head<Tally<float>>(h, dh, m, 1e-3);
    expect_heads_minor_pinv_equal_per_head<Exact>(h, dh, m, 1e-10);
  }
}

TEST(HeadsSeam, SegmentMeansOverColumnsEqualSegmentMeansOverRows) {
  for (const auto& [d, n] : {std::pair{1, 1}, std::pair{12, 7}, std::pair{192, 120}}) {
    SCOPED_TRACE("d " + std::to_string(d) + " n " + std::to_string(n));
    expect_segment_mean_cols_equal_segment_mean<Tally<double>>(d, n, 1e-13);
    expect_segment_mean_cols_equal_segment_mean<Tally<float>>(d, n, 1e-5);
    expect_segment_mean_cols_equal_segment_mean<Exact>(d, n, 1e-13);
  }
}

// ny's batched heads with the exact pseudo-inverse (a reference for plain scalars, taken a head
// at a time) give the outputs of h Ny heads with it, step by step over several windows.
TEST(HeadsLandmarks, ExactPseudoInverseHeadsEqualEachHeads) {
  for (const std::int64_t h : {1, 3, 4}) {
    Config c{.n = 13, .d = 12 * h, .m = 3, .exact_pinv = true};
    auto batched = make_ny_heads<Plain<double>>(c, h);
    Config hc = c;
    hc.d = 12;
    std::vector<std::unique_ptr<Attention<Plain<double>>>> heads;
    for (std::int64_t i = 0; i < h; ++i) heads.push_back(make_variant<Plain<double>>("ny", hc));
    const MatD x = random_stream(4 * c.n, 3 * c.d, 9);
    std::int64_t compared = 0;
    for (std::int64_t t = 0; t < x.rows(); ++t) {
      const double* q = x.row(t).data();
      const bool ready = batched->step(q, q + c.d, q + 2 * c.d);
      for (std::int64_t i = 0; i < h; ++i) {
        const double* qi = q + i * hc.d;
        ASSERT_EQ(heads[i]->step(qi, qi + c.d, qi + 2 * c.d), ready);
        if (!ready) continue;
        const MatD want = heads[i]->output(), got = batched->output().middleCols(i * hc.d, hc.d);
        EXPECT_LE((got - want).norm(), 1e-12 * want.norm()) << "h " << h << " head " << i;
        ++compared;
      }
    }
    EXPECT_EQ(compared, h * (x.rows() - c.n + 1));
  }
}

}  // namespace
}  // namespace cosda::test
