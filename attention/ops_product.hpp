// The seam's products (attention/ops.hpp): C = op(A) op(B) and its three forms.
#pragma once

#include <omp.h>

#include <algorithm>
#include <cstdint>

#include "attention/blas.hpp"
#include "attention/ops_core.hpp"
#include "attention/shallow_gemm.hpp"
#include "attention/vector_matrix.hpp"

namespace cosda::ops {

// Whether the timed build may split a large product's rows among threads: off unless the
// caller turns it on for a step (MultiHead does, for one head, where its trial steps timed
// that faster: under load from other processes a split product waits for a busy core).
inline bool& split_products() {
  thread_local bool on = false;
  return on;
}

// Threads for one product of r rows and work multiply-adds: when splits are on, all the threads
// OpenMP allows outside a parallel region, each with at least kParallelWork multiply-adds and
// two rows. Every element is computed by the same kernel, in the same order, as unsplit.
inline constexpr std::int64_t kParallelWork = std::int64_t(1) << 20;
inline int product_threads(std::int64_t r, std::int64_t work) {
  if (!split_products() || work < 2 * kParallelWork || r < 4 || omp_in_parallel()) return 1;
  return int(std::min<std::int64_t>({omp_get_max_threads(), work / kParallelWork, r / 2}));
}

// C = op(A) op(B) on the timed paths: shallow products, BLAS, then Eigen.
template <class T>
void block_product(bool trans_a, bool trans_b, MatCRef<T> a, MatCRef<T> b, MatRef<T> c) {
  const std::int64_t r = c.rows(), n = c.cols(), k = trans_a ? a.rows() : a.cols();
  if (!trans_a && kernels::shallow_gemm(trans_b, r, n, k, a.data(), a.outerStride(), b.data(),
                                        b.outerStride(), c.data(), c.outerStride()))
    return;
  if (blas::gemm(trans_a, trans_b, r, n, k, a.data(), a.outerStride(), b.data(), b.outerStride(),
                 c.data(), c.outerStride()))
    return;
  if (trans_a && trans_b)
    c.noalias() = a.transpose() * b.transpose();
  else if (trans_a)
    c.noalias() = a.transpose() * b;
  else if (trans_b)
    c.noalias() = a * b.transpose();
  else
    c.noalias() = a * b;
}

// C = op(A) op(B), op(X) = X, or X^T when trans_x: the product behind gemm_nt, gemm_nn and
// gemm_tn. C is r x c and the depth is k.  mul r*c*k, add r*c*(k-1).
template <class E>
void gemm(bool trans_a, bool trans_b, MatCRef<S<E>> a, MatCRef<S<E>> b, MatRef<S<E>> c) {
  const std::int64_t r = c.rows(), n = c.cols(), k = trans_a ? a.rows() : a.cols();
  begin_op<E>(), in<E>(a), in<E>(b), out<E>(c);
  if (skip_arithmetic<E>()) return;
  if constexpr (kScalarLevel<E>) {
    const auto at = [&](std::int64_t i, std::int64_t l) { return trans_a ? a(l, i) : a(i, l); };
    const auto bt = [&](std::int64_t l, std::int64_t j) { return trans_b ? b(j, l) : b(l, j); };
    for (std::int64_t i = 0; i < r; ++i)
      for (std::int64_t j = 0; j < n; ++j) {
        S<E> acc = at(i, 0) * bt(0, j);
        for (std::int64_t l = 1; l < k; ++l) acc += at(i, l) * bt(l, j);
        c(i, j) = acc;
      }
  } else {
    E::tally({.mul = r * n * k, .add = r * n * (k - 1)});
    if (r == 1 && !trans_a && !trans_b && k >= 1 && kernels::vector_matrix_fits<S<E>>(k, n))
      return kernels::vector_matrix(k, a.data(), b.data(), b.outerStride(), n, c.data());
    if (r == 1 && !trans_a && trans_b && k >= 1 && n * k <= kernels::kMatrixVectorMaxElements<S<E>>)
      return kernels::matrix_vector(k, a.data(), b.data(), b.outerStride(), n, c.data());
    if (r == 1 && !trans_a) {  // other rows: Eigen's matrix-vector kernels, without the run-time
      auto y = c.row(0).transpose();  // dispatch (and zeroing of C) of a dynamic-size product
      if (trans_b)
        y.noalias() = b * a.row(0).transpose();
      else
        y.noalias() = b.transpose() * a.row(0).transpose();
      return;
    }
    if constexpr (!E::kCounting) {  // the timed build alone: counts never see threads
      if (const int t = product_threads(r, r * n * k); t > 1) {
#pragma omp parallel for num_threads(t) schedule(static)
        for (int p = 0; p < t; ++p) {
          const std::int64_t lo = r * p / t, rows = r * (p + 1) / t - lo;
          block_product<S<E>>(trans_a, trans_b,
                              trans_a ? MatCRef<S<E>>(a.middleCols(lo, rows))
                                      : MatCRef<S<E>>(a.middleRows(lo, rows)),
                              b, c.middleRows(lo, rows));
        }
        return;
      }
    }
    block_product<S<E>>(trans_a, trans_b, a, b, c);
  }
}

// C = A B^T, A: r x k, B: c x k.
template <class E>
void gemm_nt(MatCRef<S<E>> a, MatCRef<S<E>> b, MatRef<S<E>> c) {
  gemm<E>(false, true, a, b, c);
}

// C = A B, A: r x k, B: k x c.
template <class E>
void gemm_nn(MatCRef<S<E>> a, MatCRef<S<E>> b, MatRef<S<E>> c) {
  gemm<E>(false, false, a, b, c);
}

// C = A^T B, A: k x r, B: k x c.
template <class E>
void gemm_tn(MatCRef<S<E>> a, MatCRef<S<E>> b, MatRef<S<E>> c) {
  gemm<E>(true, false, a, b, c);
}

}  // namespace cosda::ops
