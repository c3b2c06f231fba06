// cony_si_cont for h heads in one object: every head's Att_CoNySi^Cont (Nyström paper Sec.
// IV-A: Eq. 22 on landmark-update steps, Eq. 26 on the others) with its own continual
// landmarks, all heads' landmarks replaced on the same steps. MultiHead
// (attention/multi_head.hpp) steps this object instead of h CoNySiCont objects in the plain
// build. Every per-head matrix is head-minor (attention/ops_heads_minor.hpp), as in
// cony_si_fix_heads.hpp, so each op of a step runs on all heads at once; the landmark kernel's
// pseudo-inverses run head-minor too (ops_heads_landmarks.hpp). The operations are exactly
// those of h CoNySiCont heads (tests/heads_test.cpp). Input: q, k, v of width d, head i's
// features at [i dh, (i+1) dh); output 1 x d in the same order. State, head-minor: the K and
// V rings (n x dh) and Delta state of every head (DeltaHeads, attention/cony_heads_common.hpp),
// the last ceil(n/m) scaled queries, the landmarks (m x dh), Gamma, phi(Gamma), Gamma_phi^+.
#pragma once

#include <algorithm>
#include <cmath>

#include "attention/continual_landmarks.hpp"
#include "attention/cony_heads_common.hpp"
#include "attention/ops_heads_landmarks.hpp"

namespace cosda {

template <class E>
class CoNySiContHeads final : public Attention<E> {
 public:
  using S = typename E::Scalar;

  CoNySiContHeads(const Config& c, std::int64_t heads)
      : n_(c.n),
        d_(c.d),
        h_(heads),
        dh_(head_width(c, heads)),
        m_(c.m),
        recent_rows_((c.n + c.m - 1) / std::max<std::int64_t>(c.m, 1)),
        iterations_(c.pinv_iterations),
        sizes_(segment_sizes(c.n, c.m)),
        inv_sqrt_dh_(1.0 / std::sqrt(double(dh_))),
        delta_(n_, dh_, m_, h_, ops::shift_of<S>(c.exp_shift)),
        qt_(m_, d_),
        kt_(m_, d_),
        gamma_(1, h_ * m_ * m_),
        gphi_(1, h_ * m_ * m_),
        g_(1, h_ * m_ * m_),
        phi_gamma_(1, h_ * m_),
        inv_(1, h_ * m_),
        col_(1, h_ * m_),
        beta_(1, h_ * m_),
        row_(1, h_ * m_),
        sums_(1, h_ * m_),
        work_(1, 3 * h_ * m_ * m_),
        recent_q_(recent_rows_, d_),
        new_(2, d_),
        out_minor_(1, d_),
        out_(1, d_) {
    require(m_ >= 1 && m_ <= n_, "continual landmarks: needs 1 <= m <= n");
    if (c.exact_pinv) pinv_.emplace_back(m_, iterations_, true);
  }

  bool step(const S* q, const S* k, const S* v) override {
    const std::int64_t t = seen_, j = t % n_, r = t % recent_rows_;
    updated_ = t >= n_ && ++since_ == sizes_[std::size_t(next_)];
    delta_.slide(t, qt_.data(), k, v, updated_ ? next_ : -1);  // (Eqs. 24, 25)
    S* qs = &recent_q_(r, 0);
    ops::heads_minor_from_heads<E>(h_, dh_, q, qs);
    ops::scale<E>(qs, d_, inv_sqrt_dh_);
    if (t < n_) warm_landmark<E>(sizes_, t, qs, &delta_.k()(j, 0), d_, qt_.data(), kt_.data());
    if (++seen_ < n_) return false;
    if (t == n_ - 1) {
      prime();
    } else if (updated_) {
      const std::int64_t s = sizes_[std::size_t(next_)];
      segment_mean<E>(recent_q_, t - s + 1, s, &new_(0, 0));  // Eqs. 13-14
      segment_mean<E>(delta_.k(), t - s + 1, s, &new_(1, 0));
      replace(&new_(0, 0), &new_(1, 0));
    }
    // beta_i = rho(q_i, Kt_i), row_i = (beta_i / beta_i 1^T) G_i  (Eqs. 22, 23)
    ops::heads_minor_gemm_nt<E>(1, dh_, m_, h_, qs, kt_.data(), beta_.data());
    landmark_rows_heads<E>(m_, h_, beta_.data(), g_.data(), sums_.data(), row_.data(),
                           delta_.shift());
    delta_.attend(row_.data(), out_minor_.data());  // (Eqs. 22, 26)
    ops::heads_minor_to_heads<E>(h_, dh_, out_minor_.data(), out_.data());
    return true;
  }
  MatCRef<S> output() const override { return out_; }
  bool updated_landmarks() const override { return updated_; }

