// The continual Nyström variants' state (Sec. IV): Delta V, phi(Delta), K and V rings, landmark
// rows and fixed landmarks, head-minor (ops/heads_minor.hpp; h = 1: a head's own row-major layout).
#pragma once

#include <cmath>
#include <type_traits>

#include "attention/counting/chain_tally.hpp"
#include "attention/families/nystrom.hpp"
#include "attention/families/window.hpp"
#include "attention/ops/heads_minor.hpp"

namespace cosda {

// Every head's Delta V (m x dh) and phi(Delta) (m) over the window, a row per landmark, slid:
//   phi(Delta) <- phi(Delta) - rho(Qt, k_old) + rho(Qt, k_new)          (Eq. 24, corrected)
//   Delta V    <- Delta V - rho(Qt, k_old) v_old + rho(Qt, k_new) v_new  (Eqs. 17, 25)
// Eq. 24 is printed on reciprocals, which is not the reciprocal of the updated sum
// (analysis/corrections.md); the sums are kept and inverted.
// Continual landmarks change, so rho(Qt, k_old) is computed anew from a ring of keys (n x d).
// Fixed landmarks (`fixed`) never do: a token's scores rho(Qt, k) stay valid for its n steps in
// the window and are kept instead of its key (n x hm, smaller than n x d where m < d/h), so a
// leaving token costs no product and no exponential.
template <class E>
class DeltaHeads {
 public:
  using S = typename E::Scalar;

  DeltaHeads(std::int64_t n, std::int64_t dh, std::int64_t m, std::int64_t h,
             const ops::Shift<S>& shift, bool fixed = false)
      : n_(n),
        dh_(dh),
        m_(m),
        h_(h),
        d_(h * dh),
        fixed_(fixed),
        // Fixed: the empty window's sums are zero, and so is what leaves them first.
        dv_(Mat<S>::Zero(1, h * m * dh)),
        dvn_(1, h * m * dh),
        phi_(Mat<S>::Zero(1, h * m)),
        inv_(1, h * m),
        e_old_(1, fixed ? 0 : h * m),
        e_new_(1, h * m),
        a_(1, fixed ? 0 : h * n),
        k_(Mat<S>::Zero(n, fixed ? h * m : d_)),
        v_(Mat<S>::Zero(n, d_)),
        k_new_(h > 1 ? 1 : 0, d_),
        v_new_(h > 1 ? 1 : 0, d_),
        shift_(shift) {}

  const ops::Shift<S>& shift() const { return shift_; }
  // The ring of keys, head-minor, a token per row (fixed: of the tokens' scores, h m a row).
  const Mat<S>& k() const { return k_; }

  // The token after `seen` enters ring slot seen % n, whose token (window full) first leaves every
  // Delta row but `skip` (-1: all rows)  (Eqs. 24, 25). qt: m x dh head-minor.
  void slide(std::int64_t seen, const S* qt, const S* k, const S* v, std::int64_t skip) {
    const std::int64_t j = seen % n_;
    if (fixed_) return slide_scores(j, qt, k, v);
    if (seen < n_) {
      ops::heads_minor_from_heads<E>(h_, dh_, k, &k_(j, 0));
      ops::heads_minor_from_heads<E>(h_, dh_, v, &v_(j, 0));
      return;
    }
    // One head's token is already head-minor: it is read where it is, not copied first.
    if (h_ > 1) {
      ops::heads_minor_from_heads<E>(h_, dh_, k, k_new_.data());
      ops::heads_minor_from_heads<E>(h_, dh_, v, v_new_.data());
      k = k_new_.data();
      v = v_new_.data();
    }
    for_rows_except(m_, skip, [&](std::int64_t first, std::int64_t count) {
      ops::heads_minor_retro_update<E>(count, dh_, dh_, h_, qt + first * d_, &k_(j, 0), k,
                                       &v_(j, 0), v, e_old_.data() + first * h_,
                                       e_new_.data() + first * h_, phi_.data() + first * h_,
                                       dv_.data() + first * d_, shift_);
    });
    ops::copy<E>(k, k + d_, &k_(j, 0));
    ops::copy<E>(v, v + d_, &v_(j, 0));
  }

