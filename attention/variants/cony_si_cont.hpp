// cony_si_cont: Continual Single-Output Nyström SDA with continual landmarks (Att_CoNySi^Cont,
// Nyström Sec. IV-A): Eq. 22 on landmark-update steps, Eq. 26 on the others. Delta V, phi(Delta)
// slide (Eqs. 24-25; 17, 20 for the replaced landmark's row); Gamma and its pinv change on update
// steps. Output 1 x d. State (head-minor): DeltaHeads, ContinualLandmarks and the sum of the
// segment's scaled queries (a new landmark query is their mean). Per step: O(dm + m^2); update
// steps O(nd + dm^2... + m^3) for the new Delta row and pinv.
#pragma once

#include <cmath>

#include "attention/families/continual_landmarks.hpp"
#include "attention/families/cony_heads_common.hpp"

namespace cosda {

const exact::Forms& closed_forms_cony_si_cont();

template <class E>
class CoNySiCont final : public ContinualNystrom<E, ContinualLandmarks<E>> {
  using B = ContinualNystrom<E, ContinualLandmarks<E>>;
  using B::n_, B::d_, B::h_, B::dh_, B::m_, B::seen_, B::updated_, B::lm_, B::delta_;

 public:
  using S = typename E::Scalar;
  static constexpr VariantTraits kTraits{.id = "cony_si_cont",
                                         .paper_name = "Att_CoNySi^Cont",
                                         .family = Family::kNystrom,
                                         .single_output = true,
                                         .continual = true,
                                         .landmarks = LandmarkKind::kContinual,
                                         .style = {"#d55e00", 4},
                                         .closed_forms = &closed_forms_cony_si_cont};

  explicit CoNySiCont(const Config& c, std::int64_t heads = 1)
      : B(c, heads),
        inv_sqrt_dh_(1.0 / std::sqrt(double(dh_))),
        beta_(1, h_ * m_),
        row_(1, h_ * m_),
        sums_(1, h_ * m_),
        qs_(1, d_),
        qsum_(1, d_),
        new_(2, d_),
        out_minor_(h_ > 1 ? 1 : 0, d_),
        out_(1, d_) {
    qsum_.setConstant(S(0.0));
  }

  bool step(const S* q, const S* k, const S* v) override {
    const std::int64_t t = seen_, j = t % n_;
    updated_ = t >= n_ && lm_.tick();
    const std::int64_t l = lm_.slot();
    delta_.slide(t, lm_.qt(), k, v, updated_ ? l : -1);  // (Eqs. 24, 25)
    S* qs = qs_.data();
    ops::heads_minor_from_heads<E>(h_, dh_, q, qs);
    ops::scale<E>(qs, d_, inv_sqrt_dh_);
    if (t < n_) lm_.warm(qs, &delta_.k()(j, 0), t);
    if (t >= n_) ops::add<E>(qs, qsum_.data(), d_);  // the segment's queries so far
    if (++seen_ < n_) return false;
    if (t == n_ - 1) {
      lm_.prime();                             // (Eq. 16)
      delta_.recompute_rows(lm_.qt(), 0, m_);  // (Eqs. 17, 20)
    } else if (updated_) {
      const std::int64_t s = lm_.segment();
      ops::copy<E>(qsum_.data(), qsum_.data() + d_, &new_(0, 0));  // Eqs. 13-14
      ops::divide<E>(&new_(0, 0), d_, S(double(s)));
      for (std::int64_t i = 0; i < d_; ++i) ops::store<E>(S(0.0), &qsum_(0, i));
      segment_mean<E>(delta_.k(), t - s + 1, s, &new_(1, 0));
      lm_.replace(&new_(0, 0), &new_(1, 0));  // (Eqs. 16, 19)
      delta_.recompute_rows(lm_.qt(), l, 1);  // Eqs. 17, 20
    }
    // beta_i = rho(q_i, Kt_i), row_i = (beta_i / beta_i 1^T) G_i  (Eqs. 22, 23)
    ops::heads_minor_gemm_nt<E>(1, dh_, m_, h_, qs, lm_.kt(), beta_.data());
    landmark_rows_heads<E>(m_, h_, beta_.data(), lm_.g(), sums_.data(), row_.data(),
                           delta_.shift());
    // out_i = row_i Delta_phi V_i (Eqs. 22, 26); one head's is its own layout, written in place
    S* out = h_ > 1 ? out_minor_.data() : out_.data();
    delta_.attend(row_.data(), out);
    if (h_ > 1) ops::heads_minor_to_heads<E>(h_, dh_, out, out_.data());
    return true;
  }
  MatCRef<S> output() const override { return out_; }

 private:
  S inv_sqrt_dh_;
  Mat<S> beta_, row_, sums_, qs_, qsum_, new_, out_minor_, out_;
};

}  // namespace cosda
