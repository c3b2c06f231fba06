// cony_re_fix for h heads in one object: every head's (B_phi Gamma_phi^+) Delta_phi V with its
// own fixed landmarks (Nyström paper Eq. 23, per head; CoTrans Eq. 9 without the projections),
// the newest query's row of B_phi Gamma_phi^+ computed as it arrives and kept, Delta V and
// phi(Delta) slid per step (Eqs. 24-25). MultiHead (attention/multi_head.hpp) steps this object
// instead of h CoNyReFix objects in the plain build: one chain of seam ops per step instead of
// h, the n x d output in one call. The operations are exactly those of h CoNyReFix heads
// (tests/heads_test.cpp).
// Input: q, k, v of width d, head i's features at [i dh, (i+1) dh). Output n x d in window
// order, head i's at columns [i dh, (i+1) dh). State: K and V rings (n x d), the rows of
// B_phi Gamma_phi^+ (n x h m, a ring slot per row, head i's m at columns [i m, (i+1) m)), and
// per head i the rows [i m, (i+1) m) of the landmarks, of Gamma_phi^+, of Delta V and of
// phi(Delta).
#pragma once

#include <cmath>

#include "attention/cony_common.hpp"
#include "attention/ny_fix.hpp"
#include "attention/ops_heads.hpp"

namespace cosda {

template <class E>
class CoNyReFixHeads final : public Attention<E> {
 public:
  using S = typename E::Scalar;

  // c.d is the full width; heads must divide it. c.fixed_q and c.fixed_k are m x d, sliced
  // per head as MultiHead slices them.
  CoNyReFixHeads(const Config& c, std::int64_t heads)
      : n_(c.n),
        d_(c.d),
        h_(heads),
        dh_(head_width(c, heads)),
        m_(c.m),
        inv_sqrt_dh_(1.0 / std::sqrt(double(dh_))),
        qt_(h_ * m_, dh_),
        kt_(h_ * m_, dh_),
        g_(h_ * m_, m_),
        dv_(h_ * m_, dh_),
        dvn_(h_ * m_, dh_),
        phi_(1, h_ * m_),
        inv_(1, h_ * m_),
        e_old_(1, h_ * m_),
        e_new_(1, h_ * m_),
        k_(n_, d_),
        v_(n_, d_),
        bg_(n_, h_ * m_),
        q_(1, d_),
        a_(1, n_),
        beta_(1, h_ * m_),
        scratch_(1, h_ * m_),
        sums_(1, h_),
        out_(n_, d_),
        shift_(ops::shift_of<S>(c.exp_shift)) {
    for (std::int64_t i = 0; i < h_; ++i) {  // each head's landmarks and Gamma_phi^+
      Config hc = c;
      hc.d = dh_;
      if (c.fixed_q.size() > 0) {
        hc.fixed_q = c.fixed_q.middleCols(i * dh_, dh_);
        hc.fixed_k = c.fixed_k.middleCols(i * dh_, dh_);
      }
      const FixedLandmarks<E> head(hc);
      qt_.middleRows(i * m_, m_) = head.qt;
      kt_.middleRows(i * m_, m_) = head.kt;
      g_.middleRows(i * m_, m_) = head.g;
    }
  }

  bool step(const S* q, const S* k, const S* v) override {
    const std::int64_t j = seen_ % n_;
    if (seen_ >= n_)  // k_old, v_old leave every head's Delta V and phi(Delta)
      ops::heads_retro_update<E>(h_, qt_, &k_(j, 0), k, &v_(j, 0), v, e_old_.data(), e_new_.data(),
                                 phi_.data(), dv_, shift_);
    ops::copy<E>(k, k + d_, &k_(j, 0));
    ops::copy<E>(v, v + d_, &v_(j, 0));
    ops::copy<E>(q, q + d_, q_.data());
    ops::scale<E>(q_.data(), d_, inv_sqrt_dh_);
    // beta_i = exp(q_i Kt_i^T), (B_phi Gamma_phi^+)_i row j = (beta_i / beta_i 1^T) G_i
    // (Eqs. 22, 23, 26), every head's m entries side by side in ring slot j's row
    ops::heads_gemm_nt<E>(Eigen::Map<const Mat<S>>(q_.data(), h_, dh_), kt_, beta_);
    ops::exp_inplace<E>(beta_.data(), h_ * m_, shift_);
    Eigen::Map<Mat<S>> beta(beta_.data(), h_, m_), scratch(scratch_.data(), h_, m_);
    ops::row_sums<E>(beta, sums_.data());
    ops::reciprocals<E>(sums_.data(), sums_.data(), h_);
    ops::scale_rows_into<E>(beta, sums_.data(), scratch);
    ops::heads_gemm_nn<E>(scratch_, g_, Eigen::Map<Mat<S>>(&bg_(j, 0), h_, m_));
    if (++seen_ < n_) return false;
    if (seen_ == n_) prime();
    // Delta_phi V = diag(phi(Delta))^-1 Delta V, out_i = (B_phi Gamma_phi^+)_i (Delta_phi V)_i
    // in window order  (Eq. 23)
    ops::reciprocals<E>(phi_.data(), inv_.data(), h_ * m_);
    ops::scale_rows_into<E>(dv_, inv_.data(), dvn_);
    ops::heads_ring_gemm_nn<E>(bg_, dvn_, seen_ % n_, out_);
    return true;
  }
  MatCRef<S> output() const override { return out_; }

 private:
  // Every head's Delta V and phi(Delta) from scratch over the first window, row by row as
  // DeltaState::recompute_row computes them  (Eqs. 17, 20).
  void prime() {
    for (std::int64_t i = 0; i < h_; ++i) {
      const MatCRef<S> k = k_.middleCols(i * dh_, dh_), v = v_.middleCols(i * dh_, dh_);
      for (std::int64_t l = i * m_; l < (i + 1) * m_; ++l) {
        ops::gemm_nt<E>(qt_.row(l), k, a_);
        ops::exp_inplace<E>(a_.data(), n_, shift_);
        ops::store<E>(ops::sum<E>(a_.data(), n_), &phi_(0, l));
        ops::gemm_nn<E>(a_, v, dv_.row(l));
      }
    }
  }

  std::int64_t n_, d_, h_, dh_, m_, seen_ = 0;
  S inv_sqrt_dh_;
  Mat<S> qt_, kt_, g_, dv_, dvn_, phi_, inv_, e_old_, e_new_;
  Mat<S> k_, v_, bg_, q_, a_, beta_, scratch_, sums_, out_;
  ops::Shift<S> shift_;  // Config::exp_shift
};

}  // namespace cosda
