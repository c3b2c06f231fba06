// cony_si_fix for h heads in one object: every head's ((beta_phi)_new Gamma_phi^+) Delta_phi V
// with its own fixed landmarks (Nyström paper Eq. 26, per head; CoTrans Eq. 9 without the
// projections), Delta V and phi(Delta) slid per step (Eqs. 24-25). MultiHead
// (models/multi_head.hpp) steps this object instead of h CoNySiFix objects in the plain
// build. Every matrix is head-minor (attention/ops/heads_minor.hpp), so each op of the step
// runs on all heads at once, a vector of heads wide, where a head's rows are 12 features and
// 4 landmarks wide at Table III. The operations are exactly those of h CoNySiFix heads
// (tests/heads_test.cpp). Input: q, k, v of width d, head i's features at [i dh, (i+1) dh).
// Output 1 x d in the same order. State, head-minor: the landmarks and Gamma_phi^+ of every
// head (FixedLandmarkRows) and its Delta state (DeltaHeads),
// attention/families/cony_heads_common.hpp.
#pragma once

#include "attention/families/cony_heads_common.hpp"

namespace cosda {

template <class E>
class CoNySiFixHeads final : public Attention<E> {
 public:
  using S = typename E::Scalar;

  // c.d is the full width; heads must divide it. c.fixed_q and c.fixed_k are m x d, sliced
  // per head as MultiHead slices them.
  CoNySiFixHeads(const Config& c, std::int64_t heads)
      : n_(c.n),
        d_(c.d),
        h_(heads),
        dh_(head_width(c, heads)),
        m_(c.m),
        delta_(n_, dh_, m_, h_, ops::shift_of<S>(c.exp_shift)),
        lm_(c, heads),
        out_minor_(1, d_),
        out_(1, d_) {}

  bool step(const S* q, const S* k, const S* v) override {
    delta_.slide(seen_, lm_.qt(), k, v, -1);  // (Eqs. 24, 25)
    if (++seen_ < n_) return false;
    if (seen_ == n_) delta_.recompute_rows(lm_.qt(), 0, m_);  // (Eqs. 17, 20)
    // row_i = (beta_i / beta_i 1^T) G_i, beta_i = exp(q_i Kt_i^T / sqrt(dh))  (Eqs. 22, 23)
    delta_.attend(lm_.row(q, delta_.shift()), out_minor_.data());  // (Eq. 26)
    ops::heads_minor_to_heads<E>(h_, dh_, out_minor_.data(), out_.data());
    return true;
  }
  MatCRef<S> output() const override { return out_; }

 private:
  std::int64_t n_, d_, h_, dh_, m_, seen_ = 0;
  DeltaHeads<E> delta_;
  FixedLandmarkRows<E> lm_;
  Mat<S> out_minor_, out_;
};

}  // namespace cosda
