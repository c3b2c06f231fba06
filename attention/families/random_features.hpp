// The random-feature family's feature map (rf, corf_si, corf_re): positive orthogonal random
// features, the Performer (FAVOR+) estimator of the softmax kernel,
//   phi(x) = exp(-|x|^2 / 2) / sqrt(m) [exp(w_1 . x), ..., exp(w_m . x)],
// E[phi(x) . phi(y)] = exp(x . y), at x = q / d^(1/4), y = k / d^(1/4): an unbiased estimate of
// exp(q . k / sqrt(d)). A window's random-feature attention is
//   out_i = phi(q_i) S / (phi(q_i) . z),  S = sum_j phi(k_j) v_j^T (m x d),  z = sum_j phi(k_j).
// Drawing (set-up, never counted): blocks of d x d standard normals, Gram-Schmidt-orthonormalised
// by row, each row rescaled to a chi(d) norm: every w_i is N(0, I_d), a block's rows orthogonal,
// the last block keeps m mod d rows. Normals: std::mt19937_64(feature_seed) and our own
// Box-Muller, not <random>'s distributions, so the features depend on (d, m, seed) alone on every
// standard library (up to libm's last bit). 1 / d^(1/4) is folded into the stored w_i.
// Per token (seam, counted), factors that cancel in the ratio left out:
//   query: u_i = exp(w_i . q' - max_l w_l . q'): exp(-|q'|^2 / 2) / sqrt(m) and exp(-max) cancel;
//          the features lie in (0, 1], the largest 1, so no overflow and no zero denominator
//          through the query. mul md, add m(d-1) + m, exp m, other m-1.
//   key:   u_i = exp(w_i . k' - |k'|^2 / 2 [- C]), |k'|^2 / 2 = (k . k) / (2 sqrt(d)); 1/sqrt(m)
//          cancels; the exponent is at most |w_i|^2 / 2 (chi-square, d degrees) whatever the key,
//          so overflow needs very wide heads. Config::exp_shift's fixed C cancels too, the same for
//          every token of a sliding window. mul md + d + 1, add m(d-1) + (d-1) + m [+ 1], exp m.
// Only the keys' features enter the sums, so only they can underflow; a window whose keys all do
// has no denominator, as exact attention without max-subtraction overflows.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>

#include "attention/attention.hpp"
#include "attention/counting/chain_tally.hpp"
#include "attention/families/window.hpp"
#include "attention/ops/seam.hpp"

namespace cosda {

// Standard normal draws from a std::mt19937_64: Box-Muller on 53-bit uniforms.
class FeatureNormal {
 public:
  explicit FeatureNormal(std::uint64_t seed) : rng_(seed) {}
  double operator()() {
    if (has_spare_) {
      has_spare_ = false;
      return spare_;
    }
    double u1 = 0;
    while (u1 == 0) u1 = uniform();
    const double u2 = uniform(), r = std::sqrt(-2.0 * std::log(u1));
    const double a = 2.0 * 3.14159265358979323846 * u2;
    spare_ = r * std::sin(a);
    has_spare_ = true;
    return r * std::cos(a);
  }

 private:
  double uniform() { return double(rng_() >> 11) * 0x1.0p-53; }  // [0, 1)
  std::mt19937_64 rng_;
  double spare_ = 0;
  bool has_spare_ = false;
};

// The m x d features w_i (unscaled), orthogonal in blocks of d, for (d, m, seed).
inline Mat<double> draw_random_features(std::int64_t d, std::int64_t m, std::uint64_t seed) {
  require(d >= 1 && m >= 1, "random features: needs d >= 1 and m >= 1");
  FeatureNormal normal(seed);
  Mat<double> w(m, d), block(d, d);
  for (std::int64_t first = 0; first < m; first += d) {
    for (std::int64_t i = 0; i < d; ++i)
      for (std::int64_t j = 0; j < d; ++j) block(i, j) = normal();
    for (std::int64_t i = 0; i < d; ++i) {  // Gram-Schmidt on the rows
      for (std::int64_t j = 0; j < i; ++j)
        block.row(i) -= block.row(i).dot(block.row(j)) * block.row(j);
      block.row(i).normalize();
    }
    for (std::int64_t i = 0; i < std::min(d, m - first); ++i) {
      double chi2 = 0;
      for (std::int64_t j = 0; j < d; ++j) {
        const double x = normal();
        chi2 += x * x;
      }
      w.row(first + i) = std::sqrt(chi2) * block.row(i);
    }
  }
  return w;
}

// One head's feature map in the policy's scalar: the features w_i / d^(1/4), per-token maps.
template <class E>
class FeatureMap {
 public:
  using S = typename E::Scalar;

  explicit FeatureMap(const Config& c)
      : d_(c.d),
        m_(c.m),
        half_inv_sqrt_d_(0.5 / std::sqrt(double(c.d))),
        w_(c.m, c.d),
        shift_(ops::shift_of<S>(c.exp_shift)) {
    require(c.m >= 1, "random features: needs m >= 1");
    const Mat<double> w = draw_random_features(c.d, c.m, c.feature_seed);
    const double s = 1.0 / std::sqrt(std::sqrt(double(c.d)));
    w_ = (w * s).template cast<S>();
  }

