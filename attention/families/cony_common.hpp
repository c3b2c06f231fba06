// State shared by the four continual Nyström variants (Nyström paper Sec. IV).
#pragma once

#include "attention/families/nystrom.hpp"
#include "attention/families/window.hpp"

namespace cosda {

// Delta V (m x d) and phi(Delta) (m) over the current window, one row per landmark, kept up
// to date by removing k_old/v_old and adding k_new/v_new:
//   phi(Delta) <- phi(Delta) - rho(Qt, k_old) + rho(Qt, k_new)          (Eq. 24, corrected)
//   Delta V    <- Delta V - rho(Qt, k_old) v_old + rho(Qt, k_new) v_new  (Eqs. 17, 25)
// Eq. 24 is printed on reciprocals, phi(Delta)^-1 - rho^-1 + rho^-1, which is not the
// reciprocal of the updated sum (analysis/corrections.md); the sums are kept and inverted.
template <class E>
class DeltaState {
 public:
  using S = typename E::Scalar;

  // shift: the stabilised mode's exponent shift (Config::exp_shift), used by every exp here.
  DeltaState(std::int64_t n, std::int64_t d, std::int64_t m, const ops::Shift<S>& shift = {})
      : n_(n),
        d_(d),
        m_(m),
        dv_(m, d),
        phi_(m),
        e_old_(1, m),
        e_new_(1, m),
        a_(1, n),
        dvn_(m, d),
        inv_(m),
        shift_(shift) {}

  const ops::Shift<S>& shift() const { return shift_; }

  // Row i from scratch over the window: rho(qt_i, K) 1 and rho(qt_i, K) V  (Eqs. 17, 20).
  void recompute_row(std::int64_t i, MatCRef<S> qt, MatCRef<S> k, MatCRef<S> v) {
    ops::gemm_nt<E>(qt.row(i), k, a_);
    ops::exp_inplace<E>(a_.data(), n_, shift_);
    ops::store<E>(ops::sum<E>(a_.data(), n_), &phi_[i]);
    ops::gemm_nn<E>(a_, v, dv_.row(i));
  }

  // The window slides: k_old/v_old leave, k_new/v_new enter, for every landmark row but skip
  // (skip = -1: all rows).
  void slide(MatCRef<S> qt, const S* k_old, const S* v_old, const S* k_new, const S* v_new,
             std::int64_t skip) {
    for_rows_except(m_, skip, [&](std::int64_t first, std::int64_t count) {
      ops::retro_update<E>(qt.middleRows(first, count), k_old, k_new, v_old, v_new,
                           &e_old_(0, first), &e_new_(0, first), &phi_[first],
                           dv_.middleRows(first, count), shift_);
    });
  }

  // out = row Delta_phi V for one output row, scaling the row (m) rather than Delta V (md):
  // (row diag(phi(Delta))^-1) (Delta V). row is overwritten.  (Eq. 26)
  void attend(MatRef<S> row, MatRef<S> out) {
    ops::reciprocals<E>(phi_.data(), inv_.data(), m_);
    const ChainScope<E> chain("row Delta_phi V");
    ops::multiply<E>(inv_.data(), row.data(), m_);
    ops::gemm_nn<E>(row, dv_, out);
  }

  // Delta_phi V = diag(phi(Delta))^-1 Delta V, shared by the n output rows of the
  // retroactive variants.
  const Mat<S>& normalized() {
    ops::reciprocals<E>(phi_.data(), inv_.data(), m_);
    ops::scale_rows_into<E>(dv_, inv_.data(), dvn_);
    return dvn_;
  }

 private:
  std::int64_t n_, d_, m_;
  Mat<S> dv_;
  std::vector<S> phi_;
  Mat<S> e_old_, e_new_, a_, dvn_;
  std::vector<S> inv_;
  ops::Shift<S> shift_;
};

// The newest query's row of B_phi Gamma_phi^+: beta = rho(q_s, Kt) (raw, kept in `beta`),
// row = (beta / beta 1^T) G. Returns beta 1^T.  (Eqs. 22, 23, 26)
template <class E>
typename E::Scalar beta_row(MatCRef<typename E::Scalar> qs, MatCRef<typename E::Scalar> kt,
                            MatCRef<typename E::Scalar> g, MatRef<typename E::Scalar> beta,
                            MatRef<typename E::Scalar> scratch, MatRef<typename E::Scalar> row,
                            const ops::Shift<typename E::Scalar>& shift = {}) {
  const std::int64_t m = kt.rows();
  ops::gemm_nt<E>(qs, kt, beta);
  ops::exp_inplace<E>(&beta(0, 0), m, shift);
  const auto phi = ops::sum<E>(&beta(0, 0), m);
  ops::scale_into<E>(beta, ops::reciprocal<E>(phi), scratch);
  const ChainScope<E> chain("beta_phi G");
  ops::gemm_nn<E>(scratch, g, row);
  return phi;
}

}  // namespace cosda