 private:
  // The end of the first window: Gamma, phi(Gamma), Gamma_phi^+ (Eq. 16), and every Delta row
  // over the window (Eqs. 17, 20).
  void prime() {
    ops::heads_minor_gemm_nt<E>(m_, dh_, m_, h_, qt_.data(), kt_.data(), gamma_.data());
    ops::exp_inplace<E>(gamma_.data(), h_ * m_ * m_, delta_.shift());
    ops::heads_minor_row_sums<E>(m_, m_, h_, gamma_.data(), phi_gamma_.data());
    refresh_pinv();
    delta_.recompute_rows(qt_.data(), 0, m_);
  }

  // The oldest landmark (slot next_) replaced in every head: Gamma's column and row of the
  // slot and phi(Gamma) (Eqs. 16, 19 corrected; ContinualLandmarks::replace), Gamma_phi^+,
  // Delta's row of the slot.
  void replace(const S* qt_new, const S* kt_new) {
    const std::int64_t l = next_, hm = h_ * m_;
    ops::copy<E>(qt_new, qt_new + d_, &qt_(l, 0));
    ops::copy<E>(kt_new, kt_new + d_, &kt_(l, 0));
    S* col = col_.data();  // rho(qt_i, kt_l) of every row i but l
    for_rows_except(m_, l, [&](std::int64_t first, std::int64_t count) {
      ops::heads_minor_gemm_nt<E>(count, dh_, 1, h_, qt_.data() + first * d_, &kt_(l, 0),
                                  col + first * h_);
      ops::exp_inplace<E>(col + first * h_, count * h_, delta_.shift());
      for (std::int64_t i = first; i < first + count; ++i) {
        S* gil = gamma_.data() + (i * m_ + l) * h_;
        ops::add<E>(gil, phi_gamma_.data() + i * h_, h_, -1);  // Eq. 19
        ops::add<E>(col + i * h_, phi_gamma_.data() + i * h_, h_, +1);
        ops::copy<E>(col + i * h_, col + (i + 1) * h_, gil);  // Eq. 16, column
      }
    });
    S* row = gamma_.data() + l * hm;  // Eq. 16, row
    ops::heads_minor_gemm_nt<E>(1, dh_, m_, h_, &qt_(l, 0), kt_.data(), row);
    ops::exp_inplace<E>(row, hm, delta_.shift());
    ops::heads_minor_row_sums<E>(1, m_, h_, row, phi_gamma_.data() + l * h_);
    refresh_pinv();
    since_ = 0;
    next_ = (next_ + 1) % m_;
    delta_.recompute_rows(qt_.data(), l, 1);  // Eqs. 17, 20
  }

  // Gamma_phi^+ of every head: phi(Gamma) inverted, Gamma's rows scaled, the pseudo-inverse.
  void refresh_pinv() {
    ops::reciprocals<E>(phi_gamma_.data(), inv_.data(), h_ * m_);
    ops::heads_minor_scale_rows<E>(m_, m_, h_, gamma_.data(), inv_.data(), gphi_.data());
    if (pinv_.empty()) {
      ops::heads_minor_pinv<E>(m_, h_, iterations_, gphi_.data(), g_.data(), work_.data());
      return;
    }
    // The exact pseudo-inverse, a head at a time, its scratch in work_ (idle in this mode).
    Eigen::Map<Mat<S>> x(work_.data(), m_, m_), z(work_.data() + m_ * m_, m_, m_);
    for (std::int64_t i = 0; i < h_; ++i) {
      for (std::int64_t a = 0; a < m_ * m_; ++a) x(a / m_, a % m_) = gphi_(0, a * h_ + i);
      pinv_[0].compute(x, z);
      for (std::int64_t a = 0; a < m_ * m_; ++a) g_(0, a * h_ + i) = z(a / m_, a % m_);
    }
  }

  std::int64_t n_, d_, h_, dh_, m_, recent_rows_, seen_ = 0, next_ = 0, since_ = 0;
  int iterations_;
  bool updated_ = false;
  std::vector<std::int64_t> sizes_;
  S inv_sqrt_dh_;
  DeltaHeads<E> delta_;
  // qt_, kt_: landmark l of every head in row l, head-minor (its m x dh matrices row-major).
  Mat<S> qt_, kt_, gamma_, gphi_, g_, phi_gamma_, inv_, col_, beta_, row_, sums_, work_;
  Mat<S> recent_q_, new_, out_minor_, out_;
  std::vector<Pinv<E>> pinv_;  // the exact pseudo-inverse (Config::exact_pinv) only
};

}  // namespace cosda