  // The features w_i / d^(1/4) (m x d) and 1 / (2 sqrt(d)), the keys' offset per unit of k . k.
  const Mat<S>& features() const { return w_; }
  S key_scale() const { return half_inv_sqrt_d_; }

  // u (m) = the query features of q (d), up to a positive factor of q's own.
  void query(const S* q, S* u) const {
    ops::gemm_nt<E>(CRow(q, 1, d_), w_, Row(u, 1, m_));
    stabilise_query(u);
  }

  // u (n x m): the features of a ring of n queries in window order (`oldest`: the oldest's slot);
  // counts as n query() calls.
  void queries(MatCRef<S> ring, std::int64_t oldest, MatRef<S> u) const {
    for_ring_in_window_order(
        ring.rows(), oldest, [&](std::int64_t first, std::int64_t count, std::int64_t row) {
          ops::gemm_nt<E>(ring.middleRows(first, count), w_, u.middleRows(row, count));
        });
    for (std::int64_t i = 0; i < u.rows(); ++i) stabilise_query(&u(i, 0));
  }

  // ut (m x n): the features of n keys (rows of k, any order) as columns, h (n) scratch: per key,
  // W k, its offset and m exponentials. The offsets split among the threads in the timed build.
  void keys_transposed(MatCRef<S> k, S* h, MatRef<S> ut) const {
    const std::int64_t n = k.rows();
    ops::gemm_nt<E>(w_, k, ut);
    ops::split_pass<E>(n, k.size(), [&](std::int64_t first, std::int64_t count) {
      for (std::int64_t j = first; j < first + count; ++j)
        ops::store<E>(key_offset(k.row(j).data()), &h[j]);
    });
    for (std::int64_t i = 0; i < m_; ++i) {
      ops::add<E>(h, &ut(i, 0), n, -1);
      ops::exp_inplace<E>(&ut(i, 0), n);
    }
  }

 private:
  using Row = Eigen::Map<Mat<S>>;
  using CRow = Eigen::Map<const Mat<S>>;

  // u <- exp(u - max u).
  void stabilise_query(S* u) const {
    const S top = ops::max_value<E>(u, m_);
    ops::exp_inplace<E>(u, m_, ops::Shift<S>{true, top});
  }
  // |k'|^2 / 2 [+ C] = (k . k) / (2 sqrt(d)) [+ C].
  S key_offset(const S* k) const {
    S h = ops::product<E>(ops::dot<E>(k, k, d_), half_inv_sqrt_d_);
    return shift_.on ? ops::plus<E>(h, shift_.c) : h;
  }

  std::int64_t d_, m_;
  S half_inv_sqrt_d_;
  Mat<S> w_;  // m x d: w_i / d^(1/4)
  ops::Shift<S> shift_;
};

// The running sums of a window, S = sum_j phi(k_j) v_j^T (m x d) and z = sum_j phi(k_j) (m),
// and the outputs they give: out_i = u_i S / (u_i . z) for query features u (rows).
template <class E>
struct FeatureSums {
  using S = typename E::Scalar;
  Mat<S> s, z;  // m x d, m x 1

  FeatureSums(std::int64_t m, std::int64_t d) : s(m, d), z(m, 1) {
    s.setConstant(S(0.0));
    z.setConstant(S(0.0));
  }

  // The sums from scratch: the n keys' features into ut (m x n; h: n, scratch), S = ut v, z = ut 1.
  // keys_transposed's counts + mul m d n, add m d (n-1) + m (n-1).
  void recompute(const FeatureMap<E>& f, MatCRef<S> k, MatCRef<S> v, S* h, MatRef<S> ut) {
    f.keys_transposed(k, h, ut);
    const ChainScope<E> chain("phi(K)^T V");
    ops::gemm_nn<E>(ut, v, s);
    ops::row_sums<E>(ut, z.data());
  }

  // out (r x d) = rows of u (r x m, oldest from ring slot `oldest`) against the sums; den (r)
  // scratch; the last scaling splits among the threads in the timed build.
  // mul r d m + r m + r d, add r d (m-1) + r (m-1), div r.
  void attend(MatCRef<S> u, S* den, MatRef<S> out, std::int64_t oldest = 0) const {
    const std::int64_t r = u.rows();
    for_ring_in_window_order(
        r, oldest, [&](std::int64_t first, std::int64_t count, std::int64_t row) {
          {
            const ChainScope<E> chain("D phi(Q) S");
            ops::gemm_nn<E>(u.middleRows(first, count), s, out.middleRows(row, count));
          }
          ops::gemm_nn<E>(u.middleRows(first, count), z, Eigen::Map<Mat<S>>(den + row, count, 1));
        });
    ops::reciprocals<E>(den, den, r);
    const ChainScope<E> chain("D phi(Q) S");
    ops::split_pass<E>(r, out.size(), [&](std::int64_t first, std::int64_t count) {
      ops::scale_rows<E>(out.middleRows(first, count), den + first);
    });
  }
};

}  // namespace cosda
