// corf_re for h heads in one object: every head's out_t = phi(q_t) S_i / (phi(q_t) . z_i) for
// every query q_t of the window, from its running sums S_i = sum_j phi(k_ij) v_ij^T and
// z_i = sum_j phi(k_ij), slid per step (attention/families/random_features.hpp,
// attention/variants/corf_re.hpp; CoTrans Eq. 9 without the projections). MultiHead
// (models/multi_head.hpp) steps this object instead of h CoRfRe objects in the plain build: one
// chain of seam ops per step instead of h, the window's outputs of all heads in one op. The
// operations are exactly those of h CoRfRe heads (tests/heads_test.cpp). Input: q, k, v of width d,
// head i's features at [i dh, (i+1) dh). Output n x d in window order, head i's at columns [i dh,
// (i+1) dh). State: the features W (m x dh, the same for every head), per head i the rows [i m,
// (i+1) m) of S and of z; the rings of the window's key features (n x h m, head i's at columns [i
// m, (i+1) m)), of its query features (h m x n, a token per column, head i's at rows [i m, (i+1)
// m)) and of its values (n x d).
#pragma once

#include "attention/families/heads_state.hpp"
#include "attention/ops/heads_rf.hpp"

namespace cosda {

template <class E>
class CoRfReHeads final : public Attention<E> {
 public:
  using S = typename E::Scalar;

  CoRfReHeads(const Config& c, std::int64_t heads)
      : st_(c, heads),
        phi_qt_(Mat<S>::Zero(st_.h * st_.m, kernels::padded_cols<S>(st_.n))),
        den_(Mat<S>::Zero(st_.h, kernels::padded_cols<S>(st_.n))),
        out_(st_.n, st_.d) {}

  bool step(const S* q, const S* k, const S* v) override {
    const std::int64_t j = seen_ % st_.n;
    st_.slide(seen_, k, v);  // S_i, z_i lose the leaving token's terms and gain the new token's
    // u_i = phi(q_i), computed once and kept for the window's later steps
    st_.query_features(q);
    ops::copy_to_column<E>(st_.u.data(), phi_qt_, j);
    if (++seen_ < st_.n) return false;
    // every query's out_i = u_i S_i / (u_i . z_i), in window order
    ops::heads_attend_cols<E>(phi_qt_, st_.s, st_.z, seen_ % st_.n, den_, out_);
    return true;
  }
  MatCRef<S> output() const override { return out_; }

 private:
  FeatureSumsHeads<E> st_;
  std::int64_t seen_ = 0;
  // phi_qt_ and den_ have their columns padded to whole packets (heads_attend_cols).
  Mat<S> phi_qt_, den_, out_;
};

}  // namespace cosda
