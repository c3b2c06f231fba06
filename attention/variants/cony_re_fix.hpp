// cony_re_fix: Continual Retroactive Nyström SDA with fixed landmarks (Att_CoNyRe^Fix, Nyström
// Sec. IV-B, Eq. 23): a row of B_phi Gamma_phi^+ depends only on its query and the landmarks, so
// it is computed on arrival and kept (n x h m, head i's m at [i m, (i+1) m)); Delta V and
// phi(Delta) slide (Eqs. 24-25); out_i = (B_phi Gamma_phi^+)_i (Delta_phi V)_i, one ring product
// of the rows by Delta_phi V. Output n x d in window order. State (head-minor): the V ring, each
// token's scores rho(Qt, k) (kept, not K: the landmarks are fixed), the rows, landmarks,
// Gamma_phi^+, Delta V, phi(Delta). Per step: O(ndm + dm + m^2).
#pragma once

#include "attention/families/cony_heads_common.hpp"
#include "attention/ops/heads_rows.hpp"

namespace cosda {

const exact::Forms& closed_forms_cony_re_fix();

template <class E>
class CoNyReFix final : public ContinualNystrom<E, FixedLandmarkRows<E>> {
  using B = ContinualNystrom<E, FixedLandmarkRows<E>>;
  using B::n_, B::d_, B::h_, B::dh_, B::m_, B::seen_, B::lm_, B::delta_;

 public:
  using S = typename E::Scalar;
  static constexpr VariantTraits kTraits{.id = "cony_re_fix",
                                         .paper_name = "Att_CoNyRe^Fix",
                                         .family = Family::kNystrom,
                                         .single_output = false,
                                         .continual = true,
                                         .landmarks = LandmarkKind::kFixed,
                                         .style = {"#882255", 12},
                                         .closed_forms = &closed_forms_cony_re_fix};

  // c.fixed_q and c.fixed_k are m x d, sliced per head as MultiHead slices them.
  explicit CoNyReFix(const Config& c, std::int64_t heads = 1)
      : B(c, heads), bg_(n_, h_ * m_), dvn_(h_ > 1 ? h_ * m_ : 0, dh_), out_(n_, d_) {}

  bool step(const S* q, const S* k, const S* v) override {
    const std::int64_t j = seen_ % n_;
    delta_.slide(seen_, lm_.qt(), k, v, -1);  // (Eqs. 24, 25)
    // (B_phi Gamma_phi^+)_i row j = (beta_i / beta_i 1^T) G_i (Eqs. 22, 23, 26); h = 1 in place
    if (h_ == 1)
      lm_.row(q, delta_.shift(), &bg_(j, 0));
    else
      ops::heads_minor_to_heads<E>(h_, m_, lm_.row(q, delta_.shift()), &bg_(j, 0));
    if (++seen_ < n_) return false;
    // out_i = (B_phi Gamma_phi^+)_i (Delta_phi V)_i in window order  (Eq. 23)
    const ChainScope<E> chain("rows Delta_phi V");
    const S* dvn = delta_.normalized();
    if (h_ > 1) {
      ops::heads_minor_to_heads<E>(h_, m_ * dh_, dvn, dvn_.data());
      dvn = dvn_.data();
    }
    ops::heads_ring_gemm_nn<E>(bg_, Eigen::Map<const Mat<S>>(dvn, h_ * m_, dh_), seen_ % n_, out_);
    return true;
  }
  MatCRef<S> output() const override { return out_; }

 private:
  Mat<S> bg_, dvn_, out_;
};

}  // namespace cosda
