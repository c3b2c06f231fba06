// corf_re: Continual Retroactive random-feature attention (no paper of the suite;
// attention/families/random_features.hpp): the n outputs of the window, out_i = phi(q_i) S /
// (phi(q_i) . z), from the running sums of corf_si; each query's features are computed once, when
// it arrives. Output n x d, oldest first; the newest row is corf_si's output. State: the features,
// S, z, the rings of the window's key and query features (n x m each) and values (n x d). Per step:
// O(nmd), the products of the n queries with S.
#pragma once

#include "attention/families/random_features.hpp"

namespace cosda {

// Its exact closed forms (attention/variants/corf_re.cpp).
const exact::Forms& closed_forms_corf_re();

template <class E>
class CoRfRe final : public Attention<E> {
 public:
  using S = typename E::Scalar;
  static constexpr VariantTraits kTraits{.id = "corf_re",
                                         .paper_name = "Att_CoRFRe",
                                         .family = Family::kRandomFeatures,
                                         .single_output = false,
                                         .continual = true,
                                         .landmarks = LandmarkKind::kRandomFeatures,
                                         .style = {"#aa4499", 10},
                                         .closed_forms = &closed_forms_corf_re};

  explicit CoRfRe(const Config& c)
      : n_(c.n),
        d_(c.d),
        m_(c.m),
        features_(c),
        sums_(m_, d_),
        v_(n_, d_),
        phi_k_(n_, m_),
        phi_q_(n_, m_),
        a_(1, m_),
        den_(n_, 1),
        out_(n_, d_) {}

  bool step(const S* q, const S* k, const S* v) override {
    const std::int64_t j = seen_ % n_;
    features_.key(k, a_.data());
    if (seen_ >= n_)
      sums_.slide(&phi_k_(j, 0), &v_(j, 0), a_.data(), v);
    else
      sums_.enter(a_.data(), v);
    ops::copy<E>(a_.data(), a_.data() + m_, &phi_k_(j, 0));
    ops::copy<E>(v, v + d_, &v_(j, 0));
    features_.query(q, &phi_q_(j, 0));
    if (++seen_ < n_) return false;
    sums_.attend(phi_q_, den_.data(), out_, seen_ % n_);
    return true;
  }
  MatCRef<S> output() const override { return out_; }

 private:
  std::int64_t n_, d_, m_, seen_ = 0;
  FeatureMap<E> features_;
  FeatureSums<E> sums_;
  Mat<S> v_, phi_k_, phi_q_, a_, den_, out_;
};

}  // namespace cosda
