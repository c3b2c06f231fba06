// cony_si_fix: Continual Single-Output Nyström SDA with fixed landmarks (Att_CoNySi^Fix,
// Nyström paper Sec. IV-B, Eq. 26): out = ((beta_phi)_new Gamma_phi^+) Delta_phi V, with
// Gamma_phi^+ computed once and Delta V, phi(Delta) slid per step (Eqs. 24-25).
// Output 1 x d. State: K and V rings (k_old and v_old must be removed from Delta V n steps
// after they arrive), landmarks, Gamma_phi^+, Delta V, phi(Delta). Per step: O(dm + m^2).
#pragma once

#include "attention/families/cony_common.hpp"
#include "attention/variants/ny_fix.hpp"

namespace cosda {

// Its exact closed forms (attention/variants/cony_si_fix.cpp).
const exact::Forms& closed_forms_cony_si_fix();

template <class E>
class CoNySiFix final : public Attention<E> {
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

  explicit CoNySiFix(const Config& c)
      : n_(c.n),
        d_(c.d),
        m_(c.m),
        inv_sqrt_d_(1.0 / std::sqrt(double(c.d))),
        fixed_(c),
        delta_(n_, d_, m_, ops::shift_of<S>(c.exp_shift)),
        k_(n_, d_),
        v_(n_, d_),
        q_(1, d_),
        beta_(1, m_),
        scratch_(1, m_),
        row_(1, m_),
        out_(1, d_) {}

  bool step(const S* q, const S* k, const S* v) override {
    const std::int64_t j = seen_ % n_;
    if (seen_ >= n_) {
      delta_.slide(fixed_.qt, &k_(j, 0), &v_(j, 0), k, v, -1);
    }
    ops::copy<E>(k, k + d_, &k_(j, 0));
    ops::copy<E>(v, v + d_, &v_(j, 0));
    if (++seen_ < n_) return false;
    if (seen_ == n_)
      for (std::int64_t i = 0; i < m_; ++i) delta_.recompute_row(i, fixed_.qt, k_, v_);
    ops::copy<E>(q, q + d_, q_.data());
    ops::scale<E>(q_.data(), d_, inv_sqrt_d_);
    beta_row<E>(q_, fixed_.kt, fixed_.g, beta_, scratch_, row_, delta_.shift());
    delta_.attend(row_, out_);  // Eq. 26
    return true;
  }
  MatCRef<S> output() const override { return out_; }
  const Mat<S>* landmarks_q_scaled() const override { return &fixed_.qt; }
  const Mat<S>* landmarks_k() const override { return &fixed_.kt; }

 private:
  std::int64_t n_, d_, m_, seen_ = 0;
  S inv_sqrt_d_;
  FixedLandmarks<E> fixed_;
  DeltaState<E> delta_;
  Mat<S> k_, v_, q_, beta_, scratch_, row_, out_;
};

}  // namespace cosda
