// rf: random-feature (Performer, FAVOR+) attention re-run over the window at every step, the
// random-feature family's baseline (no paper of the suite; attention/families/random_features.hpp).
// out_i = phi(q_i) S / (phi(q_i) . z), S = phi(K)^T V, z = phi(K)^T 1, with m positive
// orthogonal random features. Output n x d. State: the last n tokens of Q, K, V and the
// features. Per step: O(nmd).
#pragma once

#include "attention/families/random_features.hpp"

namespace cosda {

// Its exact closed forms (attention/variants/rf.cpp).
const exact::Forms& closed_forms_rf();

template <class E>
class Rf final : public Attention<E> {
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

  explicit Rf(const Config& c)
      : n_(c.n),
        d_(c.d),
        m_(c.m),
        features_(c),
        sums_(m_, d_),
        q_(n_, d_),
        k_(n_, d_),
        v_(n_, d_),
        uq_(n_, m_),
        ukt_(m_, n_),
        h_(n_, 1),
        den_(n_, 1),
        out_(n_, d_) {}

  bool step(const S* q, const S* k, const S* v) override {
    ring_row<E>(q_, q, seen_);  // Q, K, V in rings: the queries' features are put in window
    ring_row<E>(k_, k, seen_);  // order, and the sums over keys and values do not depend on
    ring_row<E>(v_, v, seen_);  // their order
    if (++seen_ < n_) return false;
    attend(q_, k_, v_, seen_ % n_);
    return true;
  }
  MatCRef<S> output() const override { return out_; }

  // output() = random-feature attention of a window of n tokens (the step's body, also the
  // second block of two-block models).
  void attend_window(MatCRef<S> q, MatCRef<S> k, MatCRef<S> v) override { attend(q, k, v, 0); }
  // q holds the window's queries as a ring whose oldest row is `oldest`.
  void attend(MatCRef<S> q, MatCRef<S> k, MatCRef<S> v, std::int64_t oldest) {
    // The features of the queries and keys, h, the sums, the denominators and the output.
    sums_.recompute(features_, k, v, h_.data(), ukt_);
    features_.queries(q, oldest, uq_);
    sums_.attend(uq_, den_.data(), out_);
  }

 private:
  std::int64_t n_, d_, m_, seen_ = 0;
  FeatureMap<E> features_;
  FeatureSums<E> sums_;
  Mat<S> q_, k_, v_, uq_, ukt_, h_, den_, out_;
};

}  // namespace cosda
