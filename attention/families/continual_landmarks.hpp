// Continual landmarks (Nyström Sec. IV-A, Fig. 1, Sec. IV-C) and the landmark kernel Gamma with
// its pseudo-inverse. Slot i holds the mean of sizes[i] tokens (the first n mod m one more), primed
// with the first window's segments; once as many new tokens as the oldest landmark's have arrived,
// their mean replaces it in its slot (Eqs. 13-14), so after n steps the set again equals the
// window's segment means. Slots never move (Nyström is invariant to their order).
//   Gamma = [rho(qt_i, kt_j)], column and row of the replaced slot recomputed   (Eq. 16)
//   phi(Gamma)_i <- phi(Gamma)_i - rho(qt_i, kt_old) + rho(qt_i, kt_new)       (Eq. 19, corrected)
// Eq. 19 prints the subtracted term as rho(Qt_mem, kt_new), which cancels the added one
// (analysis/corrections.md). The old column is read from Gamma, not recomputed.
#pragma once

#include <vector>

#include "attention/families/landmarks.hpp"
#include "attention/families/nystrom.hpp"
#include "attention/families/window.hpp"
#include "attention/ops/heads_landmarks.hpp"

namespace cosda {

// The continual landmarks of h heads, head-minor, replaced on the same steps: landmark l is row l
// of qt and kt (m x d; head i's feature b at b h + i); Gamma, phi(Gamma), Gamma_phi^+ per head.
template <class E>
class ContinualLandmarks {
 public:
  using S = typename E::Scalar;

  ContinualLandmarks(const Config& c, std::int64_t h)
      : m_(c.m),
        h_(h),
        dh_(head_width(c, h)),
        d_(c.d),
        iterations_(c.pinv_iterations),
        sizes_(segment_sizes(c.n, c.m)),
        qt_(m_, d_),
        kt_(m_, d_),
        gamma_(m_, h * m_),
        gphi_(1, h * m_ * m_),
        g_(1, h * m_ * m_),
        phi_(m_, h),
        inv_(1, h * m_),
        col_(m_, h),
        work_(1, 3 * h * m_ * m_),
        shift_(ops::shift_of<S>(c.exp_shift)) {
    require(c.m >= 1 && c.m <= c.n, "continual landmarks: needs 1 <= m <= n");
    if (c.exact_pinv) pinv_.emplace_back(c.m, c.pinv_iterations, true);
  }

  const S* qt() const { return qt_.data(); }
  const S* kt() const { return kt_.data(); }
  const S* g() const { return g_.data(); }
  // Qt and Kt, m x d head-minor: at h = 1 the head's own (Attention::landmarks_q_scaled).
  const Mat<S>& qt_matrix() const { return qt_; }
  const Mat<S>& kt_matrix() const { return kt_; }

  // Warm-up token t (< n): its scaled query qs and key k (head-minor) summed into its segment's
  // rows of Qt and Kt, divided by the segment's size at its last token (Sec. IV-C).
  void warm(const S* qs, const S* k, std::int64_t t) {
    std::int64_t seg = 0, start = 0;
    while (t >= start + sizes_[std::size_t(seg)]) start += sizes_[std::size_t(seg++)];
    S *q_row = &qt_(seg, 0), *k_row = &kt_(seg, 0);
    if (t == start) {
      ops::copy<E>(qs, qs + d_, q_row);
      ops::copy<E>(k, k + d_, k_row);
    } else {
      ops::add<E>(qs, q_row, d_);
      ops::add<E>(k, k_row, d_);
    }
    const std::int64_t size = sizes_[std::size_t(seg)];
    if (t == start + size - 1) {
      ops::divide<E>(q_row, d_, S(double(size)));
      ops::divide<E>(k_row, d_, S(double(size)));
    }
  }

  // At the end of the first window: Gamma, phi(Gamma), Gamma_phi^+ (Eq. 16).
  void prime() {
    ops::heads_minor_gemm_nt<E>(m_, dh_, m_, h_, qt_.data(), kt_.data(), gamma_.data());
    ops::exp_inplace<E>(gamma_.data(), h_ * m_ * m_, shift_);
    ops::heads_minor_row_sums<E>(m_, m_, h_, gamma_.data(), phi_.data());
    refresh_pinv();
  }

  // Once per steady-state step: true when this step completes a new landmark segment.
  bool tick() { return ++since_ == sizes_[std::size_t(next_)]; }
  std::int64_t slot() const { return next_; }
  std::int64_t segment() const { return sizes_[std::size_t(next_)]; }

  // The oldest landmark (slot()) replaced in every head by (qt_new scaled, kt_new), head-minor:
  // Gamma's column and row of the slot and phi(Gamma) (Eqs. 16, 19 corrected), Gamma_phi^+.
  void replace(const S* qt_new, const S* kt_new) {
    const std::int64_t l = next_, hm = h_ * m_;
    ops::copy<E>(qt_new, qt_new + d_, &qt_(l, 0));
    ops::copy<E>(kt_new, kt_new + d_, &kt_(l, 0));
    // Every row i but l: col = rho(qt_i, kt_l), kt_l against the rows (one head's: a row product).
    for_rows_except(m_, l, [&](std::int64_t first, std::int64_t count) {
      auto old = gamma_.block(first, l * h_, count, h_);  // Eq. 16, column
      auto phi = phi_.middleRows(first, count), col = col_.middleRows(first, count);
      ops::heads_minor_gemm_nt<E>(1, dh_, count, h_, &kt_(l, 0), &qt_(first, 0), col.data());
      ops::exp_inplace<E>(col, shift_);
      ops::add<E>(old, phi, -1);  // Eq. 19
      ops::add<E>(col, phi, +1);
      ops::copy<E>(col, old);
    });
    S* row = gamma_.data() + l * hm;  // Eq. 16, row
    ops::heads_minor_gemm_nt<E>(1, dh_, m_, h_, &qt_(l, 0), kt_.data(), row);
    ops::exp_inplace<E>(row, hm, shift_);
    ops::heads_minor_row_sums<E>(1, m_, h_, row, phi_.data() + l * h_);
    refresh_pinv();
    since_ = 0;
    next_ = (next_ + 1) % m_;
  }

 private:
  // Gamma_phi^+ of every head: phi(Gamma) inverted, Gamma's rows scaled, the pseudo-inverse.
  void refresh_pinv() {
    ops::reciprocals<E>(phi_.data(), inv_.data(), h_ * m_);
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

  std::int64_t m_, h_, dh_, d_;
  int iterations_;
  std::vector<std::int64_t> sizes_;
  std::int64_t next_ = 0, since_ = 0;
  Mat<S> qt_, kt_, gamma_, gphi_, g_, phi_, inv_, col_, work_;
  std::vector<Pinv<E>> pinv_;  // the exact pseudo-inverse (Config::exact_pinv) only
  ops::Shift<S> shift_;
};

}  // namespace cosda
