// corf_si for h heads in one object: every head's out_i = phi(q_i) S_i / (phi(q_i) . z_i) with
// its own running sums S_i = sum_j phi(k_ij) v_ij^T and z_i = sum_j phi(k_ij) over the window
// (attention/random_features.hpp; CoTrans Eq. 9 without the projections), slid per step.
// MultiHead (attention/multi_head.hpp) steps this object instead of h CoRfSi objects in the
// plain build: one chain of seam ops per step instead of h, the exponentials of all heads in
// one pass. The operations are exactly those of h CoRfSi heads (tests/heads_test.cpp).
// Input: q, k, v of width d, head i's features at [i dh, (i+1) dh). Output 1 x d. State: the
// features W (m x dh, the same for every head), per head i the rows [i m, (i+1) m) of S and
// of z; the ring of the window's key features (n x h m, head i's at columns [i m, (i+1) m))
// and of its values (n x d).
#pragma once

#include "attention/heads_state.hpp"

namespace cosda {

template <class E>
class CoRfSiHeads final : public Attention<E> {
 public:
  using S = typename E::Scalar;

  CoRfSiHeads(const Config& c, std::int64_t heads)
      : st_(c, heads), den_(st_.h, 1), out_(1, st_.d) {}

  bool step(const S* q, const S* k, const S* v) override {
    st_.slide(seen_, k, v);  // S_i, z_i lose the leaving token's terms and gain the new token's
    if (++seen_ < st_.n) return false;
    // u_i = phi(q_i), out_i = u_i S_i / (u_i . z_i)
    st_.query_features(q);
    Eigen::Map<Mat<S>> out(out_.data(), st_.h, st_.dh);
    ops::heads_gemm_nn<E>(st_.u, st_.s, out);
    ops::heads_gemm_nn<E>(st_.u, st_.z, den_);
    ops::reciprocals<E>(den_.data(), den_.data(), st_.h);
    ops::scale_rows<E>(out, den_.data());
    return true;
  }
  MatCRef<S> output() const override { return out_; }

 private:
  FeatureSumsHeads<E> st_;
  std::int64_t seen_ = 0;
  Mat<S> den_, out_;
};

}  // namespace cosda
