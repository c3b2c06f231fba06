// corf_si: Continual Single-Output random-feature attention (no paper; random_features.hpp): every
// head's S_i = sum_j phi(k_ij) v_ij^T, z_i = sum_j phi(k_ij) gain the new token, lose the leaving
// one; out_i = phi(q_i) S_i / (phi(q_i) . z_i), rf's newest row. Output 1 x d. State (head-minor):
// W (shared by all heads), S, z, rings of values and of phi(k) (n x m rather than k's n dh, and no
// recomputing the leaving key's; docs/counting.md). Per step: O(md).
#pragma once

#include <stdexcept>

#include "attention/families/random_features.hpp"
#include "attention/ops/heads_minor.hpp"

namespace cosda {

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

  // Every head's feature map is the one a head of width d / heads draws from c.
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

  // One head: output() = rf's newest row for q over k, v (n rows, any order) from scratch
  // (two-block models), from the left: w = u phi(K)^T, out = (w V) / (w 1), nm + nd + d
  // multiplications, not nmd + md through S (docs/counting.md, chains).
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

  // a_i = phi(k_i) = exp(W k_i' - |k_i'|^2 / 2 [- C]) (up to a common factor); the token after
  // seen_ enters every head's sums and ring slot seen_ % n, whose token (window full) leaves.
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
