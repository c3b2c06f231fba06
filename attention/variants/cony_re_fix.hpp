// cony_re_fix: Continual Retroactive Nyström SDA with fixed landmarks (Att_CoNyRe^Fix,
// Nyström paper Sec. IV-B, Eq. 23): the rows of B_phi Gamma_phi^+ depend only on their own
// query and the fixed landmarks, so each is computed once when its token arrives and kept;
// Delta V and phi(Delta) slide per step (Eqs. 24-25); out = (B_phi Gamma_phi^+) Delta_phi V.
// Output n x d. State: K and V rings, the n x m rows of B_phi Gamma_phi^+, landmarks,
// Gamma_phi^+, Delta V, phi(Delta). Per step: O(ndm + dm + m^2).
#pragma once

#include "attention/families/cony_common.hpp"
#include "attention/variants/ny_fix.hpp"

namespace cosda {

// Its exact closed forms (attention/variants/cony_re_fix.cpp).
const exact::Forms& closed_forms_cony_re_fix();

template <class E>
class CoNyReFix final : public Attention<E> {
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

  explicit CoNyReFix(const Config& c)
      : n_(c.n),
        d_(c.d),
        m_(c.m),
        inv_sqrt_d_(1.0 / std::sqrt(double(c.d))),
        fixed_(c),
        delta_(n_, d_, m_, ops::shift_of<S>(c.exp_shift)),
        k_(n_, d_),
        v_(n_, d_),
        bg_(n_, m_),
        q_(1, d_),
        beta_(1, m_),
        scratch_(1, m_),
        out_(n_, d_) {}

  bool step(const S* q, const S* k, const S* v) override {
    const std::int64_t j = seen_ % n_;
    if (seen_ >= n_) {
      delta_.slide(fixed_.qt, &k_(j, 0), &v_(j, 0), k, v, -1);
    }
    ops::copy<E>(k, k + d_, &k_(j, 0));
    ops::copy<E>(v, v + d_, &v_(j, 0));
    ops::copy<E>(q, q + d_, q_.data());
    ops::scale<E>(q_.data(), d_, inv_sqrt_d_);
    beta_row<E>(q_, fixed_.kt, fixed_.g, beta_, scratch_, bg_.row(j), delta_.shift());
    if (++seen_ < n_) return false;
    if (seen_ == n_)
      for (std::int64_t i = 0; i < m_; ++i) delta_.recompute_row(i, fixed_.qt, k_, v_);
    const ChainScope<E> chain("rows Delta_phi V");
    const Mat<S>& dvn = delta_.normalized();
    for_ring_in_window_order(n_, seen_ % n_,
                             [&](std::int64_t first, std::int64_t count, std::int64_t row) {
                               ops::gemm_nn<E>(bg_.middleRows(first, count), dvn,
                                               out_.middleRows(row, count));  // Eq. 23
                             });
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
  Mat<S> k_, v_, bg_, q_, beta_, scratch_, out_;
};

}  // namespace cosda
