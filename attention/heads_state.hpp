// The running state a family's head-batched single-output and retroactive kernels share, as
// their one-head kernels share DeltaState and FeatureSums: FixedLandmarkHeads for
// attention/cony_re_fix_heads.hpp, FeatureSumsHeads for attention/corf_re_heads.hpp (the
// single-output kernels cony_si_fix_heads.hpp and corf_si_heads.hpp keep theirs head-minor,
// attention/ops_heads_minor.hpp). Features are head-strided (head i's at [i dh, (i+1) dh));
// per-head rows and columns of h m are head i's at [i m, (i+1) m).
#pragma once

#include <cmath>

#include "attention/cony_common.hpp"
#include "attention/ny_fix.hpp"
#include "attention/ops_heads.hpp"
#include "attention/random_features.hpp"

namespace cosda {

// Every head's fixed landmarks Q~, K~ and Gamma_phi^+ (m rows each), its Delta V and
// phi(Delta) (Eqs. 17, 20), slid per step (Eqs. 24-25), and the window's K and V rings (n x d).
template <class E>
struct FixedLandmarkHeads {
  using S = typename E::Scalar;

  // c.d is the full width; heads must divide it. c.fixed_q and c.fixed_k are m x d, sliced
  // per head as MultiHead slices them.
  FixedLandmarkHeads(const Config& c, std::int64_t heads)
      : n(c.n),
        d(c.d),
        h(heads),
        dh(head_width(c, heads)),
        m(c.m),
        inv_sqrt_dh(1.0 / std::sqrt(double(dh))),
        qt(h * m, dh),
        kt(h * m, dh),
        g(h * m, m),
        dv(h * m, dh),
        dvn(h * m, dh),
        phi(1, h * m),
        inv(1, h * m),
        e_old(1, h * m),
        e_new(1, h * m),
        k(n, d),
        v(n, d),
        q(1, d),
        a(1, n),
        beta(1, h * m),
        scratch(1, h * m),
        sums(1, h),
        shift(ops::shift_of<S>(c.exp_shift)) {
    for (std::int64_t i = 0; i < h; ++i) {  // each head's landmarks and Gamma_phi^+
      const FixedLandmarks<E> head(head_config(c, heads, i));
      qt.middleRows(i * m, m) = head.qt;
      kt.middleRows(i * m, m) = head.kt;
      g.middleRows(i * m, m) = head.g;
    }
  }

  // The token after `seen` enters ring slot seen % n; once the window is full, the slot's
  // k_old, v_old first leave every head's Delta V and phi(Delta)  (Eqs. 24, 25).
  void slide(std::int64_t seen, const S* k_new, const S* v_new) {
    const std::int64_t j = seen % n;
    if (seen >= n)
      ops::heads_retro_update<E>(h, qt, &k(j, 0), k_new, &v(j, 0), v_new, e_old.data(),
                                 e_new.data(), phi.data(), dv, shift);
    ops::copy<E>(k_new, k_new + d, &k(j, 0));
    ops::copy<E>(v_new, v_new + d, &v(j, 0));
  }

  // row_i = (beta_i / beta_i 1^T) G_i with beta_i = exp(q_i Kt_i^T / sqrt(dh)), every head's
  // m entries side by side in row (1 x h m)  (Eqs. 22, 23, 26).
  void landmark_row(const S* q_new, S* row) {
    ops::copy<E>(q_new, q_new + d, q.data());
    ops::scale<E>(q.data(), d, inv_sqrt_dh);
    ops::heads_gemm_nt<E>(Eigen::Map<const Mat<S>>(q.data(), h, dh), kt, beta);
    ops::exp_inplace<E>(beta.data(), h * m, shift);
    Eigen::Map<Mat<S>> b(beta.data(), h, m), bs(scratch.data(), h, m);
    ops::row_sums<E>(b, sums.data());
    ops::reciprocals<E>(sums.data(), sums.data(), h);
    ops::scale_rows_into<E>(b, sums.data(), bs);
    ops::heads_gemm_nn<E>(scratch, g, Eigen::Map<Mat<S>>(row, h, m));
  }

  // dvn = Delta_phi V = diag(phi(Delta))^-1 Delta V  (Eqs. 23, 26).
  void normalise() {
    ops::reciprocals<E>(phi.data(), inv.data(), h * m);
    ops::scale_rows_into<E>(dv, inv.data(), dvn);
  }

