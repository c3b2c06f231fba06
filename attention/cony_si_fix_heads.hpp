// cony_si_fix for h heads in one object: every head's ((beta_phi)_new Gamma_phi^+) Delta_phi V
// with its own fixed landmarks (Nyström paper Eq. 26, per head; CoTrans Eq. 9 without the
// projections), Delta V and phi(Delta) slid per step (Eqs. 24-25). MultiHead
// (attention/multi_head.hpp) steps this object instead of h CoNySiFix objects in the plain
// build. Every matrix is head-minor (attention/ops_heads_minor.hpp), so each op of the step
// runs on all heads at once, a vector of heads wide, where a head's rows are 12 features and
// 4 landmarks wide at Table III. The operations are exactly those of h CoNySiFix heads
// (tests/heads_test.cpp). Input: q, k, v of width d, head i's features at [i dh, (i+1) dh).
// Output 1 x d in the same order. State, head-minor: the landmarks and Gamma_phi^+ of every
// head, and its Delta state (DeltaHeads, attention/cony_heads_common.hpp).
#pragma once

#include <cmath>

#include "attention/cony_heads_common.hpp"
#include "attention/ny_fix.hpp"

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
        delta_(n_, dh_, m_, h_, ops::shift_of<S>(c.exp_shift)),
        qt_(1, h_ * m_ * dh_),
        ktt_(1, h_ * dh_ * m_),
        g_(1, h_ * m_ * m_),
        beta_(1, h_ * m_),
        row_(1, h_ * m_),
        sums_(1, h_ * m_),
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
    delta_.slide(seen_, qt_.data(), k, v, -1);  // (Eqs. 24, 25)
    if (++seen_ < n_) return false;
    if (seen_ == n_) delta_.recompute_rows(qt_.data(), 0, m_);  // (Eqs. 17, 20)
    // beta_i = q_i Kt_i^T / sqrt(dh), row_i = (beta_i / beta_i 1^T) G_i  (Eqs. 22, 23)
    ops::heads_minor_from_heads<E>(h_, dh_, q, q_.data());
    ops::scale<E>(q_.data(), d_, inv_sqrt_dh_);
    ops::heads_minor_gemm<E>(1, dh_, m_, h_, q_.data(), ktt_.data(), beta_.data());
    landmark_rows_heads<E>(m_, h_, beta_.data(), g_.data(), sums_.data(), row_.data(),
                           delta_.shift());
    delta_.attend(row_.data(), out_minor_.data());  // (Eq. 26)
    ops::heads_minor_to_heads<E>(h_, dh_, out_minor_.data(), out_.data());
    return true;
  }
  MatCRef<S> output() const override { return out_; }

 private:
  std::int64_t n_, d_, h_, dh_, m_, seen_ = 0;
  S inv_sqrt_dh_;
  DeltaHeads<E> delta_;
  Mat<S> qt_, ktt_, g_, beta_, row_, sums_, q_, out_minor_, out_;
};

}  // namespace cosda
