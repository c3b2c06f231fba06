// Continual landmarks (Nyström paper Sec. IV-A, Fig. 1, Sec. IV-C) and the landmark kernel
// Gamma with its pseudo-inverse, shared by cony_si_cont and cony_re_cont.
//
// The m landmarks tile the stream in segments: slot i holds the mean of one segment of
// sizes[i] tokens (the first n mod m slots one token more, Sec. IV-C). At priming they are
// the segment means of the first window. Afterwards, once as many tokens as the oldest
// landmark's segment holds have arrived, a landmark is computed over them and replaces the
// oldest one in its slot (Eqs. 13-14), so every new landmark has the size of the one it
// replaces and after n steps the set again equals the current window's segment means.
// Landmark slots are never moved; slot order is a permutation, to which Nyström is invariant.
//   Gamma = [rho(qt_i, kt_j)], column and row of the replaced slot recomputed   (Eq. 16)
//   phi(Gamma)_i <- phi(Gamma)_i - rho(qt_i, kt_old) + rho(qt_i, kt_new)       (Eq. 19, corrected)
// Eq. 19 prints the subtracted term as rho(Qt_mem, kt_new), which cancels the added one
// (analysis/corrections.md). The old column is kept in Gamma, so it is not recomputed.
#pragma once

#include "attention/families/landmarks.hpp"
#include "attention/families/nystrom.hpp"
#include "attention/families/window.hpp"

namespace cosda {

// Warm-up token t (0 <= t < n) of continual landmarks whose segments have `sizes`: its scaled
// query qs and key k (d each) summed into its segment's rows of qt and kt (m x d, row-major),
// divided by the segment's size at the segment's last token (Sec. IV-C).
template <class E>
void warm_landmark(const std::vector<std::int64_t>& sizes, std::int64_t t,
                   const typename E::Scalar* qs, const typename E::Scalar* k, std::int64_t d,
                   typename E::Scalar* qt, typename E::Scalar* kt) {
  using S = typename E::Scalar;
  std::int64_t seg = 0, start = 0;
  while (t >= start + sizes[std::size_t(seg)]) start += sizes[std::size_t(seg++)];
  S *q_row = qt + seg * d, *k_row = kt + seg * d;
  if (t == start) {
    ops::copy<E>(qs, qs + d, q_row);
    ops::copy<E>(k, k + d, k_row);
  } else {
    ops::add<E>(qs, q_row, d);
    ops::add<E>(k, k_row, d);
  }
  const std::int64_t size = sizes[std::size_t(seg)];
  if (t == start + size - 1) {
    ops::divide<E>(q_row, d, S(double(size)));
    ops::divide<E>(k_row, d, S(double(size)));
  }
}

template <class E>
class ContinualLandmarks {
 public:
  using S = typename E::Scalar;

  // shift: the stabilised mode's exponent shift (Config::exp_shift), used by every exp here.
  ContinualLandmarks(std::int64_t n, std::int64_t d, std::int64_t m, int iterations, bool exact,
                     const ops::Shift<S>& shift = {})
      : m_(m),
        d_(d),
        sizes_(segment_sizes(n, m)),
        qt_(m, d),
        kt_(m, d),
        gamma_(m, m),
        phi_(m),
        g_(m, m),
        gphi_(m, m),
        col_(1, m),
        inv_(m),
        pinv_(m, iterations, exact),
        shift_(shift) {
    require(m >= 1 && m <= n, "continual landmarks: needs 1 <= m <= n");
  }

  const Mat<S>& qt() const { return qt_; }
  const Mat<S>& kt() const { return kt_; }
  const Mat<S>& g() const { return g_; }

  // Warm-up token t (0 <= t < n), query already scaled: summed into its segment's landmark.
  void warm(const S* qs, const S* k, std::int64_t t) {
    warm_landmark<E>(sizes_, t, qs, k, d_, qt_.data(), kt_.data());
  }

  // At the end of the first window: Gamma, phi(Gamma) and the pseudo-inverse.
  void prime() {
    ops::gemm_nt<E>(qt_, kt_, gamma_);
    ops::exp_inplace<E>(gamma_, shift_);
    ops::row_sums<E>(gamma_, phi_.data());
    refresh_pinv();
  }

  // Once per steady-state step: true when this step completes a new landmark segment.
  bool tick() { return ++since_ == sizes_[next_]; }
  std::int64_t slot() const { return next_; }
  std::int64_t segment() const { return sizes_[next_]; }

  // Replaces the oldest landmark (slot()) by (qt_new scaled, kt_new).
  void replace(const S* qt_new, const S* kt_new) {
    const std::int64_t l = next_;
    ops::copy<E>(qt_new, qt_new + d_, &qt_(l, 0));
    ops::copy<E>(kt_new, kt_new + d_, &kt_(l, 0));
    for_rows_except(m_, l, [&](std::int64_t first, std::int64_t count) {
      ops::gemm_nt<E>(kt_.row(l), qt_.middleRows(first, count), col_.middleCols(first, count));
      ops::exp_inplace<E>(&col_(0, first), count, shift_);
      for (std::int64_t i = first; i < first + count; ++i) {
        ops::add<E>(&gamma_(i, l), &phi_[i], 1, -1);  // Eq. 19
        ops::add<E>(&col_(0, i), &phi_[i], 1, +1);
        ops::copy<E>(&col_(0, i), &col_(0, i) + 1, &gamma_(i, l));  // Eq. 16, column
      }
    });
    ops::gemm_nt<E>(qt_.row(l), kt_, gamma_.row(l));  // Eq. 16, row
    ops::exp_inplace<E>(&gamma_(l, 0), m_, shift_);
    ops::store<E>(ops::sum<E>(&gamma_(l, 0), m_), &phi_[l]);
    refresh_pinv();
    since_ = 0;
    next_ = (next_ + 1) % m_;
  }

 private:
  void refresh_pinv() {  // Gamma_phi^+
    ops::reciprocals<E>(phi_.data(), inv_.data(), m_);
    ops::scale_rows_into<E>(gamma_, inv_.data(), gphi_);
    pinv_.compute(gphi_, g_);
  }

  std::int64_t m_, d_;
  std::vector<std::int64_t> sizes_;
  std::int64_t next_ = 0, since_ = 0;
  Mat<S> qt_, kt_, gamma_;
  std::vector<S> phi_;
  Mat<S> g_, gphi_, col_;
  std::vector<S> inv_;
  Pinv<E> pinv_;
  ops::Shift<S> shift_;
};

}  // namespace cosda
