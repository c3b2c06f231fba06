// cony_si_fix: Continual Single-Output Nyström SDA with fixed landmarks (Att_CoNySi^Fix, Nyström
// Sec. IV-B, Eq. 26): out_i = ((beta_phi)_new Gamma_phi^+)_i (Delta_phi V)_i, Gamma_phi^+ computed
// once, Delta V and phi(Delta) slid (Eqs. 24-25). Output 1 x d. State (head-minor): the V ring and
// each token's scores rho(Qt, k) (kept, not K: the landmarks are fixed; both leave Delta V n steps
// after arriving), landmarks, Gamma_phi^+, Delta V, phi(Delta). Per step: O(dm + m^2).
#pragma once

#include "attention/families/cony_heads_common.hpp"

namespace cosda {

const exact::Forms& closed_forms_cony_si_fix();

template <class E>
class CoNySiFix final : public ContinualNystrom<E, FixedLandmarkRows<E>> {
  using B = ContinualNystrom<E, FixedLandmarkRows<E>>;
  using B::n_, B::d_, B::h_, B::dh_, B::m_, B::seen_, B::lm_, B::delta_;

 public:
  using S = typename E::Scalar;
  static constexpr VariantTraits kTraits{.id = "cony_si_fix",
                                         .paper_name = "Att_CoNySi^Fix",
                                         .family = Family::kNystrom,
                                         .single_output = true,
                                         .continual = true,
                                         .landmarks = LandmarkKind::kFixed,
                                         .style = {"#999933", 8},
                                         .closed_forms = &closed_forms_cony_si_fix};

  // c.fixed_q and c.fixed_k are m x d, sliced per head as MultiHead slices them.
  explicit CoNySiFix(const Config& c, std::int64_t heads = 1)
      : B(c, heads), out_minor_(h_ > 1 ? 1 : 0, d_), out_(1, d_) {}

  bool step(const S* q, const S* k, const S* v) override {
    delta_.slide(seen_, lm_.qt(), k, v, -1);  // (Eqs. 24, 25)
    if (++seen_ < n_) return false;
    // row_i = (beta_i / beta_i 1^T) G_i, beta_i = exp(q_i Kt_i^T / sqrt(dh))  (Eqs. 22, 23),
    // out_i = row_i Delta_phi V_i (Eq. 26); one head's is its own layout, written in place
    S* out = h_ > 1 ? out_minor_.data() : out_.data();
    delta_.attend(lm_.row(q, delta_.shift()), out);
    if (h_ > 1) ops::heads_minor_to_heads<E>(h_, dh_, out, out_.data());
    return true;
  }
  MatCRef<S> output() const override { return out_; }

 private:
  Mat<S> out_minor_, out_;
};

}  // namespace cosda
