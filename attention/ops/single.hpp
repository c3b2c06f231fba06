// The single-output step's fused ops (variants/co_si.hpp, CoTrans Eq. 7): scores with their sum,
// and a V / (a 1^T), each one op and pass counting exactly the ops it replaces (run under Exact).
#pragma once

#include <cstdint>

#include "attention/kernels/scores.hpp"
#include "attention/ops/core.hpp"
#include "attention/ops/elementwise.hpp"
#include "attention/ops/product.hpp"

namespace cosda::ops {

// a = exp(q K^T - c) (c when shifted); returns sum a. q 1 x d; K n x d (a token per row) or d x n
// with k_by_column; a 1 x n. gemm_nt (gemm_nn by column), exp_inplace and sum, exp per packet.
// mul n*d, add n*(d-1) + (n-1) (+ n shifted), exp n.
template <class E>
S<E> exp_scores(MatCRef<S<E>> q, MatCRef<S<E>> k, bool k_by_column, MatRef<S<E>> a,
                const Shift<S<E>>& shift) {
  using T = S<E>;
  const std::int64_t n = a.cols(), d = q.cols();
  begin_op<E>(), in<E>(q), in<E>(k), out<E>(a);
  if (tally_skip<E>({.mul = n * d, .add = n * (d - 1) + (n - 1) + (shift.on ? n : 0), .exp = n}))
    return T(0);
  if constexpr (kScalarLevel<E>) {
    const OneOp<E> one;
    gemm<E>(false, !k_by_column, q, k, a);
    exp_inplace<E>(a.data(), n, shift);
    return sum<E>(a.data(), n);
  } else {
    if (k_by_column && kernels::vector_matrix_fits<T>(d, n))
      return kernels::exp_vector_matrix(d, q.data(), k.data(), k.outerStride(), n, a.data(),
                                        shift.on, shift.c);
    if (!k_by_column && n * d <= kernels::kMatrixVectorMaxElements<T>)
      return kernels::exp_matrix_vector(d, q.data(), k.data(), k.outerStride(), n, a.data(),
                                        shift.on, shift.c);
    row_product<T>(!k_by_column, q, k, a);
    return kernels::exp_sum(a.data(), n, shift.on, shift.c);
  }
}

// out = a V / s, s = a 1^T from exp_scores; a 1 x n, V n x d (by row) or d x n (v_by_column), out
// 1 x d. reciprocal, gemm_nn (gemm_nt by column), scale.  div 1, mul n*d + d, add (n-1)*d.
template <class E>
void weighted_average(MatCRef<S<E>> a, S<E> s, MatCRef<S<E>> v, bool v_by_column,
                      MatRef<S<E>> out) {
  using T = S<E>;
  const std::int64_t n = a.cols(), d = out.cols();
  begin_op<E>(), in<E>(a), in<E>(v), ops::out<E>(out);
  if (tally_skip<E>({.mul = n * d + d, .add = (n - 1) * d, .div = 1})) return;
  if constexpr (kScalarLevel<E>) {
    const OneOp<E> one;
    const T inv = reciprocal<E>(s);
    gemm<E>(false, v_by_column, a, v, out);
    scale<E>(out.data(), d, inv);
  } else {
    const T inv = T(1) / s;
    row_product<T>(v_by_column, a, v, out);
    VecMap<T>(out.data(), d) *= inv;
  }
}

}  // namespace cosda::ops
