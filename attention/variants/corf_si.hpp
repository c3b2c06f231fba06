// corf_si: Continual Single-Output random-feature attention (no paper of the suite;
// attention/families/random_features.hpp). The running sums S = sum_j phi(k_j) v_j^T (m x d) and
// z = sum_j phi(k_j) (m) over the window gain the newest token's terms and lose the leaving
// token's at every step; out = phi(q) S / (phi(q) . z), the newest row of rf.
// Output 1 x d. State: the features, S, z, and to subtract the leaving token n steps after it
// arrives, the ring of the window's key features phi(k_j) (n x m) and values (n x d): storing
// phi(k) rather than k costs nm instead of nd and saves recomputing the leaving key's features
// (docs/counting.md, "What a continual state keeps"). Per step: O(md).
#pragma once

#include "attention/families/random_features.hpp"

namespace cosda {

// Its exact closed forms (attention/variants/corf_si.cpp).
const exact::Forms& closed_forms_corf_si();

template <class E>
class CoRfSi final : public Attention<E> {
 public:
  using S = typename E::Scalar;
  static constexpr VariantTraits kTraits{.id = "corf_si",
                                         .paper_name = "Att_CoRFSi",
                                         .family = Family::kRandomFeatures,
                                         .single_output = true,
                                         .continual = true,
                                         .landmarks = LandmarkKind::kRandomFeatures,
                                         .style = {"#117733", 2},
                                         .closed_forms = &closed_forms_corf_si};

  explicit CoRfSi(const Config& c)
      : n_(c.n),
        d_(c.d),
        m_(c.m),
        features_(c),
        sums_(m_, d_),
        v_(n_, d_),
        phi_k_(n_, m_),
        a_(1, m_),
        u_(1, m_),
        den_(1, 1),
        out_(1, d_) {}

  bool step(const S* q, const S* k, const S* v) override {
    const std::int64_t j = seen_ % n_;
    features_.key(k, a_.data());
    if (seen_ >= n_)
      sums_.slide(&phi_k_(j, 0), &v_(j, 0), a_.data(), v);
    else
      sums_.enter(a_.data(), v);
    ops::copy<E>(a_.data(), a_.data() + m_, &phi_k_(j, 0));
    ops::copy<E>(v, v + d_, &v_(j, 0));
    if (++seen_ < n_) return false;
    features_.query(q, u_.data());
    sums_.attend(u_, den_.data(), out_);
    return true;
  }
  MatCRef<S> output() const override { return out_; }

  // output() = the newest query q's row of rf over keys k and values v (n rows, any order),
  // from scratch: the single-output second block of two-block models. One output row, so the
  // chain runs from the left, w = u phi(K)^T, out = (w V) / (w 1): nm + nd + d multiplications
  // where the sums S = phi(K)^T V would take nmd + md (docs/counting.md, chains).
  void attend(const S* q, MatCRef<S> k, MatCRef<S> v) {
    const std::int64_t n = k.rows();
    if (ukt_.cols() != n) {
      ukt_.resize(m_, n);
      h_.resize(n, 1);
      w_.resize(1, n);
    }
    features_.keys_transposed(k, h_.data(), ukt_);
    features_.query(q, u_.data());
    {
      const ChainScope<E> chain("(u phi(K)^T) V");
      ops::gemm_nn<E>(u_, ukt_, w_);
      ops::gemm_nn<E>(w_, v, out_);
    }
    ops::scale<E>(out_.data(), d_, ops::reciprocal<E>(ops::sum<E>(w_.data(), n)));
  }

 private:
  std::int64_t n_, d_, m_, seen_ = 0;
  FeatureMap<E> features_;
  FeatureSums<E> sums_;
  Mat<S> v_, phi_k_, a_, u_, den_, out_;
  Mat<S> ukt_, h_, w_;  // attend()'s scratch, allocated on first use
};

}  // namespace cosda
