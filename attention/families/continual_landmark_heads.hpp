// Continual landmarks of h heads, head-minor (attention/ops/heads_minor.hpp): what
// ContinualLandmarks (continual_landmarks.hpp) keeps for one head, for every head at once,
// all heads' landmarks replaced on the same steps. Shared by the batched heads of
// cony_si_cont and cony_re_cont. Landmark l of every head is row l of qt and kt (m x d, each
// row head-minor: head i's feature b at b h + i); Gamma, phi(Gamma) and Gamma_phi^+ are
// m x m, m x 1 and m x m matrices of every head, head-minor.
#pragma once

#include <vector>

#include "attention/families/continual_landmarks.hpp"
#include "attention/ops/heads_landmarks.hpp"

namespace cosda {

template <class E>
class ContinualLandmarkHeads {
 public:
  using S = typename E::Scalar;

  ContinualLandmarkHeads(std::int64_t n, std::int64_t dh, std::int64_t m, std::int64_t h,
                         int iterations, bool exact, const ops::Shift<S>& shift)
      : m_(m),
        h_(h),
        dh_(dh),
        d_(h * dh),
        iterations_(iterations),
        sizes_(segment_sizes(n, m)),
        qt_(m, d_),
        kt_(m, d_),
        gamma_(1, h * m * m),
        gphi_(1, h * m * m),
        g_(1, h * m * m),
        phi_(1, h * m),
        inv_(1, h * m),
        col_(1, h * m),
        work_(1, 3 * h * m * m),
        shift_(shift) {
    require(m >= 1 && m <= n, "continual landmarks: needs 1 <= m <= n");
    if (exact) pinv_.emplace_back(m, iterations, true);
  }

  const S* qt() const { return qt_.data(); }
  const S* kt() const { return kt_.data(); }
  const S* g() const { return g_.data(); }

  // Warm-up token t (0 <= t < n): its scaled query and key (head-minor) summed into its
  // segment's landmark.
  void warm(const S* qs, const S* k, std::int64_t t) {
    warm_landmark<E>(sizes_, t, qs, k, d_, qt_.data(), kt_.data());
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
    S* col = col_.data();  // rho(qt_i, kt_l) of every row i but l
    for_rows_except(m_, l, [&](std::int64_t first, std::int64_t count) {
      ops::heads_minor_gemm_nt<E>(count, dh_, 1, h_, qt_.data() + first * d_, &kt_(l, 0),
                                  col + first * h_);
      ops::exp_inplace<E>(col + first * h_, count * h_, shift_);
      for (std::int64_t i = first; i < first + count; ++i) {
        S* gil = gamma_.data() + (i * m_ + l) * h_;
        ops::add<E>(gil, phi_.data() + i * h_, h_, -1);  // Eq. 19
        ops::add<E>(col + i * h_, phi_.data() + i * h_, h_, +1);
        ops::copy<E>(col + i * h_, col + (i + 1) * h_, gil);  // Eq. 16, column
      }
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
