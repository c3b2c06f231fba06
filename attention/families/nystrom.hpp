// The Nyström approximation of one window (ny, ny_fix; the continual variants' reference):
//   Att_Ny = B_phi Gamma_phi^+ (Delta_phi V)                        (Nyström paper Eqs. 8-12)
//   B = exp(Q Kt^T/sqrt(d)) (n x m), Gamma = exp(Qt Kt^T/sqrt(d)) (m x m),
//   Delta = exp(Qt K^T/sqrt(d)) (m x n), X_phi = rows of X divided by their sums.
// For n rows Delta_phi V = diag(1/phi(Delta)) (Delta V); one row is evaluated from the left,
// ((beta_phi Gamma_phi^+) Delta_phi) V: m^2 + m + nm + nd multiplications, not ndm + dm + m^2 + dm
// (docs/counting.md, chains). Queries and landmark queries come pre-scaled by 1/sqrt(d).
#pragma once

#include <cmath>
#include <vector>

#include "attention/attention.hpp"
#include "attention/counting/chain_tally.hpp"
#include "attention/families/pinv.hpp"
#include "attention/ops/seam.hpp"

namespace cosda {

// Rows of x divided by their sums (row softmax of exponentials already taken).
// add r(c-1), div r, mul rc.
template <class E>
void normalize_rows(MatRef<typename E::Scalar> x, typename E::Scalar* sums) {
  ops::row_sums<E>(x, sums);
  ops::reciprocals<E>(sums, sums, x.rows());
  ops::scale_rows<E>(x, sums);
}

// g = Gamma_phi^+ of landmarks (qt scaled, kt); gamma (m x m), sums (m): scratch; shift: exp_shift.
template <class E>
void landmark_kernel_pinv(MatCRef<typename E::Scalar> qt, MatCRef<typename E::Scalar> kt,
                          Pinv<E>& pinv, MatRef<typename E::Scalar> gamma, typename E::Scalar* sums,
                          MatRef<typename E::Scalar> g,
                          const ops::Shift<typename E::Scalar>& shift = {}) {
  ops::gemm_nt<E>(qt, kt, gamma);
  ops::exp_inplace<E>(gamma, shift);
  normalize_rows<E>(gamma, sums);
  pinv.compute(gamma, g);
}

// Config's landmarks (raw, m x d) as queries and keys both scaled by 1/sqrt(d), and Gamma_phi^+,
// built outside any step: B = exp(Q Kt^T / sqrt(d)) then needs no scaling of the queries.
template <class E>
struct FixedLandmarks {
  using S = typename E::Scalar;
  Mat<S> qt, kt, g;

  explicit FixedLandmarks(const Config& c) : qt(c.m, c.d), kt(c.m, c.d), g(c.m, c.m) {
    require(c.m >= 1 && c.m <= c.n, "fixed landmarks: needs 1 <= m <= n");
    require(c.fixed_q.rows() == c.m && c.fixed_q.cols() == c.d && c.fixed_k.rows() == c.m &&
                c.fixed_k.cols() == c.d,
            "fixed landmarks: expected m x d landmark matrices");
    const Mat<S> q = c.fixed_q.cast<S>();  // raw: Gamma's scores scaled once, through kt
    qt = (c.fixed_q / std::sqrt(double(c.d))).template cast<S>();
    kt = (c.fixed_k / std::sqrt(double(c.d))).template cast<S>();
    Pinv<E> pinv(c.m, c.pinv_iterations, c.exact_pinv);
    Mat<S> gamma(c.m, c.m);
    std::vector<S> sums(static_cast<std::size_t>(c.m));
    landmark_kernel_pinv<E>(q, kt, pinv, gamma, sums.data(), g, ops::shift_of<S>(c.exp_shift));
  }
};

template <class E>
class NystromCore {
 public:
  using S = typename E::Scalar;

  // n keys per window; `queries` output rows (n, or 1: a single-output block, chain from its row).
  NystromCore(std::int64_t n, std::int64_t d, std::int64_t m, int iterations, bool exact,
              std::int64_t queries = -1)
      : n_(n),
        q_(queries < 0 ? n : queries),
        one_row_(queries == 1),
        d_(d),
        m_(m),
        pinv_(m, iterations, exact),
        b_(q_, m),
        gamma_(m, m),
        g_(m, m),
        delta_(m, n),
        dv_(one_row_ ? 0 : m, d),
        bg_(q_, m),
        w_(one_row_ ? 1 : 0, n),
        sums_(std::max({n, m, q_})) {}

  // out = Att_Ny over the window (qs, k, v). g: precomputed Gamma_phi^+ (fixed landmarks) or
  // null to compute it here. out may alias qs (qs is last read before out is written).
  void attend(MatCRef<S> qs, MatCRef<S> k, MatCRef<S> v, MatCRef<S> qt, MatCRef<S> kt,
              const Mat<S>* g, MatRef<S> out) {
    ops::gemm_nt<E>(qs, kt, b_);  // B_phi                              (Eq. 10)
    ops::exp_inplace<E>(b_);
    normalize_rows<E>(b_, sums_.data());
    if (g == nullptr) {  // Gamma_phi^+                                  (Eq. 11)
      landmark_kernel_pinv<E>(qt, kt, pinv_, gamma_, sums_.data(), g_);
      g = &g_;
    }
    ops::gemm_nt<E>(qt, k, delta_);  // Delta_phi V                     (Eq. 12)
    ops::exp_row_sums<E>(delta_, sums_.data());
    if (one_row_) return attend_one(v, *g, out);
    const ChainScope<E> chain("nystrom window: B_phi G (Delta_phi V)");
    ops::gemm_nn<E>(delta_, v, dv_);
    ops::reciprocals<E>(sums_.data(), sums_.data(), m_);
    ops::scale_rows<E>(dv_, sums_.data());
    ops::gemm_nn<E>(b_, *g, bg_);  // (B_phi Gamma_phi^+) (Delta_phi V)   (Eq. 8)
    ops::gemm_nn<E>(bg_, dv_, out);
  }

 private:
  // One output row, from the left: w = (beta_phi G) diag(1/phi(Delta)), out = (w Delta) V.
  void attend_one(MatCRef<S> v, const Mat<S>& g, MatRef<S> out) {
    ops::reciprocals<E>(sums_.data(), sums_.data(), m_);
    const ChainScope<E> chain("nystrom one row: ((beta_phi G) Delta_phi) V");
    ops::gemm_nn<E>(b_, g, bg_);
    ops::multiply<E>(sums_.data(), bg_.data(), m_);
    ops::gemm_nn<E>(bg_, delta_, w_);
    ops::gemm_nn<E>(w_, v, out);
  }

  std::int64_t n_, q_;
  bool one_row_;
  std::int64_t d_, m_;
  Pinv<E> pinv_;
  Mat<S> b_, gamma_, g_, delta_, dv_, bg_, w_;
  std::vector<S> sums_;
};

}  // namespace cosda
