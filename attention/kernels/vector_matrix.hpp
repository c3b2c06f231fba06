// y = x B for a row x (1 x k) and row-major B (k x n), and y = x B^T for B n x k (matrix_vector):
// the continual steps' vector products. A block of y's columns stays in registers over all k rows,
// each packet of B loaded once and y stored once (Eigen's B^T x^T reloads y every few rows). Same
// count as any product through ops::gemm; a column's k terms are added first to last.
#pragma once

#include <Eigen/Core>
#include <cstdint>

// Packet types as template arguments: GCC warns their vector attributes are ignored; harmless here.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wignored-attributes"

namespace cosda::kernels {

namespace detail {

// acc[r] = x B[:, r W, (r+1) W) for R packets of P, each an accumulator over k rows, first to last.
template <class P, int R, class T>
inline void vm_accumulate(std::int64_t k, const T* x, const T* b, std::int64_t ldb, P (&acc)[R]) {
  using namespace Eigen::internal;
  constexpr int W = unpacket_traits<P>::size;
  const P x0 = pset1<P>(x[0]);
  for (int r = 0; r < R; ++r) acc[r] = pmul(x0, ploadu<P>(b + r * W));
  for (std::int64_t l = 1; l < k; ++l) {
    const T* bl = b + l * ldb;
    const P xl = pset1<P>(x[l]);
    for (int r = 0; r < R; ++r) acc[r] = pmadd(xl, ploadu<P>(bl + r * W), acc[r]);
  }
}

// y[0, R W) = x B[:, 0, R W) for R packets of type P.
template <class P, int R, class T>
inline void vm_block(std::int64_t k, const T* x, const T* b, std::int64_t ldb, T* y) {
  constexpr int W = Eigen::internal::unpacket_traits<P>::size;
  P acc[R];
  vm_accumulate<P, R>(k, x, b, ldb, acc);
  for (int r = 0; r < R; ++r) Eigen::internal::pstoreu(y + r * W, acc[r]);
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

// ops::gemm sends x B here for rows of at most 16 packets: longer rows take a strided pass per
// block of columns, where Eigen's kernel, streaming whole rows, is faster.
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

// ops::gemm sends x B^T here when B (n x k) is at most 1 MiB (an L2); beyond it Eigen is faster.
template <class T>
inline constexpr std::int64_t kMatrixVectorMaxElements = (std::int64_t(1) << 20) / sizeof(T);

// y[0, n) = B x^T, y[j] = x . B[j, 0, k) (rows ldb apart): four rows at a time, packet
// accumulators (and a half packet when k mod W >= W / 2), x loaded once per four rows.
template <class T>
inline void matrix_vector(std::int64_t k, const T* x, const T* b, std::int64_t ldb, std::int64_t n,
                          T* y) {
  using namespace Eigen::internal;
  using P = typename packet_traits<T>::type;
  using H = typename unpacket_traits<P>::half;
  constexpr std::int64_t W = unpacket_traits<P>::size, WH = unpacket_traits<H>::size;
  const std::int64_t kv = k / W * W;
  const std::int64_t kh = WH < W && k - kv >= WH ? kv + WH : kv;
  std::int64_t j = 0;
  for (; j + 4 <= n; j += 4) {
    const T *b0 = b + j * ldb, *b1 = b0 + ldb, *b2 = b1 + ldb, *b3 = b2 + ldb;
    P s0 = pset1<P>(T(0)), s1 = s0, s2 = s0, s3 = s0;
    for (std::int64_t l = 0; l < kv; l += W) {
      const P xl = ploadu<P>(x + l);
      s0 = pmadd(xl, ploadu<P>(b0 + l), s0);
      s1 = pmadd(xl, ploadu<P>(b1 + l), s1);
      s2 = pmadd(xl, ploadu<P>(b2 + l), s2);
      s3 = pmadd(xl, ploadu<P>(b3 + l), s3);
    }
    T r0 = predux(s0), r1 = predux(s1), r2 = predux(s2), r3 = predux(s3);
    if (kh > kv) {
      const H xl = ploadu<H>(x + kv);
      r0 += predux(pmul(xl, ploadu<H>(b0 + kv))), r1 += predux(pmul(xl, ploadu<H>(b1 + kv)));
      r2 += predux(pmul(xl, ploadu<H>(b2 + kv))), r3 += predux(pmul(xl, ploadu<H>(b3 + kv)));
    }
    for (std::int64_t l = kh; l < k; ++l)
      r0 += x[l] * b0[l], r1 += x[l] * b1[l], r2 += x[l] * b2[l], r3 += x[l] * b3[l];
    y[j] = r0, y[j + 1] = r1, y[j + 2] = r2, y[j + 3] = r3;
  }
  for (; j < n; ++j) {
    const T* bj = b + j * ldb;
    P s = pset1<P>(T(0));
    for (std::int64_t l = 0; l < kv; l += W) s = pmadd(ploadu<P>(x + l), ploadu<P>(bj + l), s);
    T r = predux(s);
    if (kh > kv) r += predux(pmul(ploadu<H>(x + kv), ploadu<H>(bj + kv)));
    for (std::int64_t l = kh; l < k; ++l) r += x[l] * bj[l];
    y[j] = r;
  }
}

// Whether ops::gemm sends x B to vector_matrix: rows of at most kVectorMatrixMaxCols, and B read in
// one pass (n <= 4 packets) or at most 128 KiB, which stays in L2 between passes.
template <class T>
inline constexpr bool vector_matrix_fits(std::int64_t k, std::int64_t n) {
  constexpr std::int64_t W = Eigen::internal::packet_traits<T>::size;
  constexpr std::int64_t kMaxElements = (std::int64_t(128) << 10) / std::int64_t(sizeof(T));
  return n <= kVectorMatrixMaxCols<T> && (n <= 4 * W || k * n <= kMaxElements);
}

}  // namespace cosda::kernels

#pragma GCC diagnostic pop
