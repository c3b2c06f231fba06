// rf for h heads in one object: every head's out_t = phi(q_t) S_i / (phi(q_t) . z_i) for every
// query of the window, S_i and z_i recomputed from the window's keys and values every step
// (attention/variants/rf.hpp, attention/families/random_features.hpp; CoTrans Eq. 9 without the
// projections). MultiHead (models/multi_head.hpp) steps this object instead of h Rf objects in the
// plain build: one chain of seam ops per step instead of h, every product on rows of n tokens. The
// operations are exactly those of h Rf heads (tests/heads_test.cpp).
// Input: q, k, v of width d, head i's features at [i dh, (i+1) dh). Output n x d in window
// order. State: Q, K and V rings (d x n, a token per column) and the features W (m x dh, the
// same for every head), tiled h times along a row of m x d.
#pragma once

#include "attention/families/random_features.hpp"
#include "attention/families/window_heads.hpp"
#include "attention/ops/heads.hpp"
#include "attention/ops/heads_rf.hpp"

namespace cosda {

template <class E>
class RfHeads final : public WindowHeads<E, RfHeads<E>> {
 public:
  using S = typename E::Scalar;

  // c.d is the full width; heads must divide it. Every head's features are the ones a head of
  // width d / heads draws from c (MultiHead gives every head c's feature_seed).
  RfHeads(const Config& c, std::int64_t heads)
      : WindowHeads<E, RfHeads<E>>(c, heads),
        d_(c.d),
        m_(c.m),
        w_(m_, d_),
        keys_(m_ * h_, n_),
        queries_(Mat<S>::Zero(h_ * m_, kernels::padded_cols<S>(n_))),
        sums_lm_(m_, d_),
        z_lm_(1, m_ * h_),
        s_(h_ * m_, dh_),
        z_(h_ * m_, 1),
        scratch_(h_, n_),
        den_(Mat<S>::Zero(h_, kernels::padded_cols<S>(n_))),
        out_(n_, d_) {
    const FeatureMap<E> head(head_config(c, heads, 0));
    key_scale_ = head.key_scale();
    for (std::int64_t i = 0; i < h_; ++i) w_.middleCols(i * dh_, dh_) = head.features();
  }

  MatCRef<S> output() const override { return out_; }

 private:
  friend WindowHeads<E, RfHeads<E>>;
  using Base = WindowHeads<E, RfHeads<E>>;
  using Base::n_, Base::h_, Base::dh_, Base::q_, Base::k_, Base::v_;
  using Strided = Eigen::Map<Mat<S>, 0, Eigen::OuterStride<>>;

  // Random-feature attention of heads [first, first + count) over the window into their
  // columns of out_.
  void attend(std::int64_t first, std::int64_t count) {
    const std::int64_t f = first * dh_, w = count * dh_, hm = first * m_, cm = count * m_;
    // The keys' features, landmark-major (row l h + i: head i's feature l of every key), then
    // S_i = phi(K_i)^T V_i and z_i = phi(K_i)^T 1 a feature of every head at a time
    for (std::int64_t l = 0; l < m_; ++l)
      ops::heads_gemm_nn<E>(w_.row(l).segment(f, w), k_.middleRows(f, w),
                            keys_.middleRows(l * h_ + first, count));
    ops::heads_key_exp_cols<E>(k_, key_scale_, h_, first, count, n_, keys_, scratch_.row(first));
    for (std::int64_t l = 0; l < m_; ++l) {
      const MatRef<S> keys = keys_.middleRows(l * h_ + first, count);
      ops::heads_gemm_nt<E>(keys, v_.middleRows(f, w), sums_lm_.row(l).segment(f, w));
      ops::row_sums<E>(keys, z_lm_.data() + l * h_ + first);
      // into head i's rows [i m, (i+1) m)
      ops::copy<E>(Eigen::Map<const Mat<S>>(sums_lm_.row(l).data() + f, count, dh_),
                   Strided(s_.row(hm + l).data(), count, dh_, Eigen::OuterStride<>(m_ * dh_)));
      ops::copy<E>(Eigen::Map<const Mat<S>>(z_lm_.data() + l * h_ + first, count, 1),
                   Strided(z_.data() + hm + l, count, 1, Eigen::OuterStride<>(m_)));
    }
    // The queries' features, a token per column, head i's at rows [i m, (i+1) m)
    for (std::int64_t l = 0; l < m_; ++l)
      ops::heads_gemm_nn<E>(w_.row(l).segment(f, w), q_.middleRows(f, w),
                            Strided(queries_.row(hm + l).data(), count, n_,
                                    Eigen::OuterStride<>(m_ * queries_.cols())));
    ops::heads_max_exp_cols<E>(count, n_, queries_.middleRows(hm, cm), scratch_.row(first));
    // every query's out_i = u_i S_i / (u_i . z_i), in window order
    ops::heads_attend_cols<E>(queries_.middleRows(hm, cm), s_.middleRows(hm, cm),
                              z_.middleRows(hm, cm), this->seen() % n_,
                              den_.middleRows(first, count), out_.middleCols(f, w));
  }

  std::int64_t d_, m_;
  S key_scale_{};  // 1 / (2 sqrt(dh))
  Mat<S> w_, keys_, queries_, sums_lm_, z_lm_, s_, z_, scratch_, den_, out_;
};

}  // namespace cosda
