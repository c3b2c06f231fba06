// cony_si_fix for h heads in one object: every head's ((beta_phi)_new Gamma_phi^+) Delta_phi V
// with its own fixed landmarks (Nyström paper Eq. 26, per head; CoTrans Eq. 9 without the
// projections), Delta V and phi(Delta) slid per step (Eqs. 24-25). MultiHead
// (attention/multi_head.hpp) steps this object instead of h CoNySiFix objects in the plain
// build: one chain of seam ops per step instead of h, the exponentials of all heads in one
// pass. The operations are exactly those of h CoNySiFix heads (tests/heads_test.cpp).
// Input: q, k, v of width d, head i's features at [i dh, (i+1) dh). Output 1 x d. State:
// K and V rings (n x d), and per head i the rows [i m, (i+1) m) of the landmarks, of
// Gamma_phi^+, of Delta V and of phi(Delta).
#pragma once

#include "attention/heads_state.hpp"

namespace cosda {

template <class E>
class CoNySiFixHeads final : public Attention<E> {
 public:
  using S = typename E::Scalar;

  CoNySiFixHeads(const Config& c, std::int64_t heads)
      : st_(c, heads), row_(1, st_.h * st_.m), out_(1, st_.d) {}

  bool step(const S* q, const S* k, const S* v) override {
    st_.slide(seen_, k, v);
    if (++seen_ < st_.n) return false;
    if (seen_ == st_.n) st_.prime();
    st_.landmark_row(q, row_.data());  // (Eqs. 22, 23, 26)
    // Delta_phi V = diag(phi(Delta))^-1 Delta V, out_i = row_i (Delta_phi V)_i   (Eq. 26)
    st_.normalise();
    ops::heads_gemm_nn<E>(row_, st_.dvn, Eigen::Map<Mat<S>>(out_.data(), st_.h, st_.dh));
    return true;
  }
  MatCRef<S> output() const override { return out_; }

 private:
  FixedLandmarkHeads<E> st_;
  std::int64_t seen_ = 0;
  Mat<S> row_, out_;
};

}  // namespace cosda
