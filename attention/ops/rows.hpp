// The seam's row and matrix ops (attention/ops/seam.hpp): row sums, row scalings, the shifted
// negation and the matrix norms of the pseudo-inverse.
#pragma once

#include <algorithm>
#include <cstdint>

#include "attention/kernels/elementwise.hpp"
#include "attention/ops/core.hpp"
#include "attention/ops/elementwise.hpp"

namespace cosda::ops {

// out_i = sum_j x_ij.  add r*(c-1).
template <class E>
void row_sums(MatCRef<S<E>> x, S<E>* out) {
  begin_op<E>(), in<E>(x), ops::out<E>(out, x.rows());
  if (skip_arithmetic<E>()) return tally<E>({.add = x.rows() * (x.cols() - 1)});  // the loop's
  const OneOp<E> one;
  for (std::int64_t i = 0; i < x.rows(); ++i) out[i] = sum<E>(x.row(i).data(), x.cols());
}

// x <- exp(x), out_i = sum_j x_ij, a row at a time while in L1.  exp r*c, add r*(c-1).
template <class E>
void exp_row_sums(MatRef<S<E>> x, S<E>* out) {
  begin_op<E>(), inout<E>(x), ops::out<E>(out, x.rows());
  if (tally_skip<E>({.add = x.rows() * (x.cols() - 1), .exp = x.rows() * x.cols()}, true)) return;
  if constexpr (kScalarLevel<E>) {
    const OneOp<E> one;
    exp_inplace<E>(x);
    row_sums<E>(x, out);
  } else {
    for (std::int64_t i = 0; i < x.rows(); ++i)
      out[i] = kernels::exp_sum(x.row(i).data(), x.cols(), false, S<E>(0));
  }
}

// x_ij <- s_i x_ij.  mul r*c.
template <class E>
void scale_rows(MatRef<S<E>> x, const S<E>* s) {
  begin_op<E>(), in<E>(s, x.rows()), inout<E>(x);
  if (skip_arithmetic<E>(true)) return tally<E>({.mul = x.rows() * x.cols()});  // the loop's
  const OneOp<E> one;
  for (std::int64_t i = 0; i < x.rows(); ++i) scale<E>(&x(i, 0), x.cols(), s[i]);
}

// dst = a src (matrices of one shape): a copy and a scaling in one pass.  mul r*c.
template <class E>
void scale_into(MatCRef<S<E>> src, S<E> a, MatRef<S<E>> dst) {
  begin_op<E>(), in<E>(src), out<E>(dst);
  if (tally_skip<E>({.mul = src.rows() * src.cols()})) return;
  if constexpr (kScalarLevel<E>) {
    for (std::int64_t i = 0; i < src.rows(); ++i)
      for (std::int64_t j = 0; j < src.cols(); ++j) dst(i, j) = src(i, j) * a;
  } else {
    if (src.outerStride() == src.cols() && dst.outerStride() == dst.cols())
      return kernels::scaled_copy(src.data(), a, dst.data(), src.size());  // stored whole
    for (std::int64_t i = 0; i < src.rows(); ++i)
      kernels::scaled_copy(src.row(i).data(), a, dst.row(i).data(), src.cols());
  }
}

// dst_ij = s_i src_ij in one pass (not a copy and a scaling); with src_transposed, src is c x r
// and dst_ij = s_i src_ji.  mul r*c.
template <class E>
void scale_rows_into(MatCRef<S<E>> src, const S<E>* s, MatRef<S<E>> dst,
                     bool src_transposed = false) {
  const std::int64_t r = dst.rows(), c = dst.cols();
  begin_op<E>(), in<E>(s, r), in<E>(src), out<E>(dst);
  if (tally_skip<E>({.mul = r * c})) return;
  if constexpr (kScalarLevel<E>) {
    for (std::int64_t i = 0; i < r; ++i)
      for (std::int64_t j = 0; j < c; ++j)
        dst(i, j) = (src_transposed ? src(j, i) : src(i, j)) * s[i];
  } else {
    if (!src_transposed) {
      for (std::int64_t i = 0; i < r; ++i)
        kernels::scaled_copy(src.row(i).data(), s[i], dst.row(i).data(), c);
    } else if (c < 16) {  // fewer columns than a tile (Table III: 12): src by rows, dst by columns
      for (std::int64_t j = 0; j < c; ++j) {
        const S<E>* in = src.row(j).data();
        for (std::int64_t i = 0; i < r; ++i) dst(i, j) = in[i] * s[i];
      }
    } else {
      // 16 x 16 tiles: whole columns of src would take a cache line per element beyond L1.
      constexpr std::int64_t kTile = 16;
      for (std::int64_t i = 0; i < r; i += kTile)
        for (std::int64_t j = 0; j < c; j += kTile) {
          const std::int64_t ri = std::min(kTile, r - i), cj = std::min(kTile, c - j);
          dst.block(i, j, ri, cj) =
              VecCMap<S<E>>(s + i, ri).asDiagonal() * src.block(j, i, cj, ri).transpose();
        }
    }
  }
}

// x <- a x.  mul r*c.
template <class E>
void scale(MatRef<S<E>> x, S<E> a) {
  for (std::int64_t i = 0; i < x.rows(); ++i) scale<E>(&x(i, 0), x.cols(), a);
}

// out = c I - x (square).  add r*r: c - x_ii on the diagonal, -x_ij elsewhere.
template <class E>
void shifted_negation(MatCRef<S<E>> x, S<E> c, MatRef<S<E>> out) {
  const std::int64_t r = x.rows();
  begin_op<E>(), in<E>(x), ops::out<E>(out);
  if (tally_skip<E>({.add = r * r})) return;
  if constexpr (kScalarLevel<E>) {
    for (std::int64_t i = 0; i < r; ++i)
      for (std::int64_t j = 0; j < r; ++j) out(i, j) = i == j ? c - x(i, j) : -x(i, j);
  } else {
    // Loops: an m x m Eigen expression dispatches at run time, for a few dozen additions.
    for (std::int64_t i = 0; i < r; ++i) {
      const S<E>* xi = x.row(i).data();
      S<E>* oi = out.row(i).data();
      for (std::int64_t j = 0; j < r; ++j) oi[j] = -xi[j];
      oi[i] += c;
    }
  }
}

// max_j sum_i x_ij (the scale of the pseudo-inverse's start).  add c*(r-1), other c-1.
template <class E>
S<E> max_col_sum(MatCRef<S<E>> x) {
  const std::int64_t r = x.rows(), c = x.cols();
  begin_op<E>(), in<E>(x);
  if (tally_skip<E>({.add = c * (r - 1), .other = c - 1})) return S<E>(0);
  if constexpr (kScalarLevel<E>) {
    S<E> best;
    for (std::int64_t j = 0; j < c; ++j) {
      S<E> acc = x(0, j);
      for (std::int64_t i = 1; i < r; ++i) acc += x(i, j);
      best = j == 0 ? acc : max(best, acc);
    }
    return best;
  } else {
    return x.colwise().sum().maxCoeff();
  }
}

// dst = x^T.  No arithmetic.
template <class E>
void transpose_into(MatCRef<S<E>> x, MatRef<S<E>> dst) {
  begin_op<E>(), in<E>(x), out<E>(dst);
  if (skip_arithmetic<E>()) return;
  dst = x.transpose();
}

}  // namespace cosda::ops
