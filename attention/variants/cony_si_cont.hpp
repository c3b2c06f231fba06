// cony_si_cont: Continual Single-Output Nyström SDA with continual landmarks
// (Att_CoNySi^Cont, Nyström paper Sec. IV-A): Eq. 22 on landmark-update steps, Eq. 26 on
// the others. Delta V and phi(Delta) slide per step (Eqs. 24-25; Eqs. 17, 20 for the
// replaced landmark's row); Gamma and its pseudo-inverse change only on update steps.
// Output 1 x d. State: K and V rings, the running sum of the current segment's scaled queries
// (d values: a new landmark query is their mean), landmarks, Gamma, phi(Gamma), Gamma_phi^+,
// Delta V, phi(Delta).
// Per step: O(dm + m^2); update steps O(nd + dm^2... + m^3) for the new Delta row and pinv.
#pragma once

#include "attention/families/continual_landmarks.hpp"
#include "attention/families/cony_common.hpp"

namespace cosda {

// Its exact closed forms (attention/variants/cony_si_cont.cpp).
const exact::Forms& closed_forms_cony_si_cont();

template <class E>
class CoNySiCont final : public Attention<E> {
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

  explicit CoNySiCont(const Config& c)
      : n_(c.n),
        d_(c.d),
        m_(c.m),
        inv_sqrt_d_(1.0 / std::sqrt(double(c.d))),
        lm_(n_, d_, m_, c.pinv_iterations, c.exact_pinv, ops::shift_of<S>(c.exp_shift)),
        delta_(n_, d_, m_, ops::shift_of<S>(c.exp_shift)),
        k_(n_, d_),
        v_(n_, d_),
        qs_(1, d_),
        qsum_(1, d_),
        new_(2, d_),
        beta_(1, m_),
        scratch_(1, m_),
        row_(1, m_),
        out_(1, d_) {
    qsum_.setConstant(S(0.0));
  }

  bool step(const S* q, const S* k, const S* v) override {
    const std::int64_t t = seen_, j = t % n_;
    updated_ = false;
    if (t >= n_) {
      updated_ = lm_.tick();
      delta_.slide(lm_.qt(), &k_(j, 0), &v_(j, 0), k, v, updated_ ? lm_.slot() : -1);
    }
    ops::copy<E>(k, k + d_, &k_(j, 0));
    ops::copy<E>(v, v + d_, &v_(j, 0));
    ops::copy<E>(q, q + d_, qs_.data());
    ops::scale<E>(qs_.data(), d_, inv_sqrt_d_);
    if (t < n_) lm_.warm(qs_.data(), k, t);
    if (t >= n_) ops::add<E>(qs_.data(), qsum_.data(), d_);  // the segment's queries so far
    if (++seen_ < n_) return false;
    if (t == n_ - 1) {
      lm_.prime();
      for (std::int64_t i = 0; i < m_; ++i) delta_.recompute_row(i, lm_.qt(), k_, v_);
    } else if (updated_) {
      const std::int64_t s = lm_.segment(), l = lm_.slot();
      ops::copy<E>(qsum_.data(), qsum_.data() + d_, &new_(0, 0));  // Eqs. 13-14
      ops::divide<E>(&new_(0, 0), d_, S(double(s)));
      for (std::int64_t i = 0; i < d_; ++i) ops::store<E>(S(0.0), &qsum_(0, i));
      segment_mean<E>(k_, t - s + 1, s, &new_(1, 0));
      lm_.replace(&new_(0, 0), &new_(1, 0));
      delta_.recompute_row(l, lm_.qt(), k_, v_);  // Eqs. 17, 20
    }
    beta_row<E>(qs_, lm_.kt(), lm_.g(), beta_, scratch_, row_, delta_.shift());
    delta_.attend(row_, out_);  // Eqs. 22, 26
    return true;
  }
  MatCRef<S> output() const override { return out_; }
  bool updated_landmarks() const override { return updated_; }
  const Mat<S>* landmarks_q_scaled() const override { return &lm_.qt(); }
  const Mat<S>* landmarks_k() const override { return &lm_.kt(); }

 private:
  std::int64_t n_, d_, m_, seen_ = 0;
  bool updated_ = false;
  S inv_sqrt_d_;
  ContinualLandmarks<E> lm_;
  DeltaState<E> delta_;
  Mat<S> k_, v_, qs_, qsum_, new_, beta_, scratch_, row_, out_;
};

}  // namespace cosda
