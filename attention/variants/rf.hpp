// rf: random-feature (Performer, FAVOR+) attention re-run over the window at every step, the
// random-feature family's baseline (no paper of the suite; attention/families/random_features.hpp),
// for h >= 1 heads in one object (CoTrans Eq. 9 without the projections for h > 1).
// out_i = phi(q_i) S / (phi(q_i) . z), S = phi(K)^T V, z = phi(K)^T 1, with m positive
// orthogonal random features, per head. Two layouts, by the number of heads:
//  - one head: Q, K and V are n x d rings, a token per row, and the step is FeatureSums'
//    products over them (large products split among the threads);
//  - h > 1: Q, K and V are d x n rings (attention/families/window_heads.hpp, a token per
//    column) and every op runs on all heads' rows of n tokens; the features W (m x dh, the same
//    for every head: MultiHead gives every head c's feature_seed) are tiled h times along a row
//    of m x d; with several threads the heads are shared out (step_split).
// Input: q, k, v of width d, head i's features at [i dh, (i+1) dh). Output n x d in window
// order. State: the last n tokens. Per step: O(nmd).
#pragma once

#include <stdexcept>

#include "attention/families/random_features.hpp"
#include "attention/families/window_heads.hpp"
#include "attention/ops/heads.hpp"
#include "attention/ops/heads_rf.hpp"

namespace cosda {

// Its exact closed forms (attention/variants/rf.cpp).
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

  // c.d is the full width; heads must divide it. Every head's features are the ones a head of
  // width d / heads draws from c.
  explicit Rf(const Config& c, std::int64_t heads = 1)
      : Base(c, heads, heads > 1),
        d_(c.d),
        m_(c.m),
        features_(head_config(c, heads, 0)),
        sums_(h_ > 1 ? 0 : m_, h_ > 1 ? 0 : d_),
        qr_(rows(n_), d_),
        kr_(rows(n_), d_),
        vr_(rows(n_), d_),
        uq_(rows(n_), m_),
        ukt_(m_, rows(n_)),
        offsets_(rows(n_), 1),
        w_(m_, cols(d_)),
        keys_(m_ * h_, cols(n_)),
        queries_(Mat<S>::Zero(cols(h_ * m_), kernels::padded_cols<S>(n_))),
        sums_lm_(m_, cols(d_)),
        z_lm_(1, cols(m_ * h_)),
        s_(cols(h_ * m_), dh_),
        z_(cols(h_ * m_), 1),
        scratch_(cols(h_), n_),
        den_(Mat<S>::Zero(h_ > 1 ? h_ : n_, h_ > 1 ? kernels::padded_cols<S>(n_) : 1)),
        out_(n_, d_) {
    if (h_ > 1)
      for (std::int64_t i = 0; i < h_; ++i) w_.middleCols(i * dh_, dh_) = features_.features();
  }

  bool step(const S* q, const S* k, const S* v) override {
    if (h_ > 1) return Base::step(q, k, v);
    ring_row<E>(qr_, q, seen_);  // Q, K, V in rings: the queries' features are put in window
    ring_row<E>(kr_, k, seen_);  // order, and the sums over keys and values do not depend on
    ring_row<E>(vr_, v, seen_);  // their order
    if (++seen_ < n_) return false;
    attend_rows(qr_, kr_, vr_, seen_ % n_);
    return true;
  }
  // h > 1: the heads shared out among the threads; one head: its large products split.
  bool splits_heads() const override { return h_ > 1; }
  bool step_split(const S* q, const S* k, const S* v) override {
    if (h_ > 1) return Base::step_split(q, k, v);
    const ops::SplitScope split;
    return step(q, k, v);
  }
  MatCRef<S> output() const override { return out_; }

  // One head: output() = random-feature attention of a window of n tokens (the second block of
  // two-block models).
  void attend_window(MatCRef<S> q, MatCRef<S> k, MatCRef<S> v) override {
    if (h_ != 1) throw std::logic_error("rf: attend_window is one head's");
    attend_rows(q, k, v, 0);
  }

 private:
  friend WindowHeads<E, Rf<E>>;
  using Base = WindowHeads<E, Rf<E>>;
  using Base::n_, Base::h_, Base::dh_, Base::q_, Base::k_, Base::v_, Base::seen_;
  using Strided = Eigen::Map<Mat<S>, 0, Eigen::OuterStride<>>;

  // The size r of a buffer of one layout: the rings by row (one head) or by column (h > 1).
  std::int64_t rows(std::int64_t r) const { return h_ > 1 ? 0 : r; }
  std::int64_t cols(std::int64_t r) const { return h_ > 1 ? r : 0; }

  // One head over a window by rows, q a ring whose oldest row is `oldest`: the features of the
  // keys, the sums, the features of the queries, the denominators and the output.
  void attend_rows(MatCRef<S> q, MatCRef<S> k, MatCRef<S> v, std::int64_t oldest) {
    sums_.recompute(features_, k, v, offsets_.data(), ukt_);
    features_.queries(q, oldest, uq_);
    sums_.attend(uq_, den_.data(), out_);
  }

  // h > 1: random-feature attention of heads [first, first + count) over the window into their
  // columns of out_ (WindowHeads).
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
                              z_.middleRows(hm, cm), seen_ % n_, den_.middleRows(first, count),
                              out_.middleCols(f, w));
  }

  std::int64_t d_, m_;
  FeatureMap<E> features_;                    // one head's: W (m x dh) and 1 / (2 sqrt(dh))
  FeatureSums<E> sums_;                       // one head
  Mat<S> qr_, kr_, vr_, uq_, ukt_, offsets_;  // one head
  Mat<S> w_, keys_, queries_, sums_lm_, z_lm_, s_, z_, scratch_;  // h > 1
  Mat<S> den_, out_;
};

}  // namespace cosda
