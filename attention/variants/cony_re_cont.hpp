// cony_re_cont: Continual Retroactive Nyström SDA with continual landmarks (Att_CoNyRe^Cont,
// Nyström Sec. IV-A): Eq. 21 on landmark-update steps, Eq. 23 on the others. Output n x d in
// window order. State (head-minor): ContinualLandmarks, DeltaHeads, the scaled query ring,
// B = rho(Q, Kt), phi(B) and the rows of B_phi Gamma_phi^+ (output as cony_re_fix); an update step
// recomputes B's replaced column (Eqs. 15, 18) and all rows, other steps the newest query's row.
// Per step: O(ndm); update steps add O(nd + nm^2 + m^3).
#pragma once

#include <cmath>

#include "attention/families/continual_landmarks.hpp"
#include "attention/families/cony_heads_common.hpp"
#include "attention/ops/heads_rows.hpp"

namespace cosda {

const exact::Forms& closed_forms_cony_re_cont();

template <class E>
class CoNyReCont final : public ContinualNystrom<E, ContinualLandmarks<E>> {
  using B = ContinualNystrom<E, ContinualLandmarks<E>>;
  using B::n_, B::d_, B::h_, B::dh_, B::m_, B::seen_, B::updated_, B::lm_, B::delta_;

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

  explicit CoNyReCont(const Config& c, std::int64_t heads = 1)
      : B(c, heads),
        inv_sqrt_dh_(1.0 / std::sqrt(double(dh_))),
        q_(n_, d_),
        b_(n_, h_ * m_),
        phi_b_(n_, h_),
        inv_(n_, h_),
        bphi_(n_, h_ * m_),
        bg_minor_(h_ > 1 ? n_ : 0, h_ * m_),
        bg_(n_, h_ * m_),
        col_(n_, h_),
        new_(2, d_),
        dvn_(h_ > 1 ? h_ * m_ : 0, dh_),
        out_(n_, d_) {}

  bool step(const S* q, const S* k, const S* v) override {
    const std::int64_t t = seen_, j = t % n_;
    updated_ = t >= n_ && lm_.tick();
    const std::int64_t l = lm_.slot();
    delta_.slide(t, lm_.qt(), k, v, updated_ ? l : -1);  // (Eqs. 24, 25)
    S* qs = &q_(j, 0);
    ops::heads_minor_from_heads<E>(h_, dh_, q, qs);
    ops::scale<E>(qs, d_, inv_sqrt_dh_);
    if (t < n_) lm_.warm(qs, &delta_.k()(j, 0), t);
    if (++seen_ < n_) return false;
    if (t == n_ - 1) {
      prime();
    } else if (updated_) {
      const std::int64_t s = lm_.segment();
      segment_mean<E>(q_, t - s + 1, s, &new_(0, 0));  // Eqs. 13-14
      segment_mean<E>(delta_.k(), t - s + 1, s, &new_(1, 0));
      lm_.replace(&new_(0, 0), &new_(1, 0));  // (Eqs. 16, 19)
      delta_.recompute_rows(lm_.qt(), l, 1);  // Eqs. 17, 20
      replace_column(j, l);                   // Eqs. 15, 18
      newest_row(j);
      recompute_bg();
    } else {
      newest_row(j);  // (Eqs. 22, 23)
      ops::reciprocals<E>(&phi_b_(j, 0), &inv_(j, 0), h_);
      ops::heads_minor_scale_rows<E>(1, m_, h_, &b_(j, 0), &inv_(j, 0), &bphi_(j, 0));
      ops::heads_minor_gemm<E>(1, m_, m_, h_, &bphi_(j, 0), lm_.g(), bg_row(j));
      if (h_ > 1) ops::heads_minor_to_heads<E>(h_, m_, bg_row(j), &bg_(j, 0));
    }
    // out_i = (B_phi Gamma_phi^+)_i (Delta_phi V)_i in window order (Eqs. 21, 23); h = 1 in place
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
  // Row i of B_phi Gamma_phi^+ head-minor: its own row in bg_ at h = 1, else in bg_minor_.
  S* bg_row(std::int64_t i) { return h_ > 1 ? &bg_minor_(i, 0) : &bg_(i, 0); }

  // The end of the first window: the landmark kernel (Eq. 16), every Delta row (Eqs. 17, 20),
  // B = rho(Q, Kt) with phi(B) (Eqs. 15, 18), and B_phi Gamma_phi^+.
  void prime() {
    lm_.prime();
    delta_.recompute_rows(lm_.qt(), 0, m_);
    ops::heads_minor_gemm_nt<E>(n_, dh_, m_, h_, q_.data(), lm_.kt(), b_.data());
    ops::exp_inplace<E>(b_.data(), n_ * h_ * m_, delta_.shift());
    ops::heads_minor_row_sums<E>(n_, m_, h_, b_.data(), phi_b_.data());
    recompute_bg();
  }

  // Column l of every head's B for every query but the newest (in ring slot j), phi(B) with
  // the old column's entries out and the new ones in  (Eqs. 15, 18).
  void replace_column(std::int64_t j, std::int64_t l) {
    for_rows_except(n_, j, [&](std::int64_t first, std::int64_t count) {
      auto old = b_.block(first, l * h_, count, h_);  // whole columns: three ops, not 3 per row
      auto phi = phi_b_.middleRows(first, count), col = col_.middleRows(first, count);
      ops::heads_minor_gemm_nt<E>(1, dh_, count, h_, lm_.kt() + l * d_, &q_(first, 0), col.data());
      ops::exp_inplace<E>(col, delta_.shift());
      ops::add<E>(old, phi, -1);
      ops::add<E>(col, phi, +1);
      ops::copy<E>(col, old);
    });
  }

  // The newest query's row of every head's B (ring slot j) and its phi(B).
  void newest_row(std::int64_t j) {
    ops::heads_minor_gemm_nt<E>(1, dh_, m_, h_, &q_(j, 0), lm_.kt(), &b_(j, 0));
    ops::exp_inplace<E>(&b_(j, 0), h_ * m_, delta_.shift());
    ops::heads_minor_row_sums<E>(1, m_, h_, &b_(j, 0), &phi_b_(j, 0));
  }

  // B_phi Gamma_phi^+ for every query: rows of B divided by phi(B), times Gamma_phi^+.
  void recompute_bg() {
    ops::reciprocals<E>(phi_b_.data(), inv_.data(), n_ * h_);
    ops::heads_minor_scale_rows<E>(n_, m_, h_, b_.data(), inv_.data(), bphi_.data());
    ops::heads_minor_gemm<E>(n_, m_, m_, h_, bphi_.data(), lm_.g(), bg_row(0));
    if (h_ > 1)
      for (std::int64_t i = 0; i < n_; ++i)
        ops::heads_minor_to_heads<E>(h_, m_, &bg_minor_(i, 0), &bg_(i, 0));
  }

  S inv_sqrt_dh_;
  Mat<S> q_, b_, phi_b_, inv_, bphi_, bg_minor_, bg_, col_, new_, dvn_, out_;
};

}  // namespace cosda
