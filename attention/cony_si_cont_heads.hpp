// cony_si_cont for h heads in one object: every head's Att_CoNySi^Cont (Nyström paper Sec.
// IV-A: Eq. 22 on landmark-update steps, Eq. 26 on the others) with its own continual
// landmarks, all heads' landmarks replaced on the same steps. MultiHead
// (attention/multi_head.hpp) steps this object instead of h CoNySiCont objects in the plain
// build. Every per-head matrix is head-minor (attention/ops_heads_minor.hpp), as in
// cony_si_fix_heads.hpp, so each op of a step runs on all heads at once; the landmark kernel's
// pseudo-inverses run head-minor too (ops_heads_landmarks.hpp). The operations are exactly
// those of h CoNySiCont heads (tests/heads_test.cpp). Input: q, k, v of width d, head i's
// features at [i dh, (i+1) dh); output 1 x d in the same order. State, head-minor: the K and
// V rings (n x dh), the last ceil(n/m) scaled queries, the landmarks (m x dh), Gamma,
// phi(Gamma), Gamma_phi^+, Delta V and phi(Delta) of every head.
#pragma once

#include <algorithm>
#include <cmath>

#include "attention/cony_common.hpp"
#include "attention/landmarks.hpp"
#include "attention/ops_heads_landmarks.hpp"
#include "attention/ops_heads_minor.hpp"

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
        shift_(ops::shift_of<S>(c.exp_shift)),
        qt_(m_, d_),
        kt_(m_, d_),
        gamma_(1, h_ * m_ * m_),
        gphi_(1, h_ * m_ * m_),
        g_(1, h_ * m_ * m_),
        phi_gamma_(1, h_ * m_),
        dv_(1, h_ * m_ * dh_),
        dvn_(1, h_ * m_ * dh_),
        phi_(1, h_ * m_),
        inv_(1, h_ * m_),
        e_old_(1, h_ * m_),
        e_new_(1, h_ * m_),
        beta_(1, h_ * m_),
        row_(1, h_ * m_),
        sums_(1, h_ * m_),
        a_(1, h_ * std::max(n_, m_)),
        work_(1, 3 * h_ * m_ * m_),
        k_(n_, d_),
        v_(n_, d_),
        recent_q_(recent_rows_, d_),
        new_(2, d_),
        k_new_(1, d_),
        v_new_(1, d_),
        out_minor_(1, d_),
        out_(1, d_) {
    require(m_ >= 1 && m_ <= n_, "continual landmarks: needs 1 <= m <= n");
    if (c.exact_pinv) pinv_.emplace_back(m_, iterations_, true);
  }

  bool step(const S* q, const S* k, const S* v) override {
    const std::int64_t t = seen_, j = t % n_, r = t % recent_rows_;
    updated_ = false;
    ops::heads_minor_from_heads<E>(h_, dh_, k, k_new_.data());
    ops::heads_minor_from_heads<E>(h_, dh_, v, v_new_.data());
    if (t >= n_) {
      updated_ = ++since_ == sizes_[std::size_t(next_)];
      slide(j, updated_ ? next_ : -1);  // (Eqs. 24, 25)
    }
    ops::copy<E>(k_new_.data(), k_new_.data() + d_, &k_(j, 0));
    ops::copy<E>(v_new_.data(), v_new_.data() + d_, &v_(j, 0));
    S* qs = &recent_q_(r, 0);
    ops::heads_minor_from_heads<E>(h_, dh_, q, qs);
    ops::scale<E>(qs, d_, inv_sqrt_dh_);
    if (t < n_) warm(qs, k_new_.data(), t);
    if (++seen_ < n_) return false;
    if (t == n_ - 1) {
      prime();
    } else if (updated_) {
      const std::int64_t s = sizes_[std::size_t(next_)];
      segment_mean<E>(recent_q_, t - s + 1, s, &new_(0, 0));  // Eqs. 13-14
      segment_mean<E>(k_, t - s + 1, s, &new_(1, 0));
      replace(&new_(0, 0), &new_(1, 0));
    }
    // row_i = (beta_i / beta_i 1^T) G_i, beta_i = rho(q_i, Kt_i)  (Eqs. 22, 23, 26)
    ops::heads_minor_gemm_nt<E>(1, dh_, m_, h_, qs, kt_.data(), beta_.data());
    ops::exp_inplace<E>(beta_.data(), h_ * m_, shift_);
    ops::heads_minor_normalize_rows<E>(1, m_, h_, beta_.data(), sums_.data());
    ops::heads_minor_gemm<E>(1, m_, m_, h_, beta_.data(), g_.data(), row_.data());
    ops::reciprocals<E>(phi_.data(), inv_.data(), h_ * m_);
    ops::heads_minor_scale_rows<E>(m_, dh_, h_, dv_.data(), inv_.data(), dvn_.data());
    ops::heads_minor_gemm<E>(1, m_, dh_, h_, row_.data(), dvn_.data(), out_minor_.data());
    ops::heads_minor_to_heads<E>(h_, dh_, out_minor_.data(), out_.data());
    return true;
  }
  MatCRef<S> output() const override { return out_; }
  bool updated_landmarks() const override { return updated_; }

 private:
  // Every head's Delta V and phi(Delta) rows but skip (-1: all) lose ring slot j's token and
  // gain the new one.
  void slide(std::int64_t j, std::int64_t skip) {
    for_rows_except(m_, skip, [&](std::int64_t first, std::int64_t count) {
      ops::heads_minor_retro_update<E>(count, dh_, dh_, h_, qt_.data() + first * d_, &k_(j, 0),
                                       k_new_.data(), &v_(j, 0), v_new_.data(),
                                       e_old_.data() + first * h_, e_new_.data() + first * h_,
                                       phi_.data() + first * h_, dv_.data() + first * d_, shift_);
    });
  }

  // Warm-up token t: summed into its segment's landmark (ContinualLandmarks::warm).
  void warm(const S* qs, const S* k, std::int64_t t) {
    std::int64_t seg = 0, start = 0;
    while (t >= start + sizes_[std::size_t(seg)]) start += sizes_[std::size_t(seg++)];
    if (t == start) {
      ops::copy<E>(qs, qs + d_, &qt_(seg, 0));
      ops::copy<E>(k, k + d_, &kt_(seg, 0));
    } else {
      ops::add<E>(qs, &qt_(seg, 0), d_);
      ops::add<E>(k, &kt_(seg, 0), d_);
    }
    if (t == start + sizes_[std::size_t(seg)] - 1) {
      ops::divide<E>(&qt_(seg, 0), d_, S(double(sizes_[std::size_t(seg)])));
      ops::divide<E>(&kt_(seg, 0), d_, S(double(sizes_[std::size_t(seg)])));
    }
  }

  // The end of the first window: Gamma, phi(Gamma), Gamma_phi^+ (Eq. 16), and every Delta row
  // over the window, a = rho(Qt, K), phi(Delta) = a 1, Delta V = a V  (Eqs. 17, 20).
  void prime() {
    ops::heads_minor_gemm_nt<E>(m_, dh_, m_, h_, qt_.data(), kt_.data(), gamma_.data());
    ops::exp_inplace<E>(gamma_.data(), h_ * m_ * m_, shift_);
    ops::heads_minor_row_sums<E>(m_, m_, h_, gamma_.data(), phi_gamma_.data());
    refresh_pinv();
    for (std::int64_t l = 0; l < m_; ++l) recompute_delta_row(l);
  }

  // Delta row l of every head over the window (DeltaState::recompute_row).
  void recompute_delta_row(std::int64_t l) {
    ops::heads_minor_gemm_nt<E>(1, dh_, n_, h_, qt_.data() + l * d_, k_.data(), a_.data());
    ops::exp_inplace<E>(a_.data(), h_ * n_, shift_);
    ops::heads_minor_row_sums<E>(1, n_, h_, a_.data(), phi_.data() + l * h_);
    ops::heads_minor_gemm<E>(1, n_, dh_, h_, a_.data(), v_.data(), dv_.data() + l * d_);
  }

  // The oldest landmark (slot next_) replaced in every head: Gamma's column and row of the
  // slot and phi(Gamma) (Eqs. 16, 19 corrected), Gamma_phi^+, Delta's row of the slot.
  void replace(const S* qt_new, const S* kt_new) {
    const std::int64_t l = next_, hm = h_ * m_;
    ops::copy<E>(qt_new, qt_new + d_, &qt_(l, 0));
    ops::copy<E>(kt_new, kt_new + d_, &kt_(l, 0));
    S* col = a_.data();  // rho(qt_i, kt_l) of every row i but l
    for_rows_except(m_, l, [&](std::int64_t first, std::int64_t count) {
      ops::heads_minor_gemm_nt<E>(count, dh_, 1, h_, qt_.data() + first * d_, &kt_(l, 0),
                                  col + first * h_);
      ops::exp_inplace<E>(col + first * h_, count * h_, shift_);
      for (std::int64_t i = first; i < first + count; ++i) {
        S* gil = gamma_.data() + (i * m_ + l) * h_;
        ops::add<E>(gil, phi_gamma_.data() + i * h_, h_, -1);  // Eq. 19
        ops::add<E>(col + i * h_, phi_gamma_.data() + i * h_, h_, +1);
        ops::copy<E>(col + i * h_, col + (i + 1) * h_, gil);  // Eq. 16, column
      }
    });
    S* row = gamma_.data() + l * hm;  // Eq. 16, row
    ops::heads_minor_gemm_nt<E>(1, dh_, m_, h_, &qt_(l, 0), kt_.data(), row);
    ops::exp_inplace<E>(row, hm, shift_);
    ops::heads_minor_row_sums<E>(1, m_, h_, row, phi_gamma_.data() + l * h_);
    refresh_pinv();
    since_ = 0;
    next_ = (next_ + 1) % m_;
    recompute_delta_row(l);  // Eqs. 17, 20
  }

  // Gamma_phi^+ of every head: phi(Gamma) inverted, Gamma's rows scaled, the pseudo-inverse.
  void refresh_pinv() {
    ops::reciprocals<E>(phi_gamma_.data(), inv_.data(), h_ * m_);
    ops::heads_minor_scale_rows<E>(m_, m_, h_, gamma_.data(), inv_.data(), gphi_.data());
    if (pinv_.empty()) {
      ops::heads_minor_pinv<E>(m_, h_, iterations_, gphi_.data(), g_.data(), work_.data());
      return;
    }
    Mat<S> x(m_, m_), z(m_, m_);  // the exact pseudo-inverse, a head at a time
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
  ops::Shift<S> shift_;  // Config::exp_shift
  // qt_, kt_: landmark l of every head in row l, head-minor (its m x dh matrices row-major).
  Mat<S> qt_, kt_, gamma_, gphi_, g_, phi_gamma_, dv_, dvn_, phi_, inv_, e_old_, e_new_;
  Mat<S> beta_, row_, sums_, a_, work_, k_, v_, recent_q_, new_, k_new_, v_new_, out_minor_, out_;
  std::vector<Pinv<E>> pinv_;  // the exact pseudo-inverse (Config::exact_pinv) only
};

}  // namespace cosda
