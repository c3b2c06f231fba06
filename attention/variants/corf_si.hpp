// corf_si: Continual Single-Output random-feature attention (no paper of the suite;
// attention/families/random_features.hpp), for h >= 1 heads in one object (CoTrans Eq. 9
// without the projections for h > 1). Every head's running sums S_i = sum_j phi(k_ij) v_ij^T
// (m x dh) and z_i = sum_j phi(k_ij) (m) over the window gain the newest token's terms and lose
// the leaving token's at every step; out_i = phi(q_i) S_i / (phi(q_i) . z_i), the newest row of
// rf. Every per-head matrix is head-minor (attention/ops/heads_minor.hpp; at h = 1 a head's own
// row-major matrices, the token read and the output written in place), so each op of a step
// runs on all heads at once. Input: q, k, v of width d, head i's features at [i dh, (i+1) dh).
// Output 1 x d in the same order. State: the features W (m x dh, the same for every head:
// MultiHead gives every head c's feature_seed), S, z, and to subtract the leaving token n steps
// after it arrives, the ring of the window's key features phi(k_j) (n x m) and values (n x dh):
// storing phi(k) rather than k costs nm instead of n dh and saves recomputing the leaving key's
// features (docs/counting.md, "What a continual state keeps"). Per step: O(m d).
#pragma once

#include <stdexcept>

#include "attention/families/random_features.hpp"
#include "attention/ops/heads_minor.hpp"

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

  // c.d is the full width; heads must divide it. Every head's feature map is the one a head of
  // width d / heads draws from c.
  explicit CoRfSi(const Config& c, std::int64_t heads = 1)
      : n_(c.n),
        d_(c.d),
        h_(heads),
        dh_(head_width(c, heads)),
        m_(c.m),
        features_(head_config(c, heads, 0)),
        shift_(ops::shift_of<S>(c.exp_shift)),
        s_(Mat<S>::Zero(1, h_ * m_ * dh_)),
        z_(Mat<S>::Zero(1, h_ * m_)),
        phi_k_(n_, h_ * m_),
        v_(n_, d_),
        a_(1, h_ * m_),
        u_(1, h_ * m_),
        den_(1, h_),
        x_(1, h_ > 1 ? d_ : 0),
        v_new_(1, h_ > 1 ? d_ : 0),
        out_minor_(1, h_ > 1 ? d_ : 0),
        out_(1, d_) {}

  bool step(const S* q, const S* k, const S* v) override {
    slide(k, v);  // S_i, z_i lose the leaving token's terms and gain the new token's
    if (++seen_ < n_) return false;
    // u_i = phi(q_i) = exp(W q_i - max), out_i = u_i S_i / (u_i . z_i)
    const S* x = heads_minor(q, x_);
    ops::heads_minor_gemm_nt_shared<E>(dh_, m_, h_, x, features_.features(), u_.data());
    ops::heads_minor_max_exp<E>(m_, h_, u_.data());
    S* out = h_ > 1 ? out_minor_.data() : out_.data();
    {
      const ChainScope<E> chain("D phi(Q) S");
      ops::heads_minor_gemm<E>(1, m_, dh_, h_, u_.data(), s_.data(), out);
    }
    ops::heads_minor_gemm<E>(1, m_, 1, h_, u_.data(), z_.data(), den_.data());
    ops::reciprocals<E>(den_.data(), den_.data(), h_);
    {
      const ChainScope<E> chain("D phi(Q) S");
      ops::heads_minor_scale_rows<E>(1, dh_, h_, out, den_.data(), out);
    }
    if (h_ > 1) ops::heads_minor_to_heads<E>(h_, dh_, out, out_.data());
    return true;
  }
  MatCRef<S> output() const override { return out_; }

  // One head: output() = the newest query q's row of rf over keys k and values v (n rows, any
  // order), from scratch: the single-output second block of two-block models. One output row,
  // so the chain runs from the left, w = u phi(K)^T, out = (w V) / (w 1): nm + nd + d
  // multiplications where the sums S = phi(K)^T V would take nmd + md (docs/counting.md, chains).
  void attend(const S* q, MatCRef<S> k, MatCRef<S> v) {
    if (h_ != 1) throw std::logic_error("corf_si: attend is one head's");
    const std::int64_t n = k.rows();
    if (ukt_.cols() != n) {
      ukt_.resize(m_, n);
      h_scratch_.resize(n, 1);
      w_.resize(1, n);
    }
    features_.keys_transposed(k, h_scratch_.data(), ukt_);
    features_.query(q, u_.data());
    {
      const ChainScope<E> chain("(u phi(K)^T) V");
      ops::gemm_nn<E>(u_, ukt_, w_);
      ops::gemm_nn<E>(w_, v, out_);
    }
    ops::scale<E>(out_.data(), d_, ops::reciprocal<E>(ops::sum<E>(w_.data(), n)));
  }

 private:
  // The token x (width d, heads order) head-minor: x itself at one head, else copied into y.
  const S* heads_minor(const S* x, Mat<S>& y) {
    if (h_ == 1) return x;
    ops::heads_minor_from_heads<E>(h_, dh_, x, y.data());
    return y.data();
  }

  // a_i = phi(k_i) = exp(W k_i' - |k_i'|^2 / 2 [- C]), up to a factor common to every key; the
  // token after seen_ enters every head's sums (and, once the window is full, the token of its
  // ring slot seen_ % n leaves them) and takes that slot.
  void slide(const S* k, const S* v) {
    const std::int64_t j = seen_ % n_, hm = h_ * m_;
    const S* x = heads_minor(k, x_);
    ops::heads_minor_gemm_nt_shared<E>(dh_, m_, h_, x, features_.features(), a_.data());
    ops::heads_minor_key_exp<E>(m_, dh_, h_, x, features_.key_scale(), shift_, a_.data());
    const S* v_new = heads_minor(v, v_new_);
    if (seen_ >= n_)
      ops::heads_minor_slide_sums<E>(m_, dh_, h_, &phi_k_(j, 0), a_.data(), &v_(j, 0), v_new,
                                     z_.data(), s_.data());
    else
      ops::heads_minor_enter<E>(m_, dh_, h_, a_.data(), v_new, z_.data(), s_.data());
    ops::copy<E>(a_.data(), a_.data() + hm, &phi_k_(j, 0));
    ops::copy<E>(v_new, v_new + d_, &v_(j, 0));
  }

  std::int64_t n_, d_, h_, dh_, m_, seen_ = 0;
  FeatureMap<E> features_;  // one head's: W (m x dh) and 1 / (2 sqrt(dh))
  ops::Shift<S> shift_;     // Config::exp_shift
  Mat<S> s_, z_, phi_k_, v_, a_, u_, den_, x_, v_new_, out_minor_, out_;
  Mat<S> ukt_, h_scratch_, w_;  // attend()'s scratch, allocated on first use
};

}  // namespace cosda
