// ny and ny_fix: every head's Att_Ny = B_phi Gamma_phi^+ (Delta_phi V) (Nyström Eqs. 8-12), with
// fixed landmarks (ny_fix, Sec. IV-B) or the window's segment means (ny, Sec. IV-C). Layouts
// (window_heads.hpp): one head, NystromCore over rings by row; h > 1, d x n rings and
// landmark-major landmarks (row l of Q~, K~ every head's landmark l; row l h + i of an h m-row
// matrix head i's row l), so every product runs on rows of n tokens.
#pragma once

#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

#include "attention/families/landmarks.hpp"
#include "attention/families/nystrom.hpp"
#include "attention/families/window_heads.hpp"
#include "attention/ops/heads.hpp"
#include "attention/ops/heads_landmarks.hpp"

namespace cosda {

template <class E, LandmarkKind kLandmarks>
class NystromHeads : public WindowHeads<E, NystromHeads<E, kLandmarks>> {
  static_assert(kLandmarks == LandmarkKind::kFixed || kLandmarks == LandmarkKind::kSegmentMeans);
  static constexpr bool kFixed = kLandmarks == LandmarkKind::kFixed;

 public:
  using S = typename E::Scalar;

  // Fixed landmarks: c.fixed_q and c.fixed_k are m x d, sliced per head as MultiHead slices them.
  NystromHeads(const Config& c, std::int64_t heads)
      : Base(c, heads),
        d_(c.d),
        m_(c.m),
        inv_sqrt_dh_(1.0 / std::sqrt(double(dh_))),
        qt_(m_, d_),
        kt_(m_, d_),
        g_(kFixed ? of_one_head(m_) : 0, kFixed ? of_one_head(m_) : 0),
        gt_(of_heads(h_ * m_), m_),
        qs_(of_heads(kFixed ? 0 : d_), n_),  // ny_fix: keys come scaled (FixedLandmarks)
        bt_(of_heads(h_ * m_), n_),
        bgt_(of_heads(h_ * m_), n_),
        delta_(of_heads(h_ * m_), n_),
        sums_(of_heads(h_), n_),
        phi_(1, of_heads(h_ * m_)),
        dv_(of_heads(m_), d_),
        out_(n_, d_) {
    if constexpr (kFixed) {
      for (std::int64_t i = 0; i < h_; ++i) {  // each head's landmarks and Gamma_phi^+
        const FixedLandmarks<E> head(head_config(c, heads, i));
        qt_.middleCols(i * dh_, dh_) = head.qt;
        kt_.middleCols(i * dh_, dh_) = head.kt;
        if (h_ > 1)
          gt_.middleRows(i * m_, m_) = head.g.transpose();
        else
          g_ = head.g;
      }
    } else {
      require(m_ >= 1 && m_ <= n_, "ny: needs 1 <= m <= n");
      sizes_ = segment_sizes(n_, m_);
      iterations_ = c.pinv_iterations;
      if (h_ > 1 && c.exact_pinv)  // the reference pseudo-inverse, a head at a time
        pinv_.assign(std::size_t(h_), Pinv<E>(m_, c.pinv_iterations, true));
      if (h_ > 1) work_.resize(h_ * kWork * m_ * m_ + h_ * m_);
    }
    if (h_ == 1) core_.emplace(n_, d_, m_, c.pinv_iterations, c.exact_pinv);
  }

  MatCRef<S> output() const override { return out_; }
  // The landmarks the last output used (every head's side by side for h > 1), queries scaled.
  const Mat<S>* landmarks_q_scaled() const override { return &qt_; }
  const Mat<S>* landmarks_k() const override { return &kt_; }

 private:
  friend WindowHeads<E, NystromHeads<E, kLandmarks>>;
  using Base = WindowHeads<E, NystromHeads<E, kLandmarks>>;
  using Base::n_, Base::h_, Base::dh_, Base::q_, Base::k_, Base::v_, Base::of_one_head,
      Base::of_heads;

  // One head over a window by rows (q raw), q a ring whose oldest row is `oldest`.
  void attend_rows(MatCRef<S> q, MatCRef<S> k, MatCRef<S> v, std::int64_t oldest) {
    // out_ holds Q (ny: Q/sqrt(d)), in window order, until the last product overwrites it.
    scale_in_window_order<E>(q, oldest, kFixed ? std::nullopt : std::optional(inv_sqrt_dh_), out_);
    if constexpr (!kFixed)  // segment means, split among the threads in the timed build
      ops::split_pass<E>(m_, 2 * n_ * d_, [&](std::int64_t lo, std::int64_t count) {
        for (std::int64_t i = lo; i < lo + count; ++i) {
          const std::int64_t first = i * (n_ / m_) + std::min(i, n_ % m_);  // segment_sizes'
          segment_mean<E>(out_, first, sizes_[std::size_t(i)], &qt_(i, 0));
          segment_mean<E>(k, oldest + first, sizes_[std::size_t(i)], &kt_(i, 0));
        }
      });
    core_->attend(out_, k, v, qt_, kt_, kFixed ? &g_ : nullptr, out_);
  }

