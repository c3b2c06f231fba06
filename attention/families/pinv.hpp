// Moore-Penrose pseudo-inverse of the m x m landmark kernel Gamma_phi, iterative (Razavi et al.
// 2014, as Nyströmformer; Nyström Sec. IV-C):
//   Z_0 = X^T / max_j sum_i X_ij   (1/||X||_1 per matrix; X is a row-softmax, so ||X||_inf = 1)
//   Z_{k+1} = 1/4 Z_k (13 I - X Z_k (15 I - X Z_k (7 I - X Z_k)))
// Per iteration: four m x m products, three shifted negations, one scaling. Exact mode (Eigen's
// complete orthogonal decomposition) is a plain-scalar reference without a count.
#pragma once

#include <Eigen/QR>
#include <stdexcept>

#include "attention/ops/seam.hpp"

namespace cosda {

template <class E>
class Pinv {
 public:
  using S = typename E::Scalar;

  Pinv(std::int64_t m, int iterations, bool exact)
      : m_(m), iterations_(iterations), exact_(exact), xz_(m, m), t_(m, m), u_(m, m) {
    if (exact_ && E::kCounting)
      throw std::invalid_argument(
          "pinv: the exact pseudo-inverse is a reference mode with no operation count; "
          "use the iterative one for counting");
  }

  // out = X^+ (out must not alias x).
  void compute(MatCRef<S> x, MatRef<S> out) {
    if constexpr (E::kCounting) {
      iterate(x, out);
    } else {
      if (exact_) {
        out = x.template cast<double>()
                  .completeOrthogonalDecomposition()
                  .pseudoInverse()
                  .template cast<S>();
      } else {
        iterate(x, out);
      }
    }
  }

 private:
  void iterate(MatCRef<S> x, MatRef<S> z) {
    ops::transpose_into<E>(x, z);
    ops::scale<E>(z, ops::reciprocal<E>(ops::max_col_sum<E>(x)));
    for (int it = 0; it < iterations_; ++it) {
      ops::gemm_nn<E>(x, z, xz_);
      ops::shifted_negation<E>(xz_, S(7), t_);
      ops::gemm_nn<E>(xz_, t_, u_);
      ops::shifted_negation<E>(u_, S(15), t_);
      ops::gemm_nn<E>(xz_, t_, u_);
      ops::shifted_negation<E>(u_, S(13), t_);
      ops::gemm_nn<E>(z, t_, u_);
      ops::copy<E>(u_, z);
      ops::scale<E>(z, S(0.25));
    }
  }

  std::int64_t m_;
  int iterations_;
  bool exact_;
  Mat<S> xz_, t_, u_;
};

}  // namespace cosda
