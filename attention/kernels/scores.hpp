// Kernels of the single-output scores a = exp(q K^T - c) and their sum (ops/single.hpp, heads.hpp),
// K by row or by column, each packet of scores exponentiated while the next rows of K load.
#pragma once

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "attention/kernels/elementwise.hpp"
#include "attention/kernels/packet_widths.hpp"
#include "attention/kernels/vector_matrix.hpp"

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wignored-attributes"

namespace cosda::kernels {

// y = exp(B x^T - c) (c when shifted), B n x k (rows ldb apart), k >= 1; returns the sum of y.
// matrix_vector on a packet of rows at a time, exponentiated as the next rows load; rest: exp_sum.
template <class T>
inline T exp_matrix_vector(std::int64_t k, const T* x, const T* b, std::int64_t ldb, std::int64_t n,
                           T* y, bool shifted, T c) {
  using namespace Eigen::internal;
  using P = typename packet_traits<T>::type;
  constexpr std::int64_t W = unpacket_traits<P>::size;
  P total = pset1<P>(T(0));
  for (std::int64_t j = 0; j < n; j += W) {
    const std::int64_t rows = std::min(W, n - j);
    matrix_vector(k, x, b + j * ldb, ldb, rows, y + j);
    if (rows < W) return predux(total) + exp_sum(y + j, rows, shifted, c);
    detail::exp_packets<P>(y, j, j + W, shifted, c, total);
  }
  return predux(total);
}

namespace detail {

// y[0, R W) = exp(x B[:, 0, R W) - c) for R packets of P (c when shifted), their sum added to
// total: vector_matrix's block, exponentiated in registers while the next rows of B load.
template <class P, int R, class T>
inline void exp_block(std::int64_t k, const T* x, const T* b, std::int64_t ldb, T* y, bool shifted,
                      T c, P& total) {
  using namespace Eigen::internal;
  constexpr int W = unpacket_traits<P>::size;
  P acc[R];
  vm_accumulate<P, R>(k, x, b, ldb, acc);
  const P pc = pset1<P>(c);
  for (int r = 0; r < R; ++r) {
    const P e = kernels::pexp(shifted ? psub(acc[r], pc) : acc[r]);
    pstoreu(y + r * W, e);
    total = padd(total, e);
  }
}

}  // namespace detail

// y[0, n) = exp(x B - c) (c when shifted), x 1 x k, B k x n row-major (rows ldb apart), k >= 1;
// returns the sum of y. Four packets of columns at a time, then two, one, a half, then singles.
template <class T>
inline T exp_vector_matrix(std::int64_t k, const T* x, const T* b, std::int64_t ldb, std::int64_t n,
                           T* y, bool shifted, T c) {
  using namespace Eigen::internal;
  using P = typename packet_traits<T>::type;
  using H = typename unpacket_traits<P>::half;
  constexpr std::int64_t W = unpacket_traits<P>::size, WH = unpacket_traits<H>::size;
  P total = pset1<P>(T(0));
  std::int64_t j = 0;
  for (; j + 4 * W <= n; j += 4 * W)
    detail::exp_block<P, 4>(k, x, b + j, ldb, y + j, shifted, c, total);
  if (n - j >= 2 * W) {
    detail::exp_block<P, 2>(k, x, b + j, ldb, y + j, shifted, c, total);
    j += 2 * W;
  }
  if (n - j >= W) {
    detail::exp_block<P, 1>(k, x, b + j, ldb, y + j, shifted, c, total);
    j += W;
  }
  T sum = predux(total);
  if constexpr (WH < W) {
    if (n - j >= WH) {
      H half = pset1<H>(T(0));
      detail::exp_block<H, 1>(k, x, b + j, ldb, y + j, shifted, c, half);
      sum += predux(half);
      j += WH;
    }
  }
  for (; j < n; ++j) {
    T s = x[0] * b[j];
    for (std::int64_t l = 1; l < k; ++l) s += x[l] * b[l * ldb + j];
    y[j] = std::exp(shifted ? s - c : s);
    sum += y[j];
  }
  return sum;
}

}  // namespace cosda::kernels

#pragma GCC diagnostic pop