  // Fixed landmarks: the new token's scores e = rho(Qt, k) (h m) enter, and the kept scores of
  // slot j's token leave (zeros while the window fills)  (Eqs. 24, 25).
  void slide_scores(std::int64_t j, const S* qt, const S* k, const S* v) {
    if (h_ > 1) {  // one head's token is head-minor already
      ops::heads_minor_from_heads<E>(h_, dh_, k, k_new_.data());
      ops::heads_minor_from_heads<E>(h_, dh_, v, v_new_.data());
      k = k_new_.data();
      v = v_new_.data();
    }
    ops::heads_minor_gemm_nt<E>(m_, dh_, 1, h_, qt, k, e_new_.data());
    ops::exp_inplace<E>(e_new_.data(), h_ * m_, shift_);
    ops::heads_minor_slide_sums<E>(m_, dh_, h_, &k_(j, 0), e_new_.data(), &v_(j, 0), v, phi_.data(),
                                   dv_.data());
    ops::copy<E>(e_new_.data(), e_new_.data() + h_ * m_, &k_(j, 0));
    ops::copy<E>(v, v + d_, &v_(j, 0));
  }

  // Delta rows [first, first + count) from scratch, a row at a time (scores a, h n, the only
  // scratch): a = rho(Qt, K), phi = a 1, Delta V = a V  (Eqs. 17, 20). Continual landmarks only:
  // fixed ones keep no K and never recompute.
  void recompute_rows(const S* qt, std::int64_t first, std::int64_t count) {
    for (std::int64_t i = first; i < first + count; ++i) {
      ops::heads_minor_gemm_nt<E>(1, dh_, n_, h_, qt + i * d_, k_.data(), a_.data());
      ops::exp_inplace<E>(a_.data(), n_ * h_, shift_);
      ops::heads_minor_row_sums<E>(1, n_, h_, a_.data(), phi_.data() + i * h_);
      ops::heads_minor_gemm<E>(1, n_, dh_, h_, a_.data(), v_.data(), dv_.data() + i * d_);
    }
  }

  // Delta_phi V_i = diag(phi(Delta)_i)^-1 Delta V_i of every head, m x dh head-minor (Eq. 26).
  const S* normalized() {
    ops::reciprocals<E>(phi_.data(), inv_.data(), h_ * m_);
    ops::heads_minor_scale_rows<E>(m_, dh_, h_, dv_.data(), inv_.data(), dvn_.data());
    return dvn_.data();
  }

  // out_i = row_i Delta_phi V_i (1 x dh head-minor) as (row_i diag(phi(Delta)_i)^-1) Delta V_i:
  // scaling the row (hm) rather than Delta V (hm dh); row is overwritten.  (Eq. 26)
  void attend(S* row, S* out) {
    ops::reciprocals<E>(phi_.data(), inv_.data(), h_ * m_);
    const ChainScope<E> chain("row Delta_phi V");
    ops::multiply<E>(inv_.data(), row, h_ * m_);
    ops::heads_minor_gemm<E>(1, m_, dh_, h_, row, dv_.data(), out);
  }

 private:
  std::int64_t n_, dh_, m_, h_, d_;
  bool fixed_;
  Mat<S> dv_, dvn_, phi_, inv_, e_old_, e_new_, a_, k_, v_, k_new_, v_new_;  // k_: fixed, scores
  ops::Shift<S> shift_;
};

// row_i = (beta_i / beta_i 1^T) G_i of every head from its scores beta_i = q_i Kt_i^T (1 x m,
// exponentiated here); beta and sums: scratch, h m each; G m x m head-minor (Eqs. 22, 23, 26).
template <class E>
void landmark_rows_heads(std::int64_t m, std::int64_t h, typename E::Scalar* beta,
                         const typename E::Scalar* g, typename E::Scalar* sums,
                         typename E::Scalar* row, const ops::Shift<typename E::Scalar>& shift) {
  ops::exp_inplace<E>(beta, h * m, shift);
  ops::heads_minor_normalize_rows<E>(1, m, h, beta, sums);
  const ChainScope<E> chain("beta_phi G");
  ops::heads_minor_gemm<E>(1, m, m, h, beta, g, row);
}

// Every head's fixed landmarks, head-minor: Qt_i, Kt_i (m x dh) scaled by 1/sqrt(dh), Gamma_phi^+_i
// (m x m), from its slice of c.fixed_q and c.fixed_k (FixedLandmarks); the newest query's rows.
template <class E>
class FixedLandmarkRows {
 public:
  using S = typename E::Scalar;

