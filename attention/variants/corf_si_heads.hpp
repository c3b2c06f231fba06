// corf_si for h heads in one object: every head's out_i = phi(q_i) S_i / (phi(q_i) . z_i) with
// its own running sums S_i = sum_j phi(k_ij) v_ij^T and z_i = sum_j phi(k_ij) over the window
// (attention/families/random_features.hpp; CoTrans Eq. 9 without the projections), slid per step.
// MultiHead (models/multi_head.hpp) steps this object instead of h CoRfSi objects in the
// plain build. Every per-head matrix is head-minor (attention/ops/heads_minor.hpp), so each op
// of the step runs on all heads at once, a vector of heads wide, where a head's rows are 12
// features and 4 random features wide at Table III. The operations are exactly those of h
// CoRfSi heads (tests/heads_test.cpp). Input: q, k, v of width d, head i's features at
// [i dh, (i+1) dh). Output 1 x d in the same order. State: the features W (m x dh, the same
// for every head); head-minor, every head's S (m x dh) and z (m x 1), and the rings of the
// window's key features (n x m) and values (n x dh).
#pragma once

#include "attention/families/random_features.hpp"
#include "attention/ops/heads_minor.hpp"

namespace cosda {

template <class E>
class CoRfSiHeads final : public Attention<E> {
 public:
  using S = typename E::Scalar;

  // c.d is the full width; heads must divide it. Every head's feature map is the one a head
  // of width d / heads draws from c: MultiHead gives every head c's feature_seed, so all heads
  // share one W.
  CoRfSiHeads(const Config& c, std::int64_t heads)
      : n_(c.n),
        d_(c.d),
        h_(heads),
        dh_(head_width(c, heads)),
        m_(c.m),
        shift_(ops::shift_of<S>(c.exp_shift)),
        s_(Mat<S>::Zero(1, h_ * m_ * dh_)),
        z_(Mat<S>::Zero(1, h_ * m_)),
        phi_k_(n_, h_ * m_),
        v_(n_, d_),
        a_(1, h_ * m_),
        u_(1, h_ * m_),
        den_(1, h_),
        x_(1, d_),
        v_new_(1, d_),
        out_minor_(1, d_),
        out_(1, d_) {
    const FeatureMap<E> head(head_config(c, heads, 0));
    key_scale_ = head.key_scale();
    w_ = head.features();
  }

  bool step(const S* q, const S* k, const S* v) override {
    slide(k, v);  // S_i, z_i lose the leaving token's terms and gain the new token's
    if (++seen_ < n_) return false;
    // u_i = phi(q_i) = exp(W q_i - max), out_i = u_i S_i / (u_i . z_i)
    ops::heads_minor_from_heads<E>(h_, dh_, q, x_.data());
    ops::heads_minor_gemm_nt_shared<E>(dh_, m_, h_, x_.data(), w_, u_.data());
    ops::heads_minor_max_exp<E>(m_, h_, u_.data());
    ops::heads_minor_gemm<E>(1, m_, dh_, h_, u_.data(), s_.data(), out_minor_.data());
    ops::heads_minor_gemm<E>(1, m_, 1, h_, u_.data(), z_.data(), den_.data());
    ops::reciprocals<E>(den_.data(), den_.data(), h_);
    ops::heads_minor_scale_rows<E>(1, dh_, h_, out_minor_.data(), den_.data(), out_minor_.data());
    ops::heads_minor_to_heads<E>(h_, dh_, out_minor_.data(), out_.data());
    return true;
  }
  MatCRef<S> output() const override { return out_; }

 private:
  // a_i = phi(k_i) = exp(W k_i' - |k_i'|^2 / 2 [- C]), up to a factor common to every key; the
  // token after seen_ enters every head's sums (and, once the window is full, the token of its
  // ring slot seen_ % n leaves them) and takes that slot.
  void slide(const S* k, const S* v) {
    const std::int64_t j = seen_ % n_, hm = h_ * m_;
    ops::heads_minor_from_heads<E>(h_, dh_, k, x_.data());
    ops::heads_minor_gemm_nt_shared<E>(dh_, m_, h_, x_.data(), w_, a_.data());
    ops::heads_minor_key_exp<E>(m_, dh_, h_, x_.data(), key_scale_, shift_, a_.data());
    ops::heads_minor_from_heads<E>(h_, dh_, v, v_new_.data());
    if (seen_ >= n_)
      ops::heads_minor_slide_sums<E>(m_, dh_, h_, &phi_k_(j, 0), a_.data(), &v_(j, 0),
                                     v_new_.data(), z_.data(), s_.data());
    else
      ops::heads_minor_enter<E>(m_, dh_, h_, a_.data(), v_new_.data(), z_.data(), s_.data());
    ops::copy<E>(a_.data(), a_.data() + hm, &phi_k_(j, 0));
    ops::copy<E>(v_new_.data(), v_new_.data() + d_, &v_(j, 0));
  }

  std::int64_t n_, d_, h_, dh_, m_, seen_ = 0;
  S key_scale_{};        // 1 / (2 sqrt(dh))
  ops::Shift<S> shift_;  // Config::exp_shift
  Mat<S> w_, s_, z_, phi_k_, v_, a_, u_, den_, x_, v_new_, out_minor_, out_;
};

}  // namespace cosda
