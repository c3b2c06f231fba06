// The seam's fused ops of the single-output step (attention/variants/co_si.hpp, CoTrans Eq. 7): the
// scores a = exp(q K^T - c) with their sum, and the output a V / (a 1^T), each one op and one
// pass where the step had a chain of ops (product, exp, sum; reciprocal, product, scaling).
// Each counts exactly the ops it replaces, in their textbook order; under Exact it runs them.
#pragma once

#include <cstdint>

#include "attention/kernels/scores.hpp"
#include "attention/ops/core.hpp"
#include "attention/ops/elementwise.hpp"
#include "attention/ops/product.hpp"

namespace cosda::ops {

// a = exp(q K^T - c) (c: the shift, when on); returns sum a. q is 1 x d; K is n x d (a token
// per row), or d x n with k_by_column; a is 1 x n. gemm_nt (gemm_nn by column), exp_inplace
// and sum in one op, the exponentials on each packet of scores as it is formed.
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

// out = a V / s, with s = a 1^T from exp_scores: a is 1 x n; V is n x d (a token per row), or
// d x n with v_by_column; out is 1 x d. reciprocal, gemm_nn (gemm_nt by column) and scale in
// one op.  div 1, mul n*d + d, add (n-1)*d.
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