  FixedLandmarkRows(const Config& c, std::int64_t heads)
      : h_(heads),
        dh_(head_width(c, heads)),
        m_(c.m),
        qt_(c.m, c.d),
        kt_(c.m, c.d),
        g_(1, heads * c.m * c.m),
        q_(1, c.d),
        beta_(1, heads * c.m),
        sums_(1, heads * c.m),
        row_(1, heads * c.m) {
    for (std::int64_t i = 0; i < h_; ++i) {
      const FixedLandmarks<E> head(head_config(c, heads, i));
      for (std::int64_t a = 0; a < m_; ++a) {
        for (std::int64_t l = 0; l < dh_; ++l) {
          qt_((a * dh_ + l) * h_ + i) = head.qt(a, l);
          kt_((a * dh_ + l) * h_ + i) = head.kt(a, l);
        }
        for (std::int64_t b = 0; b < m_; ++b) g_((a * m_ + b) * h_ + i) = head.g(a, b);
      }
    }
  }

  const S* qt() const { return qt_.data(); }
  // Qt and Kt, m x d head-minor: at h = 1 the head's own (Attention::landmarks_q_scaled).
  const Mat<S>& qt_matrix() const { return qt_; }
  const Mat<S>& kt_matrix() const { return kt_; }

  // row_i = (beta_i / beta_i 1^T) G_i, beta_i = exp(q_i Kt_i^T / sqrt(dh))  (Eqs. 22, 23, 26),
  // 1 x m head-minor, into dst (h m) or, if null, an own buffer; returns where it is.
  S* row(const S* q, const ops::Shift<S>& shift, S* dst = nullptr) {
    S* row = dst != nullptr ? dst : row_.data();
    ops::heads_minor_from_heads<E>(h_, dh_, q, q_.data());  // raw: Kt comes scaled
    ops::heads_minor_gemm_nt<E>(1, dh_, m_, h_, q_.data(), kt_.data(), beta_.data());
    landmark_rows_heads<E>(m_, h_, beta_.data(), g_.data(), sums_.data(), row, shift);
    return row;
  }

 private:
  std::int64_t h_, dh_, m_;
  Mat<S> qt_, kt_, g_, q_, beta_, sums_, row_;
};

// What the four continual Nyström variants share: the shape, the steps seen, Delta V and
// phi(Delta) (DeltaHeads) and the landmarks L (ContinualLandmarks, or FixedLandmarkRows, whose
// tokens keep their scores rather than their keys).
template <class E, class L>
class ContinualNystrom : public Attention<E> {
 public:
  using S = typename E::Scalar;

  bool updated_landmarks() const override { return updated_; }
  // One head's landmarks (head-minor for h > 1).
  const Mat<S>* landmarks_q_scaled() const override { return &lm_.qt_matrix(); }
  const Mat<S>* landmarks_k() const override { return &lm_.kt_matrix(); }

 protected:
  ContinualNystrom(const Config& c, std::int64_t heads)
      : n_(c.n),
        d_(c.d),
        h_(heads),
        dh_(head_width(c, heads)),
        m_(c.m),
        lm_(c, heads),
        delta_(n_, dh_, m_, h_, ops::shift_of<S>(c.exp_shift),
               std::is_same_v<L, FixedLandmarkRows<E>>) {}

  std::int64_t n_, d_, h_, dh_, m_, seen_ = 0;
  bool updated_ = false;  // continual landmarks: this step replaced one
  L lm_;
  DeltaHeads<E> delta_;
};

}  // namespace cosda