  // h > 1: Att_Ny of heads [first, first + count) over the window into their columns of out_.
  void attend(std::int64_t first, std::int64_t count) {
    const std::int64_t f = first * dh_, w = count * dh_, oldest = this->seen() % n_;
    if constexpr (!kFixed) {  // Q / sqrt(dh) and its landmarks (ny_fix: the keys come scaled)
      ops::scale_into<E>(q_.middleRows(f, w), inv_sqrt_dh_, qs_.middleRows(f, w));
      landmarks(first, count, oldest);
    }
    const Mat<S>& qs = kFixed ? q_ : qs_;
    // B_phi^T, row l h + i = head i's exp(Kt_il Q_i^T / sqrt(dh)) over the ring   (Eq. 10)
    for (std::int64_t l = 0; l < m_; ++l) {
      const MatRef<S> b = bt_.middleRows(l * h_ + first, count);
      ops::heads_gemm_nn<E>(kt_.row(l).segment(f, w), qs.middleRows(f, w), b);
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
    ops::heads_ring_gemm_lm<E>(bgt_, dv_, oldest, out_, first, count);
  }

  // ny: every head's landmarks, segment means of its scaled queries and keys (Eq. 8, Sec. IV-C),
  // then its Gamma_phi^+ (Eq. 11).
  void landmarks(std::int64_t first, std::int64_t count, std::int64_t oldest) {
    const std::int64_t f = first * dh_, w = count * dh_;
    for (std::int64_t l = 0, at = oldest; l < m_; at += sizes_[std::size_t(l)], ++l) {
      const std::int64_t size = sizes_[std::size_t(l)];
      ops::segment_mean_cols<E>(qs_.middleRows(f, w), at, size, &qt_(l, f));
      ops::segment_mean_cols<E>(k_.middleRows(f, w), at, size, &kt_(l, f));
    }
    landmark_kernel_pinvs(first, count);
  }

  // Every head's Gamma_phi^+ (landmark_kernel_pinv of each head), transposed into gt_.
  void landmark_kernel_pinvs(std::int64_t first, std::int64_t count) {
    const std::int64_t f = first * dh_, w = count * dh_;
    S* region = work_.data() + first * (kWork * m_ * m_ + m_);
    if (!pinv_.empty()) {  // a head at a time, its scratch in its part of work_
      for (std::int64_t i = first; i < first + count; ++i, region += kWork * m_ * m_ + m_) {
        Eigen::Map<Mat<S>> gamma(region, m_, m_), g(region + m_ * m_, m_, m_);
        landmark_kernel_pinv<E>(qt_.middleCols(i * dh_, dh_), kt_.middleCols(i * dh_, dh_),
                                pinv_[std::size_t(i)], gamma, region + 2 * m_ * m_, g);
        ops::transpose_into<E>(g, gt_.middleRows(i * m_, m_));
      }
      return;
    }
    // All heads at once, head-minor (attention/ops/heads_landmarks.hpp)
    const std::int64_t mm = count * m_ * m_;
    S* x = region;
    S *z = x + mm, *sums = z + mm;
    ops::heads_minor_gram<E>(qt_.middleCols(f, w), kt_.middleCols(f, w), count, x);  // (Eq. 11)
    ops::exp_inplace<E>(x, mm);
    ops::heads_minor_normalize_rows<E>(m_, m_, count, x, sums);
    ops::heads_minor_pinv<E>(m_, count, iterations_, x, z, sums + count * m_);
    ops::heads_minor_transpose_to_heads<E>(count, m_, z, &gt_(first * m_, 0));  // into gt_
  }

  // Every head's B rows divided by their sums over its m landmarks (normalize_rows along columns).
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
  Mat<S> qt_, kt_;
  std::optional<NystromCore<E>> core_;                         // one head
  Mat<S> g_;                                                   // one head of ny_fix: Gamma_phi^+
  Mat<S> gt_, qs_, bt_, bgt_, delta_, sums_, phi_, dv_, out_;  // h > 1 (but out_)
  // ny only: the segments' sizes; h > 1: the iteration's steps, its scratch (kWork m x m
  // matrices and m sums a head) and, for the exact pseudo-inverse, one Pinv a head.
  std::vector<std::int64_t> sizes_;
  static constexpr std::int64_t kWork = 5;
  int iterations_ = 0;
  std::vector<S> work_;
  std::vector<Pinv<E>> pinv_;
};

}  // namespace cosda
