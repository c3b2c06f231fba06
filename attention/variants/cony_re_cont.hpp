// cony_re_cont: Continual Retroactive Nyström SDA with continual landmarks
// (Att_CoNyRe^Cont, Nyström paper Sec. IV-A): Eq. 21 on landmark-update steps, Eq. 23 on
// the others. B = rho(Q, Kt) and phi(B) are kept: on update steps the replaced landmark's
// column is recomputed for every query (Eqs. 15, 18) and all rows of B_phi Gamma_phi^+ are
// recomputed; on other steps only the newest query's row is computed.
// Output n x d. State: Q, K, V rings, B, phi(B), B_phi Gamma_phi^+, landmarks, Gamma,
// phi(Gamma), Gamma_phi^+, Delta V, phi(Delta). Per step: O(ndm); update steps add
// O(nd + nm^2 + m^3).
#pragma once

#include "attention/families/continual_landmarks.hpp"
#include "attention/families/cony_common.hpp"

namespace cosda {

// Its exact closed forms (attention/variants/cony_re_cont.cpp).
const exact::Forms& closed_forms_cony_re_cont();

template <class E>
class CoNyReCont final : public Attention<E> {
 public:
  using S = typename E::Scalar;
  static constexpr VariantTraits kTraits{.id = "cony_re_cont",
                                         .paper_name = "Att_CoNyRe^Cont",
                                         .family = Family::kNystrom,
                                         .single_output = false,
                                         .continual = true,
                                         .landmarks = LandmarkKind::kContinual,
                                         .style = {"#cc79a7", 6},
                                         .closed_forms = &closed_forms_cony_re_cont};

  explicit CoNyReCont(const Config& c)
      : n_(c.n),
        d_(c.d),
        m_(c.m),
        inv_sqrt_d_(1.0 / std::sqrt(double(c.d))),
        lm_(n_, d_, m_, c.pinv_iterations, c.exact_pinv, ops::shift_of<S>(c.exp_shift)),
        delta_(n_, d_, m_, ops::shift_of<S>(c.exp_shift)),
        q_(n_, d_),
        k_(n_, d_),
        v_(n_, d_),
        b_(n_, m_),
        phi_b_(n_),
        bg_(n_, m_),
        new_(2, d_),
        col_(1, n_),
        bphi_(n_, m_),
        inv_(n_),
        scratch_(1, m_),
        out_(n_, d_) {}

  bool step(const S* q, const S* k, const S* v) override {
    const std::int64_t t = seen_, j = t % n_;
    updated_ = false;
    if (t >= n_) {
      updated_ = lm_.tick();
      delta_.slide(lm_.qt(), &k_(j, 0), &v_(j, 0), k, v, updated_ ? lm_.slot() : -1);
    }
    ops::copy<E>(k, k + d_, &k_(j, 0));
    ops::copy<E>(v, v + d_, &v_(j, 0));
    ops::copy<E>(q, q + d_, &q_(j, 0));
    ops::scale<E>(&q_(j, 0), d_, inv_sqrt_d_);
    if (t < n_) lm_.warm(&q_(j, 0), k, t);
    if (++seen_ < n_) return false;
    if (t == n_ - 1) {
      prime();
    } else if (updated_) {
      const std::int64_t s = lm_.segment(), l = lm_.slot();
      segment_mean<E>(q_, t - s + 1, s, &new_(0, 0));  // Eqs. 13-14
      segment_mean<E>(k_, t - s + 1, s, &new_(1, 0));
      lm_.replace(&new_(0, 0), &new_(1, 0));
      delta_.recompute_row(l, lm_.qt(), k_, v_);                            // Eqs. 17, 20
      for_rows_except(n_, j, [&](std::int64_t first, std::int64_t count) {  // Eqs. 15, 18
        ops::gemm_nt<E>(lm_.kt().row(l), q_.middleRows(first, count),
                        col_.middleCols(first, count));
        ops::exp_inplace<E>(&col_(0, first), count, delta_.shift());
        for (std::int64_t i = first; i < first + count; ++i) {
          ops::add<E>(&b_(i, l), &phi_b_[i], 1, -1);
          ops::add<E>(&col_(0, i), &phi_b_[i], 1, +1);
          ops::copy<E>(&col_(0, i), &col_(0, i) + 1, &b_(i, l));
        }
      });
      ops::gemm_nt<E>(q_.row(j), lm_.kt(), b_.row(j));  // the newest query's row of B
      ops::exp_inplace<E>(&b_(j, 0), m_, delta_.shift());
      ops::store<E>(ops::sum<E>(&b_(j, 0), m_), &phi_b_[j]);
      recompute_bg();
    } else {
      ops::store<E>(beta_row<E>(q_.row(j), lm_.kt(), lm_.g(), b_.row(j), scratch_, bg_.row(j),
                                delta_.shift()),
                    &phi_b_[j]);
    }
    const ChainScope<E> chain("rows Delta_phi V");
    const Mat<S>& dvn = delta_.normalized();
    for_ring_in_window_order(n_, seen_ % n_,
                             [&](std::int64_t first, std::int64_t count, std::int64_t row) {
                               ops::gemm_nn<E>(bg_.middleRows(first, count), dvn,
                                               out_.middleRows(row, count));  // Eq. 21
                             });
    return true;
  }
  MatCRef<S> output() const override { return out_; }
  bool updated_landmarks() const override { return updated_; }
  const Mat<S>* landmarks_q_scaled() const override { return &lm_.qt(); }
  const Mat<S>* landmarks_k() const override { return &lm_.kt(); }

 private:
  void prime() {
    lm_.prime();
    for (std::int64_t i = 0; i < m_; ++i) delta_.recompute_row(i, lm_.qt(), k_, v_);
    ops::gemm_nt<E>(q_, lm_.kt(), b_);
    ops::exp_inplace<E>(b_, delta_.shift());
    ops::row_sums<E>(b_, phi_b_.data());
    recompute_bg();
  }

  // B_phi Gamma_phi^+ for every query: rows of B divided by phi(B), times Gamma_phi^+.
  void recompute_bg() {
    ops::reciprocals<E>(phi_b_.data(), inv_.data(), n_);
    ops::scale_rows_into<E>(b_, inv_.data(), bphi_);
    ops::gemm_nn<E>(bphi_, lm_.g(), bg_);
  }

  std::int64_t n_, d_, m_, seen_ = 0;
  bool updated_ = false;
  S inv_sqrt_d_;
  ContinualLandmarks<E> lm_;
  DeltaState<E> delta_;
  Mat<S> q_, k_, v_, b_;
  std::vector<S> phi_b_;
  Mat<S> bg_, new_, col_, bphi_;
  std::vector<S> inv_;
  Mat<S> scratch_, out_;
};

}  // namespace cosda
