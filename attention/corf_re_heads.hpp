// corf_re for h heads in one object: every head's out_t = phi(q_t) S_i / (phi(q_t) . z_i) for
// every query q_t of the window, from its running sums S_i = sum_j phi(k_ij) v_ij^T and
// z_i = sum_j phi(k_ij), slid per step (attention/random_features.hpp, attention/corf_re.hpp;
// CoTrans Eq. 9 without the projections). MultiHead (attention/multi_head.hpp) steps this
// object instead of h CoRfRe objects in the plain build: one chain of seam ops per step instead
// of h, the window's outputs of all heads in one op. The operations are exactly those of h
// CoRfRe heads (tests/heads_test.cpp).
// Input: q, k, v of width d, head i's features at [i dh, (i+1) dh). Output n x d in window
// order, head i's at columns [i dh, (i+1) dh). State: the features W (m x dh, the same for
// every head), per head i the rows [i m, (i+1) m) of S and of z; the rings of the window's key
// features (n x h m, head i's at columns [i m, (i+1) m)), of its query features (h m x n, a
// token per column, head i's at rows [i m, (i+1) m)) and of its values (n x d).
#pragma once

#include "attention/ops_heads.hpp"
#include "attention/ops_heads_rf.hpp"
#include "attention/random_features.hpp"

namespace cosda {

template <class E>
class CoRfReHeads final : public Attention<E> {
 public:
  using S = typename E::Scalar;

  // c.d is the full width; heads must divide it. Every head's feature map is the one a CoRfRe
  // of width d / heads draws from c: MultiHead gives every head c's feature_seed, so all heads
  // share one W, and every head's W x_i is a row of one h x m product.
  CoRfReHeads(const Config& c, std::int64_t heads)
      : n_(c.n),
        d_(c.d),
        h_(heads),
        dh_(head_width(c, heads)),
        m_(c.m),
        w_(m_, dh_),
        s_(h_ * m_, dh_),
        z_(h_ * m_, 1),
        phi_k_(n_, h_ * m_),
        phi_qt_(Mat<S>::Zero(h_ * m_, kernels::padded_cols<S>(n_))),
        v_(n_, d_),
        a_(1, h_ * m_),
        u_(1, h_ * m_),
        den_(Mat<S>::Zero(h_, kernels::padded_cols<S>(n_))),
        out_(n_, d_),
        shift_(ops::shift_of<S>(c.exp_shift)) {
    Config hc = c;
    hc.d = dh_;
    const FeatureMap<E> head(hc);
    key_scale_ = head.key_scale();
    w_ = head.features();
    s_.setConstant(S(0.0));
    z_.setConstant(S(0.0));
  }

  bool step(const S* q, const S* k, const S* v) override {
    const std::int64_t j = seen_ % n_;
    // a_i = phi(k_i) = exp(W k_i' - |k_i'|^2 / 2 [- C]), up to a factor common to every key
    ops::gemm_nt<E>(CMap(k, h_, dh_), w_, Map(a_.data(), h_, m_));
    ops::heads_key_exp<E>(CMap(k, 1, d_), key_scale_, shift_, Map(a_.data(), h_, m_));
    if (seen_ >= n_)  // S_i, z_i lose the leaving token's terms and gain the new token's
      ops::heads_slide_sums<E>(h_, &phi_k_(j, 0), a_.data(), &v_(j, 0), v, z_.data(), s_);
    else
      enter(v);
    ops::copy<E>(a_.data(), a_.data() + h_ * m_, &phi_k_(j, 0));
    ops::copy<E>(v, v + d_, &v_(j, 0));
    // u_i = phi(q_i) = exp(W q_i' - max), computed once and kept for the window's later steps
    ops::gemm_nt<E>(CMap(q, h_, dh_), w_, Map(u_.data(), h_, m_));
    ops::heads_max_exp<E>(Map(u_.data(), h_, m_));
    ops::copy_to_column<E>(u_.data(), phi_qt_, j);
    if (++seen_ < n_) return false;
    // every query's out_i = u_i S_i / (u_i . z_i), in window order
    ops::heads_attend_cols<E>(phi_qt_, s_, z_, seen_ % n_, den_, out_);
    return true;
  }
  MatCRef<S> output() const override { return out_; }

 private:
  using Map = Eigen::Map<Mat<S>>;
  using CMap = Eigen::Map<const Mat<S>>;

  // The warm-up: the token enters every head's sums, no token leaves (FeatureSums::enter).
  void enter(const S* v) {
    ops::add<E>(a_.data(), z_.data(), h_ * m_, +1);
    for (std::int64_t r = 0; r < h_ * m_; ++r)
      ops::axpy<E>(a_(0, r), v + r / m_ * dh_, &s_(r, 0), dh_, +1);
  }

  std::int64_t n_, d_, h_, dh_, m_, seen_ = 0;
  S key_scale_{};  // 1 / (2 sqrt(dh))
  // phi_qt_ and den_ have their columns padded to whole packets (heads_attend_cols).
  Mat<S> w_, s_, z_, phi_k_, phi_qt_, v_, a_, u_, den_, out_;
  ops::Shift<S> shift_;  // Config::exp_shift
};

}  // namespace cosda
