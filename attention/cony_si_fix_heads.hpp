// cony_si_fix for h heads in one object: every head's ((beta_phi)_new Gamma_phi^+) Delta_phi V
// with its own fixed landmarks (Nyström paper Eq. 26, per head; CoTrans Eq. 9 without the
// projections), Delta V and phi(Delta) slid per step (Eqs. 24-25). MultiHead
// (attention/multi_head.hpp) steps this object instead of h CoNySiFix objects in the plain
// build. Every matrix is head-minor (attention/ops_heads_minor.hpp), so each op of the step
// runs on all heads at once, a vector of heads wide, where a head's rows are 12 features and
// 4 landmarks wide at Table III. The operations are exactly those of h CoNySiFix heads
// (tests/heads_test.cpp). Input: q, k, v of width d, head i's features at [i dh, (i+1) dh).
// Output 1 x d in the same order. State, head-minor: the K and V rings (n x dh), landmarks,
// Gamma_phi^+, Delta V (m x dh) and phi(Delta) (m x 1) of every head.
#pragma once

#include <cmath>

#include "attention/cony_common.hpp"
#include "attention/ny_fix.hpp"
#include "attention/ops_heads_minor.hpp"

namespace cosda {

template <class E>
class CoNySiFixHeads final : public Attention<E> {
 public:
  using S = typename E::Scalar;

  // c.d is the full width; heads must divide it. c.fixed_q and c.fixed_k are m x d, sliced
  // per head as MultiHead slices them.
  CoNySiFixHeads(const Config& c, std::int64_t heads)
      : n_(c.n),
        d_(c.d),
        h_(heads),
        dh_(head_width(c, heads)),
        m_(c.m),
        inv_sqrt_dh_(1.0 / std::sqrt(double(dh_))),
        shift_(ops::shift_of<S>(c.exp_shift)),
        qt_(1, h_ * m_ * dh_),
        ktt_(1, h_ * dh_ * m_),
        g_(1, h_ * m_ * m_),
        dv_(1, h_ * m_ * dh_),
        dvn_(1, h_ * m_ * dh_),
        phi_(1, h_ * m_),
        inv_(1, h_ * m_),
        e_old_(1, h_ * m_),
        e_new_(1, h_ * m_),
        beta_(1, h_ * m_),
        row_(1, h_ * m_),
        sums_(1, h_),
        k_(n_, d_),
        v_(n_, d_),
        k_new_(1, d_),
        v_new_(1, d_),
        q_(1, d_),
        out_minor_(1, d_),
        out_(1, d_) {
    for (std::int64_t i = 0; i < h_; ++i) {  // each head's landmarks and Gamma_phi^+
      const FixedLandmarks<E> head(head_config(c, heads, i));
      for (std::int64_t a = 0; a < m_; ++a) {
        for (std::int64_t l = 0; l < dh_; ++l) {
          qt_((a * dh_ + l) * h_ + i) = head.qt(a, l);
          ktt_((l * m_ + a) * h_ + i) = head.kt(a, l);  // Kt_i^T, dh x m
        }
        for (std::int64_t b = 0; b < m_; ++b) g_((a * m_ + b) * h_ + i) = head.g(a, b);
      }
    }
  }

  bool step(const S* q, const S* k, const S* v) override {
    slide(k, v);
    if (++seen_ < n_) return false;
    if (seen_ == n_) prime();
    // row_i = (beta_i / beta_i 1^T) G_i with beta_i = exp(q_i Kt_i^T / sqrt(dh))  (Eqs. 22, 23)
    ops::heads_minor_from_heads<E>(h_, dh_, q, q_.data());
    ops::scale<E>(q_.data(), d_, inv_sqrt_dh_);
    ops::heads_minor_gemm<E>(1, dh_, m_, h_, q_.data(), ktt_.data(), beta_.data());
    ops::exp_inplace<E>(beta_.data(), h_ * m_, shift_);
    ops::heads_minor_normalize_rows<E>(1, m_, h_, beta_.data(), sums_.data());
    ops::heads_minor_gemm<E>(1, m_, m_, h_, beta_.data(), g_.data(), row_.data());
    // out_i = row_i diag(phi(Delta)_i)^-1 Delta V_i  (Eq. 26)
    ops::reciprocals<E>(phi_.data(), inv_.data(), h_ * m_);
    ops::heads_minor_scale_rows<E>(m_, dh_, h_, dv_.data(), inv_.data(), dvn_.data());
    ops::heads_minor_gemm<E>(1, m_, dh_, h_, row_.data(), dvn_.data(), out_minor_.data());
    ops::heads_minor_to_heads<E>(h_, dh_, out_minor_.data(), out_.data());
    return true;
  }
  MatCRef<S> output() const override { return out_; }

 private:
  // The token after seen_ enters ring slot seen_ % n; once the window is full, the slot's
  // k_old, v_old first leave every head's Delta V and phi(Delta)  (Eqs. 24, 25).
  void slide(const S* k, const S* v) {
    const std::int64_t j = seen_ % n_;
    if (seen_ < n_) {
      ops::heads_minor_from_heads<E>(h_, dh_, k, &k_(j, 0));
      ops::heads_minor_from_heads<E>(h_, dh_, v, &v_(j, 0));
      return;
    }
    ops::heads_minor_from_heads<E>(h_, dh_, k, k_new_.data());
    ops::heads_minor_from_heads<E>(h_, dh_, v, v_new_.data());
    ops::heads_minor_retro_update<E>(m_, dh_, dh_, h_, qt_.data(), &k_(j, 0), k_new_.data(),
                                     &v_(j, 0), v_new_.data(), e_old_.data(), e_new_.data(),
                                     phi_.data(), dv_.data(), shift_);
    ops::copy<E>(k_new_.data(), k_new_.data() + d_, &k_(j, 0));
    ops::copy<E>(v_new_.data(), v_new_.data() + d_, &v_(j, 0));
  }

  // Every head's Delta V and phi(Delta) from scratch over the first window, as
  // DeltaState::recompute_row computes them: a = exp(Qt K^T), phi = a 1, Delta V = a V
  // (Eqs. 17, 20). The window's scores (m x n per head) live for this step only.
  void prime() {
    Mat<S> a(1, h_ * m_ * n_);
    ops::heads_minor_gemm_nt<E>(m_, dh_, n_, h_, qt_.data(), k_.data(), a.data());
    ops::exp_inplace<E>(a.data(), a.size(), shift_);
    ops::heads_minor_row_sums<E>(m_, n_, h_, a.data(), phi_.data());
    ops::heads_minor_gemm<E>(m_, n_, dh_, h_, a.data(), v_.data(), dv_.data());
  }

  std::int64_t n_, d_, h_, dh_, m_, seen_ = 0;
  S inv_sqrt_dh_;
  ops::Shift<S> shift_;  // Config::exp_shift
  Mat<S> qt_, ktt_, g_, dv_, dvn_, phi_, inv_, e_old_, e_new_, beta_, row_, sums_;
  Mat<S> k_, v_, k_new_, v_new_, q_, out_minor_, out_;
};

}  // namespace cosda
