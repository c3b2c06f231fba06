// co_si for h heads in one object: every head's CoSiAtt = a_i V_i / (a_i 1^T),
// a_i = exp(q_i K_i^T / sqrt(dh)), dh = d / h (CoTrans Eq. 7, per head; Eq. 9 without the
// projections). MultiHead (models/multi_head.hpp) steps this object instead of h CoSi
// objects in the plain build: one chain of seam ops per step instead of h, on rows of n
// instead of dh. The operations are exactly those of h CoSi heads (tests/heads_test.cpp), so
// counts and closed forms are h times one head's (attention/variants/co_si.cpp).
// Input: q, k, v of width d, head i's features at [i dh, (i+1) dh). Output 1 x d, the heads'
// outputs concatenated. State: K and V rings, in head panels for heads of at most
// ops::kSingleQueryMaxWidth features (ops/heads_attention.hpp: one pass over the keys, every
// feature of a packet of heads a register), otherwise d x n each, a token per column.
#pragma once

#include <cmath>

#include "attention/attention.hpp"
#include "attention/ops/heads.hpp"
#include "attention/ops/heads_attention.hpp"
#include "attention/ops/seam.hpp"

namespace cosda {

template <class E>
class CoSiHeads final : public Attention<E> {
 public:
  using S = typename E::Scalar;

  // c.d is the full width; heads must divide it.
  CoSiHeads(const Config& c, std::int64_t heads)
      : n_(c.n),
        d_(c.d),
        h_(heads),
        dh_(head_width(c, heads)),
        panels_(dh_ <= ops::kSingleQueryMaxWidth),
        inv_sqrt_dh_(1.0 / std::sqrt(double(dh_))),
        k_(d_, n_),
        v_(d_, n_),
        q_(1, panels_ ? 0 : d_),  // the head-major step's query, scores and sums
        a_(h_, panels_ ? 0 : n_),
        sums_(1, panels_ ? 0 : h_),
        out_(1, d_),
        work_(1, panels_ ? ops::heads_single_scratch<E>(dh_) : 0),
        shift_(ops::shift_of<S>(c.exp_shift)) {}

  bool step(const S* q, const S* k, const S* v) override {
    const std::int64_t slot = seen_ % n_;
    ops::heads_ring_enter<E>(panels_, h_, dh_, k, k_, slot);
    ops::heads_ring_enter<E>(panels_, h_, dh_, v, v_, slot);
    if (++seen_ < n_) return false;
    if (panels_)  // (CoTrans Eq. 7, per head)
      ops::heads_panels_single<E>(n_, dh_, h_, q, k_.data(), v_.data(), inv_sqrt_dh_, shift_, out_,
                                  work_.data());
    else
      attend_head_major(q);
    return true;
  }
  MatCRef<S> output() const override { return out_; }

 private:
  void attend_head_major(const S* q) {
    ops::copy<E>(q, q + d_, q_.data());
    ops::scale<E>(q_.data(), d_, inv_sqrt_dh_);
    // a_i = exp(q_i K_i^T / sqrt(dh)), then a_i V_i / (a_i 1^T)   (CoTrans Eq. 7, per head)
    ops::heads_exp_scores<E>(q_, k_, a_, sums_.data(), shift_);
    ops::reciprocals<E>(sums_.data(), sums_.data(), h_);
    ops::heads_gemm_nt<E>(a_, v_, out_);
    Eigen::Map<Mat<S>> heads_out(out_.data(), h_, dh_);
    ops::scale_rows<E>(heads_out, sums_.data());
  }

  std::int64_t n_, d_, h_, dh_, seen_ = 0;
  bool panels_;  // the rings in head panels (short heads)
  S inv_sqrt_dh_;
  Mat<S> k_, v_, q_, a_, sums_, out_, work_;
  ops::Shift<S> shift_;  // Config::exp_shift
};

}  // namespace cosda
