// y = x B for a row vector x (1 x k) and a row-major B (k x n): a sum of k scaled rows.
//
// The continual steps' vector products: a V in co_si (a token per row of V) and in the
// continual Nystrom rows, and q K^T in co_si when K is stored a token per column. Eigen
// evaluates x B as the column-major product B^T x^T, whose kernel loads and stores y for every
// few rows of B. This kernel keeps a block of y's columns in registers over all k rows, loads
// each packet of B once and stores y once: four packets of columns at a time, then two, one,
// a half and a quarter packet, and the last columns (at most a quarter packet less one) one
// by one. Same operation and, through ops::gemm, the same count as any product (mul n*k, add
// n*(k-1)); only the order of a column's k terms is its own (first to last). Steps, one thread,
// before -> after: Table III cony_si_fix 3.9 -> 3.6 us float, 4.1 -> 3.7 us double, co_si
// 4.9 -> 4.6 us float, 7.7 -> 7.2 us double; n = d = 100 cony_si_fix 0.52 -> 0.49 us float.
#pragma once

#include <Eigen/Core>
#include <cstdint>

// Packet types are template arguments here; GCC warns that their vector attributes are not
// part of the argument, which does not matter for a type only loaded, added and stored.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wignored-attributes"

namespace cosda::kernels {

namespace detail {

// y[0, R W) = x B[:, 0, R W) for R packets of type P, each an accumulator over the k rows.
template <class P, int R, class T>
inline void vm_block(std::int64_t k, const T* x, const T* b, std::int64_t ldb, T* y) {
  using namespace Eigen::internal;
  constexpr int W = unpacket_traits<P>::size;
  P acc[R];
  const P x0 = pset1<P>(x[0]);
  for (int r = 0; r < R; ++r) acc[r] = pmul(x0, ploadu<P>(b + r * W));
  for (std::int64_t l = 1; l < k; ++l) {
    const T* bl = b + l * ldb;
    const P xl = pset1<P>(x[l]);
    for (int r = 0; r < R; ++r) acc[r] = pmadd(xl, ploadu<P>(bl + r * W), acc[r]);
  }
  for (int r = 0; r < R; ++r) pstoreu(y + r * W, acc[r]);
}

// Columns [j, n) with packets of type P, then of its half.
template <class P, class T>
inline void vm_tail(std::int64_t k, const T* x, const T* b, std::int64_t ldb, std::int64_t n,
                    std::int64_t j, T* y) {
  using namespace Eigen::internal;
  using H = typename unpacket_traits<P>::half;
  constexpr int W = unpacket_traits<P>::size;
  if (n - j >= W) {
    vm_block<P, 1>(k, x, b + j, ldb, y + j);
    j += W;
  }
  if constexpr (unpacket_traits<H>::size < W) {
    vm_tail<H>(k, x, b, ldb, n, j, y);
  } else {
    for (; j < n; ++j) {
      T s = x[0] * b[j];
      for (std::int64_t l = 1; l < k; ++l) s += x[l] * b[l * ldb + j];
      y[j] = s;
    }
  }
}

}  // namespace detail

// ops::gemm sends x B here when B's rows are at most this long: 16 packets (256 floats, 128
// doubles). Longer rows take several passes over B, one per block of columns, each a stride of
// a row apart, and Eigen's kernel, which streams whole rows, was faster (co_si at n = 64,
// d = 1024, a V: 5.8 -> 7.8 us float with this kernel at every length).
template <class T>
inline constexpr std::int64_t kVectorMatrixMaxCols = 16 * Eigen::internal::packet_traits<T>::size;

// y[0, n) = sum over l < k of x[l] * B[l, 0, n), B's rows ldb apart; k >= 1.
template <class T>
inline void vector_matrix(std::int64_t k, const T* x, const T* b, std::int64_t ldb, std::int64_t n,
                          T* y) {
  using P = typename Eigen::internal::packet_traits<T>::type;
  constexpr std::int64_t W = Eigen::internal::unpacket_traits<P>::size;
  std::int64_t j = 0;
  for (; j + 4 * W <= n; j += 4 * W) detail::vm_block<P, 4>(k, x, b + j, ldb, y + j);
  if (n - j >= 2 * W) {
    detail::vm_block<P, 2>(k, x, b + j, ldb, y + j);
    j += 2 * W;
  }
  detail::vm_tail<P>(k, x, b, ldb, n, j, y);
}

}  // namespace cosda::kernels

#pragma GCC diagnostic pop
