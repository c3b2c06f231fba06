// C = A B for shallow products (depth k <= kShallowMaxDepth, row-major) such as Nyström's landmark
// weights times values (m = 4 to 16). Wide (>= kShallowMinOutput outputs, rows >= four packets):
// each row of C written once from registers, two rows by four packets at a time (OpenBLAS zeroes C
// and packs). Narrow (rows <= two packets): B padded once, a row of C k packet multiply-adds. Same
// count as any product (ops::gemm); a sum's k terms are added first to last.
#pragma once

#include <Eigen/Core>
#include <algorithm>
#include <cstdint>

namespace cosda::kernels {

inline constexpr std::int64_t kShallowMaxDepth = 16;
// Smaller wide outputs stay with OpenBLAS or Eigen, as fast or faster there (docs/performance.md).
inline constexpr std::int64_t kShallowMinOutput = 128 * 1024;
// Wide rows need four packets; narrow ones kNarrowMinRows rows (for one row, Eigen beats padding).
template <class T>
inline constexpr std::int64_t kShallowMinCols = 4 * Eigen::internal::packet_traits<T>::size;
inline constexpr std::int64_t kNarrowMinRows = 4;

namespace detail {

// Columns [0, 4 W) of one row of C (kTwo: two rows, a and c advanced by lda and ldc), b at the
// block's first column. Named accumulators: GCC 12 keeps an array of packets on the stack.
template <bool kTwo, class T>
inline void shallow_block4(std::int64_t k, const T* a, std::int64_t lda, const T* b,
                           std::int64_t ldb, T* c, std::int64_t ldc) {
  using namespace Eigen::internal;
  using P = typename packet_traits<T>::type;
  constexpr int W = packet_traits<T>::size;
  P b0 = ploadu<P>(b), b1 = ploadu<P>(b + W), b2 = ploadu<P>(b + 2 * W), b3 = ploadu<P>(b + 3 * W);
  P x = pset1<P>(a[0]);
  P c0 = pmul(x, b0), c1 = pmul(x, b1), c2 = pmul(x, b2), c3 = pmul(x, b3);
  P d0 = c0, d1 = c1, d2 = c2, d3 = c3;
  if constexpr (kTwo) {
    x = pset1<P>(a[lda]);
    d0 = pmul(x, b0), d1 = pmul(x, b1), d2 = pmul(x, b2), d3 = pmul(x, b3);
  }
  for (std::int64_t l = 1; l < k; ++l) {
    const T* bl = b + l * ldb;
    b0 = ploadu<P>(bl), b1 = ploadu<P>(bl + W), b2 = ploadu<P>(bl + 2 * W),
    b3 = ploadu<P>(bl + 3 * W);
    x = pset1<P>(a[l]);
    c0 = pmadd(x, b0, c0), c1 = pmadd(x, b1, c1), c2 = pmadd(x, b2, c2), c3 = pmadd(x, b3, c3);
    if constexpr (kTwo) {
      x = pset1<P>(a[lda + l]);
      d0 = pmadd(x, b0, d0), d1 = pmadd(x, b1, d1), d2 = pmadd(x, b2, d2), d3 = pmadd(x, b3, d3);
    }
  }
  pstoreu(c, c0), pstoreu(c + W, c1), pstoreu(c + 2 * W, c2), pstoreu(c + 3 * W, c3);
  if constexpr (kTwo)
    pstoreu(c + ldc, d0), pstoreu(c + ldc + W, d1), pstoreu(c + ldc + 2 * W, d2),
        pstoreu(c + ldc + 3 * W, d3);
}

// C = A B for rows of C of at most kPackets packets: B's k rows zero-padded to kPackets packets
// (pad, row stride kPackets W), a row of C per pass, stored as whole packets where the spill only
// reaches rows written later (C contiguous, ldc == c), else through tmp.
template <int kPackets, class T>
void narrow_rows(std::int64_t r, std::int64_t c, std::int64_t k, const T* a, std::int64_t lda,
                 const T* pad, T* out, std::int64_t ldc) {
  using namespace Eigen::internal;
  using P = typename packet_traits<T>::type;
  constexpr std::int64_t W = packet_traits<T>::size, kWidth = kPackets * W;
  // Rows i with i c + kWidth <= r c may store whole packets.
  const std::int64_t whole = ldc == c ? std::max<std::int64_t>(0, r - (kWidth + c - 1) / c + 1) : 0;
  alignas(64) T tmp[kWidth];
  for (std::int64_t i = 0; i < r; ++i) {
    const T* ai = a + i * lda;
    P x = pset1<P>(ai[0]);
    P c0 = pmul(x, pload<P>(pad)), c1 = c0;
    if constexpr (kPackets == 2) c1 = pmul(x, pload<P>(pad + W));
    for (std::int64_t l = 1; l < k; ++l) {
      x = pset1<P>(ai[l]);
      c0 = pmadd(x, pload<P>(pad + l * kWidth), c0);
      if constexpr (kPackets == 2) c1 = pmadd(x, pload<P>(pad + l * kWidth + W), c1);
    }
    T* ci = out + i * ldc;
    T* dst = i < whole ? ci : tmp;
    pstoreu(dst, c0);
    if constexpr (kPackets == 2) pstoreu(dst + W, c1);
    if (dst == tmp) std::copy_n(tmp, c, ci);
  }
}

// The narrow kernel on all of C. Out of line, as wide_gemm, so declined products cost ops::gemm
// no more than shallow_gemm's tests.
template <class T>
EIGEN_DONT_INLINE void narrow_gemm(bool trans_b, std::int64_t r, std::int64_t c, std::int64_t k,
                                   const T* a, std::int64_t lda, const T* b, std::int64_t ldb,
                                   T* out, std::int64_t ldc) {
  constexpr std::int64_t W = Eigen::internal::packet_traits<T>::size;
  alignas(64) T pad[kShallowMaxDepth * 2 * W];
  const std::int64_t width = c <= W ? W : 2 * W;
  for (std::int64_t l = 0; l < k; ++l)
    for (std::int64_t t = 0; t < width; ++t)
      pad[l * width + t] = t >= c ? T(0) : trans_b ? b[t * ldb + l] : b[l * ldb + t];
  if (width == W)
    narrow_rows<1>(r, c, k, a, lda, pad, out, ldc);
  else
    narrow_rows<2>(r, c, k, a, lda, pad, out, ldc);
}

// The wide kernel on all of C: blocks of four packets, then the rest through a padded block.
template <class T>
EIGEN_DONT_INLINE void wide_gemm(std::int64_t r, std::int64_t c, std::int64_t k, const T* a,
                                 std::int64_t lda, const T* b, std::int64_t ldb, T* out,
                                 std::int64_t ldc) {
  constexpr std::int64_t kBlock = 4 * Eigen::internal::packet_traits<T>::size;
  const std::int64_t blocks = c / kBlock * kBlock, rest = c - blocks;
  // The last `rest` columns of B padded with zeros to one block, and the block of C they give.
  alignas(64) T pad[kShallowMaxDepth * kBlock];
  alignas(64) T tail[2 * kBlock];
  if (rest > 0)
    for (std::int64_t l = 0; l < k; ++l)
      for (std::int64_t t = 0; t < kBlock; ++t)
        pad[l * kBlock + t] = t < rest ? b[l * ldb + blocks + t] : T(0);
  for (std::int64_t i = 0; i < r; i += 2) {
    const T* ai = a + i * lda;
    T* ci = out + i * ldc;
    const std::int64_t rows = std::min<std::int64_t>(2, r - i);
    for (std::int64_t j = 0; j < blocks; j += kBlock)
      if (rows == 2)
        shallow_block4<true>(k, ai, lda, b + j, ldb, ci + j, ldc);
      else
        shallow_block4<false>(k, ai, lda, b + j, ldb, ci + j, ldc);
    if (rest == 0) continue;
    if (rows == 2)
      shallow_block4<true>(k, ai, lda, pad, kBlock, tail, kBlock);
    else
      shallow_block4<false>(k, ai, lda, pad, kBlock, tail, kBlock);
    for (std::int64_t row = 0; row < rows; ++row)
      std::copy_n(tail + row * kBlock, rest, ci + row * ldc + blocks);
  }
}

}  // namespace detail

// Which shallow kernel takes C (r x c) = A (r x k) B (or B^T when trans_b), if any.
enum class Shallow { kNone, kNarrow, kWide };
template <class T>
inline Shallow shallow_kind(bool trans_b, std::int64_t r, std::int64_t c, std::int64_t k) {
  constexpr std::int64_t W = Eigen::internal::packet_traits<T>::size;
  if (k < 1 || k > kShallowMaxDepth || c < 1) return Shallow::kNone;
  if (c <= 2 * W && r >= kNarrowMinRows) return Shallow::kNarrow;
  if (trans_b || r * c < kShallowMinOutput || c < kShallowMinCols<T>) return Shallow::kNone;
  return Shallow::kWide;
}

// C (r x c, ldc) = A (r x k, lda) B (k x c, ldb), or B^T if trans_b (narrow only), by kernel
// `kind`: shallow_kind of this shape or of a larger product these rows are part of (each row of C
// is computed alone, so split rows keep their bits). C must not overlap A or B.
template <class T>
inline void shallow_gemm(Shallow kind, bool trans_b, std::int64_t r, std::int64_t c, std::int64_t k,
                         const T* a, std::int64_t lda, const T* b, std::int64_t ldb, T* out,
                         std::int64_t ldc) {
  if (kind == Shallow::kNarrow)
    detail::narrow_gemm(trans_b, r, c, k, a, lda, b, ldb, out, ldc);
  else
    detail::wide_gemm(r, c, k, a, lda, b, ldb, out, ldc);
}

// The same by the shape's own kernel; returns false (doing nothing) when no kernel takes it.
template <class T>
inline bool shallow_gemm(bool trans_b, std::int64_t r, std::int64_t c, std::int64_t k, const T* a,
                         std::int64_t lda, const T* b, std::int64_t ldb, T* out, std::int64_t ldc) {
  const Shallow kind = shallow_kind<T>(trans_b, r, c, k);
  if (kind == Shallow::kNone) return false;
  shallow_gemm(kind, trans_b, r, c, k, a, lda, b, ldb, out, ldc);
  return true;
}

}  // namespace cosda::kernels
