// rf: random-feature (Performer) attention re-run over the window every step (no paper;
// random_features.hpp): out_i = phi(q_i) S / (phi(q_i) . z), S = phi(K)^T V, z = phi(K)^T 1.
// Output n x d in window order. State: the last n tokens. Per step: O(nmd). One head: FeatureSums
// over rings by row; h > 1: every op on all heads' rows of n tokens, the shared W tiled h times.
#pragma once

#include "attention/families/random_features.hpp"
#include "attention/families/window_heads.hpp"
#include "attention/ops/heads.hpp"
#include "attention/ops/heads_rf.hpp"

namespace cosda {

const exact::Forms& closed_forms_rf();

template <class E>
class Rf final : public WindowHeads<E, Rf<E>> {
 public:
  using S = typename E::Scalar;
  static constexpr VariantTraits kTraits{.id = "rf",
                                         .paper_name = "Att_RF",
                                         .family = Family::kRandomFeatures,
                                         .single_output = false,
                                         .continual = false,
                                         .landmarks = LandmarkKind::kRandomFeatures,
                                         .style = {"#44aa99", 3},
                                         .closed_forms = &closed_forms_rf};

  // Every head's features are the ones a head of width d / heads draws from c.
  explicit Rf(const Config& c, std::int64_t heads = 1)
      : Base(c, heads),
        d_(c.d),
        m_(c.m),
        features_(head_config(c, heads, 0)),
        sums_(of_one_head(m_), of_one_head(d_)),
        uq_(of_one_head(n_), m_),
        ukt_(m_, of_one_head(n_)),
        offsets_(of_one_head(n_), 1),
        w_(m_, of_heads(d_)),
        keys_(m_ * h_, of_heads(n_)),
        queries_(Mat<S>::Zero(of_heads(h_ * m_), kernels::padded_cols<S>(n_))),
        sums_lm_(m_, of_heads(d_)),
        z_lm_(1, of_heads(m_ * h_)),
        s_(of_heads(h_ * m_), dh_),
        z_(of_heads(h_ * m_), 1),
        scratch_(of_heads(h_), n_),
        den_(Mat<S>::Zero(h_ > 1 ? h_ : n_, h_ > 1 ? kernels::padded_cols<S>(n_) : 1)),
        out_(n_, d_) {
    if (h_ > 1)
      for (std::int64_t i = 0; i < h_; ++i) w_.middleCols(i * dh_, dh_) = features_.features();
  }

  MatCRef<S> output() const override { return out_; }

 private:
  friend WindowHeads<E, Rf<E>>;
  using Base = WindowHeads<E, Rf<E>>;
  using Base::n_, Base::h_, Base::dh_, Base::q_, Base::k_, Base::v_, Base::of_one_head,
      Base::of_heads;
  using Strided = Eigen::Map<Mat<S>, 0, Eigen::OuterStride<>>;

  // One head over a window by rows, q a ring whose oldest row is `oldest`.
  void attend_rows(MatCRef<S> q, MatCRef<S> k, MatCRef<S> v, std::int64_t oldest) {
    sums_.recompute(features_, k, v, offsets_.data(), ukt_);
    features_.queries(q, oldest, uq_);
    sums_.attend(uq_, den_.data(), out_);
  }

  // h > 1: heads [first, first + count) over the window into their columns of out_.
  void attend(std::int64_t first, std::int64_t count) {
    const std::int64_t f = first * dh_, w = count * dh_, hm = first * m_, cm = count * m_;
    // The keys' features, landmark-major (row l h + i: head i's feature l of every key), then
    // S_i = phi(K_i)^T V_i and z_i = phi(K_i)^T 1 a feature of every head at a time
    for (std::int64_t l = 0; l < m_; ++l)
      ops::heads_gemm_nn<E>(w_.row(l).segment(f, w), k_.middleRows(f, w),
                            keys_.middleRows(l * h_ + first, count));
    ops::heads_key_exp_cols<E>(k_, features_.key_scale(), h_, first, count, n_, keys_,
                               scratch_.row(first));
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
  FeatureMap<E> features_;     // one head's: W (m x dh) and 1 / (2 sqrt(dh))
  FeatureSums<E> sums_;        // one head
  Mat<S> uq_, ukt_, offsets_;  // one head
  Mat<S> w_, keys_, queries_, sums_lm_, z_lm_, s_, z_, scratch_;  // h > 1
  Mat<S> den_, out_;
};

}  // namespace cosda
