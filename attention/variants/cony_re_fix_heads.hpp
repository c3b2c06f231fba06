// cony_re_fix for h heads in one object: every head's (B_phi Gamma_phi^+) Delta_phi V with its
// own fixed landmarks (Nyström paper Eq. 23, per head; CoTrans Eq. 9 without the projections),
// the newest query's row of B_phi Gamma_phi^+ computed as it arrives and kept, Delta V and
// phi(Delta) slid per step (Eqs. 24-25). MultiHead (models/multi_head.hpp) steps this object
// instead of h CoNyReFix objects in the plain build. The landmarks, the landmark row and the
// Delta state are head-minor (attention/ops/heads_minor.hpp), as in cony_si_fix_heads.hpp, so
// each op of a step runs on all heads at once; the n x d output is one ring product of every
// head's rows of B_phi Gamma_phi^+ (kept head-strided, head i's m at [i m, (i+1) m)) by its
// Delta_phi V, as in cony_re_cont_heads.hpp. The operations are exactly those of h CoNyReFix
// heads (tests/heads_test.cpp). Input: q, k, v of width d, head i's features at
// [i dh, (i+1) dh). Output n x d in window order, head i's at columns [i dh, (i+1) dh).
#pragma once

#include "attention/families/cony_heads_common.hpp"
#include "attention/ops/heads_rows.hpp"

namespace cosda {

template <class E>
class CoNyReFixHeads final : public Attention<E> {
 public:
  using S = typename E::Scalar;

  // c.d is the full width; heads must divide it. c.fixed_q and c.fixed_k are m x d, sliced
  // per head as MultiHead slices them.
  CoNyReFixHeads(const Config& c, std::int64_t heads)
      : n_(c.n),
        d_(c.d),
        h_(heads),
        dh_(head_width(c, heads)),
        m_(c.m),
        delta_(n_, dh_, m_, h_, ops::shift_of<S>(c.exp_shift)),
        lm_(c, heads),
        bg_(n_, h_ * m_),
        dvn_(h_ * m_, dh_),
        out_(n_, d_) {}

  bool step(const S* q, const S* k, const S* v) override {
    const std::int64_t j = seen_ % n_;
    delta_.slide(seen_, lm_.qt(), k, v, -1);  // (Eqs. 24, 25)
    // (B_phi Gamma_phi^+)_i row j = (beta_i / beta_i 1^T) G_i, beta_i = exp(q_i Kt_i^T /
    // sqrt(dh))  (Eqs. 22, 23, 26)
    ops::heads_minor_to_heads<E>(h_, m_, lm_.row(q, delta_.shift()), &bg_(j, 0));
    if (++seen_ < n_) return false;
    if (seen_ == n_) delta_.recompute_rows(lm_.qt(), 0, m_);  // (Eqs. 17, 20)
    // out_i = (B_phi Gamma_phi^+)_i (Delta_phi V)_i in window order  (Eq. 23)
    ops::heads_minor_to_heads<E>(h_, m_ * dh_, delta_.normalized(), dvn_.data());
    ops::heads_ring_gemm_nn<E>(bg_, dvn_, seen_ % n_, out_);
    return true;
  }
  MatCRef<S> output() const override { return out_; }

 private:
  std::int64_t n_, d_, h_, dh_, m_, seen_ = 0;
  DeltaHeads<E> delta_;
  FixedLandmarkRows<E> lm_;
  Mat<S> bg_, dvn_, out_;
};

}  // namespace cosda
