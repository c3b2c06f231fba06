// The running state corf_re keeps for h heads, head-strided: head i's features at [i dh, (i+1) dh),
// its rows and columns of h m at [i m, (i+1) m).
#pragma once

#include <cmath>

#include "attention/families/random_features.hpp"
#include "attention/ops/heads.hpp"

namespace cosda {

// Every head's S_i = sum_j phi(k_ij) v_ij^T, z_i = sum_j phi(k_ij), slid per step, one W (m x dh);
// rings of key features (n x h m) and values (n x d); the newest key and query features a, u.
template <class E>
struct FeatureSumsHeads {
  using S = typename E::Scalar;

  // MultiHead gives every head c's feature_seed, so all heads share one W and every head's W x_i
  // is a row of one h x m product.
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

  // a_i = phi(k_i) = exp(W k_i' - |k_i'|^2 / 2 [- C]) (up to a common factor); the token after
  // `seen` enters every head's sums and ring slot seen % n, whose token (window full) leaves.
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
  // The warm-up: the token enters every head's sums, no token leaves: z += a, S += a v^T.
  void enter(const S* v_new) {
    ops::add<E>(a.data(), z.data(), h * m, +1);
    for (std::int64_t r = 0; r < h * m; ++r)
      ops::axpy<E>(a(0, r), v_new + r / m * dh, &s(r, 0), dh, +1);
  }
};

}  // namespace cosda
