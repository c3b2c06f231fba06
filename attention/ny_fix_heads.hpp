// ny_fix for h heads in one object: every head's Att_Ny^Fix = B_phi Gamma_phi^+ (Delta_phi V)
// over the window with its own fixed landmarks (Nyström paper Eqs. 8-12, per head; CoTrans
// Eq. 9 without the projections). MultiHead (attention/multi_head.hpp) steps this object
// instead of h NyFix objects in the plain build: one chain of seam ops per step instead of h,
// every product on rows of n tokens instead of dh features. The operations are exactly those
// of h NyFix heads (tests/heads_test.cpp).
// Input: q, k, v of width d, head i's features at [i dh, (i+1) dh). Output n x d in window
// order. State: Q, K and V rings (d x n, a token per column) and the landmarks landmark-major:
// row l of Q~ and K~ (m x d) holds every head's landmark l, row l h + i of an h m-row matrix
// is head i's row l.
#pragma once

#include <cmath>

#include "attention/ny_fix.hpp"
#include "attention/ops_heads.hpp"
#include "attention/window_heads.hpp"

namespace cosda {

template <class E>
class NyFixHeads final : public WindowHeads<E, NyFixHeads<E>> {
 public:
  using S = typename E::Scalar;

  // c.d is the full width; heads must divide it. c.fixed_q and c.fixed_k are m x d, sliced
  // per head as MultiHead slices them.
  NyFixHeads(const Config& c, std::int64_t heads)
      : WindowHeads<E, NyFixHeads<E>>(c, heads),
        d_(c.d),
        m_(c.m),
        inv_sqrt_dh_(1.0 / std::sqrt(double(dh_))),
        qt_(m_, d_),
        kt_(m_, d_),
        gt_(h_ * m_, m_),
        qs_(d_, n_),
        bt_(h_ * m_, n_),
        bgt_(h_ * m_, n_),
        delta_(h_ * m_, n_),
        sums_(h_, n_),
        phi_(1, h_ * m_),
        dv_(m_, d_),
        out_(n_, d_) {
    for (std::int64_t i = 0; i < h_; ++i) {  // each head's landmarks and Gamma_phi^+
      const FixedLandmarks<E> head(head_config(c, heads, i));
      qt_.middleCols(i * dh_, dh_) = head.qt;
      kt_.middleCols(i * dh_, dh_) = head.kt;
      gt_.middleRows(i * m_, m_) = head.g.transpose();
    }
  }

  MatCRef<S> output() const override { return out_; }

 private:
  friend WindowHeads<E, NyFixHeads<E>>;
  using Base = WindowHeads<E, NyFixHeads<E>>;
  using Base::n_, Base::h_, Base::dh_, Base::q_, Base::k_, Base::v_;

  // Att_Ny^Fix of heads [first, first + count) over the window into their columns of out_.
  void attend(std::int64_t first, std::int64_t count) {
    const std::int64_t f = first * dh_, w = count * dh_;
    // B_phi^T, row l h + i = head i's exp(Kt_il Q_i^T / sqrt(dh)) over the ring   (Eq. 10)
    ops::scale_into<E>(q_.middleRows(f, w), inv_sqrt_dh_, qs_.middleRows(f, w));
    for (std::int64_t l = 0; l < m_; ++l) {
      const MatRef<S> b = bt_.middleRows(l * h_ + first, count);
      ops::heads_gemm_nn<E>(kt_.row(l).segment(f, w), qs_.middleRows(f, w), b);
      ops::exp_inplace<E>(b);
    }
    normalise_landmarks(first, count);
    ops::heads_gemm_lm<E>(gt_, bt_, bgt_, first, count);  // (B_phi Gamma_phi^+)^T   (Eq. 8)
    // Delta_phi V = diag(phi(Delta))^-1 Delta V, row l of every head side by side   (Eq. 12)
    for (std::int64_t l = 0; l < m_; ++l) {
      const MatRef<S> delta = delta_.middleRows(l * h_ + first, count);
      S* phi = phi_.data() + l * h_ + first;
      ops::heads_exp_scores<E>(qt_.row(l).segment(f, w), k_.middleRows(f, w), delta, phi, {});
      ops::heads_gemm_nt<E>(delta, v_.middleRows(f, w), dv_.row(l).segment(f, w));
      ops::reciprocals<E>(phi, phi, count);
      ops::scale_rows<E>(Eigen::Map<Mat<S>>(dv_.data() + (l * h_ + first) * dh_, count, dh_), phi);
    }
    // out_i = (B_phi Gamma_phi^+)_i (Delta_phi V)_i in window order   (Eq. 8)
    ops::heads_ring_gemm_lm<E>(bgt_, dv_, this->seen() % n_, out_, first, count);
  }

  // Every head's B rows divided by their sums over the head's m landmarks (normalize_rows of
  // each head's n x m B, here along columns).
  void normalise_landmarks(std::int64_t first, std::int64_t count) {
    const std::int64_t size = count * n_;
    const auto rows = [&](std::int64_t l) { return bt_.data() + (l * h_ + first) * n_; };
    S* sums = sums_.data() + first * n_;
    ops::copy<E>(rows(0), rows(0) + size, sums);
    for (std::int64_t l = 1; l < m_; ++l) ops::add<E>(rows(l), sums, size);
    ops::reciprocals<E>(sums, sums, size);
    for (std::int64_t l = 0; l < m_; ++l) ops::multiply<E>(sums, rows(l), size);
  }

  std::int64_t d_, m_;
  S inv_sqrt_dh_;
  Mat<S> qt_, kt_, gt_, qs_, bt_, bgt_, delta_, sums_, phi_, dv_, out_;
};

}  // namespace cosda
