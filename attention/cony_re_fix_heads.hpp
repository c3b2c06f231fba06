// cony_re_fix for h heads in one object: every head's (B_phi Gamma_phi^+) Delta_phi V with its
// own fixed landmarks (Nyström paper Eq. 23, per head; CoTrans Eq. 9 without the projections),
// the newest query's row of B_phi Gamma_phi^+ computed as it arrives and kept, Delta V and
// phi(Delta) slid per step (Eqs. 24-25). MultiHead (attention/multi_head.hpp) steps this object
// instead of h CoNyReFix objects in the plain build: one chain of seam ops per step instead of
// h, the n x d output in one call. The operations are exactly those of h CoNyReFix heads
// (tests/heads_test.cpp).
// Input: q, k, v of width d, head i's features at [i dh, (i+1) dh). Output n x d in window
// order, head i's at columns [i dh, (i+1) dh). State: K and V rings (n x d), the rows of
// B_phi Gamma_phi^+ (n x h m, a ring slot per row, head i's m at columns [i m, (i+1) m)), and
// per head i the rows [i m, (i+1) m) of the landmarks, of Gamma_phi^+, of Delta V and of
// phi(Delta).
#pragma once

#include "attention/heads_state.hpp"

namespace cosda {

template <class E>
class CoNyReFixHeads final : public Attention<E> {
 public:
  using S = typename E::Scalar;

  CoNyReFixHeads(const Config& c, std::int64_t heads)
      : st_(c, heads), bg_(st_.n, st_.h * st_.m), out_(st_.n, st_.d) {}

  bool step(const S* q, const S* k, const S* v) override {
    const std::int64_t j = seen_ % st_.n;
    st_.slide(seen_, k, v);
    // (B_phi Gamma_phi^+)_i row j, every head's m entries side by side in ring slot j's row
    st_.landmark_row(q, &bg_(j, 0));  // (Eqs. 22, 23, 26)
    if (++seen_ < st_.n) return false;
    if (seen_ == st_.n) st_.prime();
    // Delta_phi V = diag(phi(Delta))^-1 Delta V, out_i = (B_phi Gamma_phi^+)_i (Delta_phi V)_i
    // in window order  (Eq. 23)
    st_.normalise();
    ops::heads_ring_gemm_nn<E>(bg_, st_.dvn, seen_ % st_.n, out_);
    return true;
  }
  MatCRef<S> output() const override { return out_; }

 private:
  FixedLandmarkHeads<E> st_;
  std::int64_t seen_ = 0;
  Mat<S> bg_, out_;
};

}  // namespace cosda