  // Every head's Delta V and phi(Delta) from scratch over the first window, row by row as
  // DeltaState::recompute_row computes them  (Eqs. 17, 20).
  void prime() {
    for (std::int64_t i = 0; i < h; ++i) {
      const MatCRef<S> ki = k.middleCols(i * dh, dh), vi = v.middleCols(i * dh, dh);
      for (std::int64_t l = i * m; l < (i + 1) * m; ++l) {
        ops::gemm_nt<E>(qt.row(l), ki, a);
        ops::exp_inplace<E>(a.data(), n, shift);
        ops::store<E>(ops::sum<E>(a.data(), n), &phi(0, l));
        ops::gemm_nn<E>(a, vi, dv.row(l));
      }
    }
  }

  std::int64_t n, d, h, dh, m;
  S inv_sqrt_dh;
  Mat<S> qt, kt, g, dv, dvn, phi, inv, e_old, e_new, k, v, q, a, beta, scratch, sums;
  ops::Shift<S> shift;  // Config::exp_shift
};

// Every head's running sums S_i = sum_j phi(k_ij) v_ij^T and z_i = sum_j phi(k_ij) over the
// window with one feature map W (m x dh) for all heads, slid per step, the ring of the
// window's key features (n x h m) and of its values (n x d), and the newest token's key and
// query features a and u (1 x h m).
template <class E>
struct FeatureSumsHeads {
  using S = typename E::Scalar;

  // c.d is the full width; heads must divide it. Every head's feature map is the one a head
  // of width d / heads draws from c: MultiHead gives every head c's feature_seed, so all heads
  // share one W, and every head's W x_i is a row of one h x m product.
  FeatureSumsHeads(const Config& c, std::int64_t heads)
      : n(c.n),
        d(c.d),
        h(heads),
        dh(head_width(c, heads)),
        m(c.m),
        w(m, dh),
        s(Mat<S>::Zero(h * m, dh)),
        z(Mat<S>::Zero(h * m, 1)),
        phi_k(n, h * m),
        v(n, d),
        a(1, h * m),
        u(1, h * m),
        shift(ops::shift_of<S>(c.exp_shift)) {
    const FeatureMap<E> head(head_config(c, heads, 0));
    key_scale = head.key_scale();
    w = head.features();
  }

  // a_i = phi(k_i) = exp(W k_i' - |k_i'|^2 / 2 [- C]), up to a factor common to every key; the
  // token after `seen` enters every head's sums (and, once the window is full, the token of
  // its ring slot seen % n leaves them) and takes that slot.
  void slide(std::int64_t seen, const S* k_new, const S* v_new) {
    const std::int64_t j = seen % n;
    ops::gemm_nt<E>(CMap(k_new, h, dh), w, Map(a.data(), h, m));
    ops::heads_key_exp<E>(CMap(k_new, 1, d), key_scale, shift, Map(a.data(), h, m));
    if (seen >= n)
      ops::heads_slide_sums<E>(h, &phi_k(j, 0), a.data(), &v(j, 0), v_new, z.data(), s);
    else
      enter(v_new);
    ops::copy<E>(a.data(), a.data() + h * m, &phi_k(j, 0));
    ops::copy<E>(v_new, v_new + d, &v(j, 0));
  }

  // u_i = phi(q_i) = exp(W q_i' - max).
  void query_features(const S* q) {
    ops::gemm_nt<E>(CMap(q, h, dh), w, Map(u.data(), h, m));
    ops::heads_max_exp<E>(Map(u.data(), h, m));
  }

  using Map = Eigen::Map<Mat<S>>;
  using CMap = Eigen::Map<const Mat<S>>;

  std::int64_t n, d, h, dh, m;
  S key_scale{};  // 1 / (2 sqrt(dh))
  Mat<S> w, s, z, phi_k, v, a, u;
  ops::Shift<S> shift;  // Config::exp_shift

 private:
  // The warm-up: the token enters every head's sums, no token leaves (FeatureSums::enter).
  void enter(const S* v_new) {
    ops::add<E>(a.data(), z.data(), h * m, +1);
    for (std::int64_t r = 0; r < h * m; ++r)
      ops::axpy<E>(a(0, r), v_new + r / m * dh, &s(r, 0), dh, +1);
  }
};

}  // namespace cosda
