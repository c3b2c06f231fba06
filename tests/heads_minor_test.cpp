// The seam's head-minor ops (attention/ops/heads_minor.hpp) and ny's per-step landmarks of every
// head at once (attention/ops/heads_landmarks.hpp): each counts what it executes, and the
// segment means over a ring of tokens by column, the head-minor products, sums, scalings and
// retroactive updates, and the landmark kernels and pseudo-inverses compute and count what the
// per-head ops they stand for do.
#include "attention/ops/heads_minor.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "attention/families/landmarks.hpp"
#include "attention/families/nystrom.hpp"
#include "attention/families/window.hpp"
#include "attention/ops/heads.hpp"
#include "attention/ops/heads_attention.hpp"
#include "attention/ops/heads_landmarks.hpp"
#include "attention/ops/retro.hpp"
#include "tests/heads_util.hpp"

namespace cosda::test {
namespace {

// Every head's r x c matrix, head i's the rows [i r, (i+1) r) of x (h r x c), head-minor:
// element (a, b) of head i at (a c + b) h + i.
template <class S>
std::vector<S> minor_of(const Mat<S>& x, std::int64_t h) {
  const std::int64_t r = x.rows() / h, c = x.cols();
  std::vector<S> y(static_cast<std::size_t>(x.size()));
  for (std::int64_t i = 0; i < h; ++i)
    for (std::int64_t a = 0; a < r; ++a)
      for (std::int64_t b = 0; b < c; ++b) y[std::size_t((a * c + b) * h + i)] = x(i * r + a, b);
  return y;
}

// Head i's r x c matrix of a head-minor array against want, to tol relative to its largest
// element or to 1 (the operands are of order one; a sum may cancel to far less).
template <class S>
void expect_head_near(const std::vector<S>& y, std::int64_t h, std::int64_t i, const Mat<S>& want,
                      double tol, const std::string& what) {
  const std::int64_t c = want.cols();
  double diff = 0, scale = 0;
  for (std::int64_t a = 0; a < want.rows(); ++a)
    for (std::int64_t b = 0; b < c; ++b) {
      const double w = value_of(want(a, b)), got = value_of(y[std::size_t((a * c + b) * h + i)]);
      diff = std::max(diff, std::abs(got - w)), scale = std::max(scale, std::abs(w));
    }
  EXPECT_LE(diff, tol * std::max(scale, 1.0)) << what << ", head " << i;
}

// h heads of r x k and k x c matrices (the last shapes: a block of heads and one more).
struct MinorShape {
  std::int64_t h, r, k, c;
};
const MinorShape kMinorShapes[] = {{1, 1, 1, 1}, {3, 2, 5, 4}, {16, 4, 12, 4}, {17, 1, 12, 6}};

TEST(HeadsMinor, EveryOpTalliesWhatItExecutes) {
  for (const auto [h, r, k, c] : kMinorShapes)
    expect_same_count(
        [&](auto e) {
          using E = decltype(e);
          using S = typename E::Scalar;
          const Mat<S> tok = filled<S>(4, h * k, 60), xs = filled<S>(h * r, k, 61);
          const Mat<S> zs = filled<S>(h * k, c, 62), ws = filled<S>(h * c, k, 63);
          const std::vector<S> x = minor_of(xs, h), z = minor_of(zs, h), w = minor_of(ws, h);
          std::vector<S> y(std::size_t(h * r * c)), t(std::size_t(h * k)), u(std::size_t(h * k));
          std::vector<S> sums(std::size_t(h * r)), eo(sums), en(sums), yr(std::size_t(h * r * k));
          ops::heads_minor_from_heads<E>(h, k, &tok(0, 0), t.data());
          ops::heads_minor_to_heads<E>(h, k, t.data(), u.data());
          ops::heads_minor_gemm<E>(r, k, c, h, x.data(), z.data(), y.data());
          ops::heads_minor_gemm_nt<E>(r, k, c, h, x.data(), w.data(), y.data());
          ops::heads_minor_row_sums<E>(r, c, h, y.data(), sums.data());
          ops::heads_minor_scale_rows<E>(r, c, h, y.data(), sums.data(), y.data());
          ops::heads_minor_normalize_rows<E>(r, c, h, y.data(), sums.data());
          for (bool shifted : {false, true})
            ops::heads_minor_retro_update<E>(
                r, k, k, h, x.data(), &tok(0, 0), &tok(1, 0), &tok(2, 0), &tok(3, 0), eo.data(),
                en.data(), sums.data(), yr.data(), ops::Shift<S>{shifted, S(0.5)});
          ops::heads_minor_slide_sums<E>(r, k, h, eo.data(), en.data(), &tok(2, 0), &tok(3, 0),
                                         sums.data(), yr.data());
          ops::heads_minor_enter<E>(r, k, h, en.data(), &tok(3, 0), sums.data(), yr.data());
          ops::heads_minor_gemm_nt_shared<E>(k, c, h, t.data(), ws.topRows(c), y.data());
          for (bool shifted : {false, true})
            ops::heads_minor_key_exp<E>(c, k, h, t.data(), S(0.25), ops::Shift<S>{shifted, S(0.5)},
                                        y.data());
          ops::heads_minor_max_exp<E>(c, h, y.data());
          // att's window: n = c tokens of k features, every row and then all but the first
          std::vector<S> ring = minor_of(zs, h);
          ops::heads_panels_enter<E>(h, k, c, &tok(0, 0), ring.data(), c / 2);
          std::vector<S> work(std::size_t(ops::heads_attention_scratch<E>(c, k)));
          Mat<S> att(c, h * k);
          ops::heads_panels_attention<E>(c, k, h, ring.data(), ring.data(), ring.data(), S(0.5),
                                         c / 2, 0, c, att, work.data());
          ops::heads_panels_attention<E>(c, k, h, ring.data(), ring.data(), ring.data(), S(0.5),
                                         c / 2, 1, c - 1, att, work.data());
          std::vector<S> single(std::size_t(ops::heads_single_scratch<E>(k)));
          for (bool shifted : {false, true})
            ops::heads_panels_single<E>(c, k, h, &tok(1, 0), ring.data(), ring.data(), S(0.5),
                                        ops::Shift<S>{shifted, S(0.5)}, att.topRows(1),
                                        single.data());
        },
        "heads_minor_* h" + std::to_string(h) + " r" + std::to_string(r) + " k" +
            std::to_string(k) + " c" + std::to_string(c));
}

// Each head-minor op computes and counts what its per-head op does on every head's matrices;
// the copies between heads order and head-minor order are each other's inverse.
template <class E>
void expect_minor_ops_equal_per_head(const MinorShape& s, bool shifted, double tol) {
  using S = typename E::Scalar;
  const auto [h, r, k, c] = s;
  const Mat<S> xs = filled<S>(h * r, k, 64), zs = filled<S>(h * k, c, 65);
  const Mat<S> ws = filled<S>(h * c, k, 66), tok = filled<S>(4, h * k, 67);
  const Mat<S> ys = filled<S>(h * r, k, 68);
  const Mat<S> pos = filled<S>(h * r, c, 69) + Mat<S>::Constant(h * r, c, S(1));  // sums > 0
  const std::vector<S> x = minor_of(xs, h), z = minor_of(zs, h), w = minor_of(ws, h);
  std::vector<S> nn(std::size_t(h * r * c)), nt(nn), rs(std::size_t(h * r)), sc(nn), nrs(rs);
  std::vector<S> nr = minor_of(pos, h), eo(rs), en(rs), sums(rs), yr = minor_of(ys, h);
  for (std::int64_t i = 0; i < h; ++i)
    for (std::int64_t a = 0; a < r; ++a) sums[std::size_t(a * h + i)] = pos(i * r + a, 0);
  std::vector<std::vector<S>> tm;  // the four tokens head-minor
  for (std::int64_t j = 0; j < 4; ++j)
    tm.push_back(minor_of(Mat<S>(Eigen::Map<const Mat<S>>(&tok(j, 0), h, k)), h));
  const ops::Shift<S> shift{shifted, S(0.25)};
  const OpCounts c0 = thread_counts();
  ops::heads_minor_gemm<E>(r, k, c, h, x.data(), z.data(), nn.data());
  ops::heads_minor_gemm_nt<E>(r, k, c, h, x.data(), w.data(), nt.data());
  ops::heads_minor_row_sums<E>(r, c, h, nn.data(), rs.data());
  ops::heads_minor_scale_rows<E>(r, c, h, nn.data(), rs.data(), sc.data());
  ops::heads_minor_normalize_rows<E>(r, c, h, nr.data(), nrs.data());
  ops::heads_minor_retro_update<E>(r, k, k, h, x.data(), tm[0].data(), tm[1].data(), tm[2].data(),
                                   tm[3].data(), eo.data(), en.data(), sums.data(), yr.data(),
                                   shift);
  const OpCounts batched = thread_counts() - c0;
  std::vector<S> t(std::size_t(h * k)), back(t);
  ops::heads_minor_from_heads<E>(h, k, &tok(0, 0), t.data());
  ops::heads_minor_to_heads<E>(h, k, t.data(), back.data());
  for (std::int64_t i = 0; i < h; ++i)
    for (std::int64_t l = 0; l < k; ++l) {
      EXPECT_EQ(value_of(t[std::size_t(l * h + i)]), value_of(tok(0, i * k + l)));
      EXPECT_EQ(value_of(back[std::size_t(i * k + l)]), value_of(tok(0, i * k + l)));
    }
  OpCounts per_head;
  for (std::int64_t i = 0; i < h; ++i) {
    const MatCRef<S> xi = xs.middleRows(i * r, r);
    Mat<S> want_nn(r, c), want_nt(r, c), want_sc(r, c), want_nr = pos.middleRows(i * r, r);
    Mat<S> want_rs(r, 1), want_nrs(r, 1), want_eo(r, 1), want_en(r, 1), want_sums(r, 1);
    Mat<S> want_yr = ys.middleRows(i * r, r);
    for (std::int64_t a = 0; a < r; ++a) want_sums(a, 0) = pos(i * r + a, 0);
    const OpCounts c1 = thread_counts();
    ops::gemm_nn<E>(xi, zs.middleRows(i * k, k), want_nn);
    ops::gemm_nt<E>(xi, ws.middleRows(i * c, c), want_nt);
    ops::row_sums<E>(want_nn, want_rs.data());
    ops::scale_rows_into<E>(want_nn, want_rs.data(), want_sc);
    normalize_rows<E>(want_nr, want_nrs.data());
    ops::retro_update<E>(xi, &tok(0, i * k), &tok(1, i * k), &tok(2, i * k), &tok(3, i * k),
                         want_eo.data(), want_en.data(), want_sums.data(), want_yr, shift);
    per_head += thread_counts() - c1;
    expect_head_near(nn, h, i, want_nn, tol, "gemm");
    expect_head_near(nt, h, i, want_nt, tol, "gemm_nt");
    expect_head_near(rs, h, i, want_rs, tol, "row_sums");
    expect_head_near(sc, h, i, want_sc, tol, "scale_rows");
    expect_head_near(nr, h, i, want_nr, tol, "normalize_rows");
    expect_head_near(nrs, h, i, want_nrs, tol, "normalize_rows' sums");
    expect_head_near(eo, h, i, want_eo, tol, "retro_update's e_old");
    expect_head_near(en, h, i, want_en, tol, "retro_update's e_new");
    expect_head_near(sums, h, i, want_sums, tol, "retro_update's sums");
    expect_head_near(yr, h, i, want_yr, tol, "retro_update's y");
  }
  EXPECT_EQ(batched, per_head) << describe(batched) << " vs " << describe(per_head);
}

TEST(HeadsMinor, OpsEqualTheirPerHeadOps) {
  for (const MinorShape s : kMinorShapes) {
    SCOPED_TRACE("h " + std::to_string(s.h) + " r " + std::to_string(s.r) + " k " +
                 std::to_string(s.k) + " c " + std::to_string(s.c));
    for (bool shifted : {false, true}) {
      expect_minor_ops_equal_per_head<Tally<double>>(s, shifted, 1e-13);
      expect_minor_ops_equal_per_head<Tally<float>>(s, shifted, 1e-5);
      expect_minor_ops_equal_per_head<Exact>(s, shifted, 1e-13);
    }
  }
}

// The random-feature head-minor ops (corf_si's batched heads) compute and count what the
// heads-order batched ops do (ops/heads.hpp, themselves held to their per-head ops in
// tests/heads_seam_test.cpp): the key and query features of every head with one W, and the
// sums' slide and warm-up.
template <class E>
void expect_rf_minor_ops_equal_heads_order(std::int64_t h, std::int64_t m, std::int64_t dh,
                                           bool shifted, double tol) {
  using S = typename E::Scalar;
  using CMap = Eigen::Map<const Mat<S>>;
  const ops::Shift<S> shift{shifted, S(0.5)};
  const Mat<S> tok = filled<S>(4, h * dh, 70), w = filled<S>(m, dh, 71);
  const Mat<S> a_old = filled<S>(h * m, 1, 72), a_new = filled<S>(h * m, 1, 73);
  const Mat<S> sums0 = filled<S>(h * m, 1, 74), y0 = filled<S>(h * m, dh, 75);
  std::vector<std::vector<S>> t;  // the four tokens head-minor
  for (std::int64_t j = 0; j < 4; ++j) t.push_back(minor_of(Mat<S>(CMap(&tok(j, 0), h, dh)), h));
  // heads order: keys from row 0, queries from row 1, values leaving and entering rows 2, 3
  Mat<S> keys(h, m), queries(h, m), sums = sums0, y = y0, sums_in = sums0, y_in = y0;
  OpCounts want[4], got[4];
  OpCounts c0 = thread_counts();
  ops::gemm_nt<E>(CMap(&tok(0, 0), h, dh), w, keys);
  ops::heads_key_exp<E>(tok.row(0), S(0.25), shift, keys);
  want[0] = thread_counts() - c0, c0 = thread_counts();
  ops::gemm_nt<E>(CMap(&tok(1, 0), h, dh), w, queries);
  ops::heads_max_exp<E>(queries);
  want[1] = thread_counts() - c0, c0 = thread_counts();
  ops::heads_slide_sums<E>(h, a_old.data(), a_new.data(), &tok(2, 0), &tok(3, 0), sums.data(), y);
  want[2] = thread_counts() - c0, c0 = thread_counts();
  ops::add<E>(a_new.data(), sums_in.data(), h * m, +1);
  for (std::int64_t b = 0; b < h * m; ++b)
    ops::axpy<E>(a_new(b, 0), &tok(3, b / m * dh), &y_in(b, 0), dh, +1);
  want[3] = thread_counts() - c0, c0 = thread_counts();
  // head-minor
  std::vector<S> k_minor(std::size_t(h * m)), q_minor(k_minor);
  std::vector<S> s_minor = minor_of(sums0, h), y_minor = minor_of(y0, h);
  std::vector<S> s_in = s_minor, y_in_minor = y_minor;
  const std::vector<S> ao = minor_of(a_old, h), an = minor_of(a_new, h);
  ops::heads_minor_gemm_nt_shared<E>(dh, m, h, t[0].data(), w, k_minor.data());
  ops::heads_minor_key_exp<E>(m, dh, h, t[0].data(), S(0.25), shift, k_minor.data());
  got[0] = thread_counts() - c0, c0 = thread_counts();
  ops::heads_minor_gemm_nt_shared<E>(dh, m, h, t[1].data(), w, q_minor.data());
  ops::heads_minor_max_exp<E>(m, h, q_minor.data());
  got[1] = thread_counts() - c0, c0 = thread_counts();
  ops::heads_minor_slide_sums<E>(m, dh, h, ao.data(), an.data(), t[2].data(), t[3].data(),
                                 s_minor.data(), y_minor.data());
  got[2] = thread_counts() - c0, c0 = thread_counts();
  ops::heads_minor_enter<E>(m, dh, h, an.data(), t[3].data(), s_in.data(), y_in_minor.data());
  got[3] = thread_counts() - c0;
  for (int op = 0; op < 4; ++op)
    EXPECT_EQ(got[op], want[op]) << "op " << op << ": " << describe(got[op]) << " vs "
                                 << describe(want[op]);
  for (std::int64_t i = 0; i < h; ++i) {
    expect_head_near(k_minor, h, i, Mat<S>(keys.row(i).transpose()), tol, "key features");
    expect_head_near(q_minor, h, i, Mat<S>(queries.row(i).transpose()), tol, "query features");
    expect_head_near(s_minor, h, i, Mat<S>(sums.middleRows(i * m, m)), tol, "slid sums");
    expect_head_near(y_minor, h, i, Mat<S>(y.middleRows(i * m, m)), tol, "slid rows");
    expect_head_near(s_in, h, i, Mat<S>(sums_in.middleRows(i * m, m)), tol, "entered sums");
    expect_head_near(y_in_minor, h, i, Mat<S>(y_in.middleRows(i * m, m)), tol, "entered rows");
  }
}

TEST(HeadsMinor, RandomFeatureOpsEqualTheHeadsOrderOps) {
  for (const auto& [h, m, dh] : {std::tuple{1, 1, 1}, std::tuple{1, 5, 37}, std::tuple{3, 2, 5},
                                 std::tuple{16, 4, 12}, std::tuple{17, 3, 4}}) {
    SCOPED_TRACE("h " + std::to_string(h) + " m " + std::to_string(m) + " dh " +
                 std::to_string(dh));
    for (bool shifted : {false, true}) {
      expect_rf_minor_ops_equal_heads_order<Tally<double>>(h, m, dh, shifted, 1e-13);
      expect_rf_minor_ops_equal_heads_order<Tally<float>>(h, m, dh, shifted, 1e-5);
      expect_rf_minor_ops_equal_heads_order<Exact>(h, m, dh, shifted, 1e-13);
    }
  }
}

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
  ops::heads_minor_normalize_rows<E>(m, m, h, x.data(), work.data());
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

TEST(HeadsMinor, PseudoInversesEqualEachHeads) {
  for (const auto& [h, dh, m] :
       {std::tuple{1, 1, 1}, std::tuple{3, 5, 2}, std::tuple{16, 12, 4}, std::tuple{17, 3, 5}}) {
    SCOPED_TRACE("h " + std::to_string(h) + " dh " + std::to_string(dh) + " m " +
                 std::to_string(m));
    expect_heads_minor_pinv_equal_per_head<Tally<double>>(h, dh, m, 1e-10);
    expect_heads_minor_pinv_equal_per_head<Tally<float>>(h, dh, m, 1e-3);
    expect_heads_minor_pinv_equal_per_head<Exact>(h, dh, m, 1e-10);
  }
}

TEST(HeadsMinor, SegmentMeansOverColumnsEqualSegmentMeansOverRows) {
  for (const auto& [d, n] : {std::pair{1, 1}, std::pair{12, 7}, std::pair{192, 120}}) {
    SCOPED_TRACE("d " + std::to_string(d) + " n " + std::to_string(n));
    expect_segment_mean_cols_equal_segment_mean<Tally<double>>(d, n, 1e-13);
    expect_segment_mean_cols_equal_segment_mean<Tally<float>>(d, n, 1e-5);
    expect_segment_mean_cols_equal_segment_mean<Exact>(d, n, 1e-13);
  }
}

// The batched heads with the exact pseudo-inverse (a reference for plain scalars, taken a
// head at a time) give the outputs of h heads with it, step by step over several windows
// (the continual landmarks: several replacements).
TEST(HeadsMinor, ExactPseudoInverseHeadsEqualEachHeads) {
  for (const std::string id : {"ny", "cony_si_cont", "cony_re_cont"})
    for (const std::int64_t h : {1, 3, 4}) {
      SCOPED_TRACE(id);
      Config c{.n = 13, .d = 12 * h, .m = 3, .exact_pinv = true};
      auto batched = id == "ny"             ? make_ny_heads<Plain<double>>(c, h)
                     : id == "cony_si_cont" ? make_cony_si_cont_heads<Plain<double>>(c, h)
                                            : make_cony_re_cont_heads<Plain<double>>(c, h);
      Config hc = c;
      hc.d = 12;
      std::vector<std::unique_ptr<Attention<Plain<double>>>> heads;
      for (std::int64_t i = 0; i < h; ++i) heads.push_back(make_variant<Plain<double>>(id, hc));
      // Row-major: token t's q, k and v are the 3d contiguous elements of row t.
      const Mat<double> x = random_stream(4 * c.n, 3 * c.d, 9);
      std::int64_t compared = 0;
      for (std::int64_t t = 0; t < x.rows(); ++t) {
        const double* q = x.row(t).data();
        const bool ready = batched->step(q, q + c.d, q + 2 * c.d);
        for (std::int64_t i = 0; i < h; ++i) {
          const double* qi = q + i * hc.d;
          ASSERT_EQ(heads[i]->step(qi, qi + c.d, qi + 2 * c.d), ready);
          if (!ready) continue;
          const MatD want = heads[i]->output(), got = batched->output().middleCols(i * hc.d, hc.d);
          // The batched products sum in another order, and the exact pseudo-inverse amplifies
          // that by Gamma_phi's condition number (worst seen 2.3e-10 on these tokens).
          EXPECT_LE((got - want).norm(), 1e-9 * want.norm()) << "h " << h << " head " << i;
          ++compared;
        }
      }
      EXPECT_EQ(compared, h * (x.rows() - c.n + 1));
    }
}

}  // namespace
}  // namespace cosda::test
