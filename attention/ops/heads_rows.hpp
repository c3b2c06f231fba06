// Head-batched ops on states stored a token per row (part of ops/heads.hpp): every head's small
// product with its own block for every row of a ring, in window order (cony_re_fix; nystrom_heads
// with landmark-major weights). Counts as the per-head ops, in textbook order.
#pragma once

#include <Eigen/Core>
#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "attention/families/window.hpp"
#include "attention/kernels/packet_widths.hpp"
#include "attention/kernels/rows.hpp"
#include "attention/kernels/vector_matrix.hpp"
#include "attention/ops/core.hpp"
#include "attention/ops/product.hpp"

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wignored-attributes"

namespace cosda::kernels {

// The stride between a weight and the next of the same row, when it is 1 at compile time.
using UnitStride = std::integral_constant<std::int64_t, 1>;

// Head i's operands for ring_heads_gemm: weight l of slot t at w[t ldw + i wi + l wl], row l of
// its block at b[i hb + l ldb]. Rows of weights (wl = 1: cony_re_fix) or columns (ny_fix).
template <class T, class L>
struct HeadsOperands {
  const T* w;
  std::int64_t ldw, wi;
  L wl;
  const T* b;
  std::int64_t ldb, hb;
};

namespace detail {

// Rows [0, rows) of y = x B for one head (x rows x K, entries lx apart), columns from j in whole
// packets of P, each one's K rows of B in registers over all rows, sums first to last; returns j.
template <int K, class P, class T, class L>
inline std::int64_t head_rows_packets(std::int64_t rows, const T* x, std::int64_t ldx, L lx,
                                      const T* b, std::int64_t ldb, T* y, std::int64_t ldy,
                                      std::int64_t j, std::int64_t n) {
  using namespace Eigen::internal;
  constexpr std::int64_t W = unpacket_traits<P>::size;
  for (; j + W <= n; j += W) {
    P bl[K];
#pragma GCC unroll 16
    for (int l = 0; l < K; ++l) bl[l] = ploadu<P>(b + l * ldb + j);
    const T* xt = x;
    T* yt = y + j;
#pragma GCC unroll 1  // rolled: unrolled or peeled over a block's rows, the row pointers spill
    for (std::int64_t t = 0; t < rows; ++t, xt += ldx, yt += ldy) {
      P acc = pmul(pset1<P>(xt[0]), bl[0]);
#pragma GCC unroll 16
      for (int l = 1; l < K; ++l) acc = pmadd(pset1<P>(xt[l * lx]), bl[l], acc);
      pstoreu(yt, acc);
    }
  }
  return j;
}

// Rows [0, rows) of y = x B for one head (x: rows x K, B: K x n): packets, then half and
// quarter packets, the last columns one by one.
template <int K, class T, class L>
inline void head_rows(std::int64_t rows, const T* x, std::int64_t ldx, L lx, const T* b,
                      std::int64_t ldb, std::int64_t n, T* y, std::int64_t ldy) {
  const std::int64_t j = packet_cascade<T>(0, [&]<class X>(std::int64_t at) {
    return head_rows_packets<K, X>(rows, x, ldx, lx, b, ldb, y, ldy, at, n);
  });
  for (std::int64_t t = 0; t < rows; ++t)
    for (std::int64_t c = j; c < n; ++c) {
      T acc = x[t * ldx] * b[c];
      for (std::int64_t l = 1; l < K; ++l) acc += x[t * ldx + l * lx] * b[l * ldb + c];
      y[t * ldy + c] = acc;
    }
}

// Ring rows [first, first + rows) into dst rows [0, rows), m = K, in blocks of kBlockRows rows a
// head at a time: a block's rows of dst and weights stay in L1 while every head passes (whole
// passes over rows 768 or 1536 bytes apart fall in a few cache sets).
template <int K, class T, class L>
inline void heads_rows_fixed(std::int64_t first, std::int64_t rows, std::int64_t h, std::int64_t dh,
                             HeadsOperands<T, L> o, T* dst, std::int64_t ldd) {
  constexpr std::int64_t kBlockRows = 16;
  constexpr bool kRows = std::is_same_v<L, UnitStride>;  // cony_re_fix: wi = K, hb = K ldb
  const std::int64_t wi = kRows ? K : o.wi, hb = kRows ? K * o.ldb : o.hb;
  const T* w = o.w + first * o.ldw;
  for (std::int64_t t = 0; t < rows; t += kBlockRows) {
    const std::int64_t count = std::min(kBlockRows, rows - t);
    for (std::int64_t i = 0; i < h; ++i)
      head_rows<K>(count, w + t * o.ldw + i * wi, o.ldw, o.wl, o.b + i * hb, o.ldb, dh,
                   dst + t * ldd + i * dh, ldd);
  }
}

// ring_heads_gemm with m = K: the ring's two runs.
template <int K, class T, class L>
inline void ring_heads_fixed(std::int64_t r, std::int64_t h, std::int64_t dh, HeadsOperands<T, L> o,
                             std::int64_t oldest, T* dst, std::int64_t ldd) {
  heads_rows_fixed<K>(oldest, r - oldest, h, dh, o, dst, ldd);
  heads_rows_fixed<K>(0, oldest, h, dh, o, dst + (r - oldest) * ldd, ldd);
}

// ring_heads_gemm with any m: a row at a time.
template <class T, class L>
inline void ring_heads_any(std::int64_t r, std::int64_t h, std::int64_t m, std::int64_t dh,
                           HeadsOperands<T, L> o, std::int64_t oldest, T* dst, std::int64_t ldd) {
  for (std::int64_t row = 0; row < r; ++row) {
    const std::int64_t t = row < r - oldest ? row + oldest : row + oldest - r;
    T* y = dst + row * ldd;
    for (std::int64_t i = 0; i < h; ++i) {
      const T *wt = o.w + t * o.ldw + i * o.wi, *b = o.b + i * o.hb;
      if constexpr (std::is_same_v<L, UnitStride>) {
        vector_matrix(m, wt, b, o.ldb, dh, y + i * dh);
        continue;
      }
      for (std::int64_t f = 0; f < dh; ++f) {
        T acc = wt[0] * b[f];
        for (std::int64_t l = 1; l < m; ++l) acc += wt[l * o.wl] * b[l * o.ldb + f];
        y[i * dh + f] = acc;
      }
    }
  }
}

}  // namespace detail

// dst(row(t), [i dh, (i+1) dh)) = (head i's m weights of slot t) B_i for r slots and h heads,
// row(t) = (t - oldest) mod r. m of 2, 4, 8, 16 (the timed shapes): a head at a time, each packet
// of its block in registers over the rows, loop over m unrolled; other m a row at a time.
template <class T, class L>
inline void ring_heads_gemm(std::int64_t r, std::int64_t h, std::int64_t m, std::int64_t dh,
                            HeadsOperands<T, L> o, std::int64_t oldest, T* dst, std::int64_t ldd) {
  const auto fixed = [&]<int K>() { detail::ring_heads_fixed<K>(r, h, dh, o, oldest, dst, ldd); };
  switch (m) {
    case 2:
      return fixed.template operator()<2>();
    case 4:
      return fixed.template operator()<4>();
    case 8:
      return fixed.template operator()<8>();
    case 16:
      return fixed.template operator()<16>();
    default:
      return detail::ring_heads_any(r, h, m, dh, o, oldest, dst, ldd);
  }
}

}  // namespace cosda::kernels

#pragma GCC diagnostic pop

namespace cosda::ops {

// out_i = W_i B_i for every head over a ring's rows in window order (cony_re_fix's Eq. 23): w is
// r x h m, b h m x dh, out r x h dh, head i's at columns [i m, (i+1) m), rows [i m, (i+1) m) and
// columns [i dh, (i+1) dh); slot t lands on row (t - oldest) mod r.  mul r*d*m, add r*d*(m-1).
template <class E>
void heads_ring_gemm_nn(MatCRef<S<E>> w, MatCRef<S<E>> b, std::int64_t oldest, MatRef<S<E>> out) {
  const std::int64_t r = out.rows(), d = out.cols(), dh = b.cols(), h = d / dh, m = b.rows() / h;
  begin_op<E>(), in<E>(w), in<E>(b), ops::out<E>(out);
  const bool heap_free = h == 1 && gemm_heap_free<E>(false, false, r - oldest, d, m) &&
                         (oldest == 0 || gemm_heap_free<E>(false, false, oldest, d, m));
  if (tally_skip<E>({.mul = r * d * m, .add = r * d * (m - 1)}, heap_free)) return;
  if constexpr (!kScalarLevel<E>)
    if (h == 1) {  // one head: its ring's two runs by the one-head product kernels
      for_ring_in_window_order(r, oldest,
                               [&](std::int64_t first, std::int64_t count, std::int64_t row) {
                                 gemm_kernels<E>(false, false, w.middleRows(first, count), b,
                                                 out.middleRows(row, count));
                               });
      return;
    }
  if constexpr (kScalarLevel<E>) {
    const OneOp<E> one;
    for (std::int64_t i = 0; i < h; ++i) {
      const auto run = [&](std::int64_t first, std::int64_t count, std::int64_t row) {
        gemm_nn<E>(w.block(first, i * m, count, m), b.middleRows(i * m, m),
                   out.block(row, i * dh, count, dh));
      };
      run(oldest, r - oldest, 0);
      if (oldest > 0) run(0, oldest, r - oldest);
    }
  } else {
    const kernels::HeadsOperands<S<E>, kernels::UnitStride> o{
        w.data(), w.outerStride(), m, {}, b.data(), b.outerStride(), m * b.outerStride()};
    kernels::ring_heads_gemm(r, h, m, dh, o, oldest, out.data(), out.outerStride());
  }
}

// heads_ring_gemm_nn landmark-major (ny_fix) for heads [first, first + count): wt h m x c, c >= r
// (row l h + i: head i's weight l per slot), b m x d (row l: every head's row l); writes those
// heads' columns of out. Per head, gemm_tn.  mul r*count*dh*m, add r*count*dh*(m-1).
template <class E>
void heads_ring_gemm_lm(MatCRef<S<E>> wt, MatCRef<S<E>> b, std::int64_t oldest, MatRef<S<E>> out,
                        std::int64_t first, std::int64_t count) {
  const std::int64_t r = out.rows(), d = out.cols(), m = b.rows(), h = wt.rows() / m, dh = d / h;
  const std::int64_t ld = wt.outerStride();
  begin_op<E>(), in<E>(b.middleCols(first * dh, count * dh));
  ops::out<E>(out.middleCols(first * dh, count * dh));
  for (std::int64_t l = 0; l < m; ++l) in<E>(wt.block(l * h + first, 0, count, r));  // their rows
  if (tally_skip<E>({.mul = r * count * dh * m, .add = r * count * dh * (m - 1)})) return;
  if constexpr (kScalarLevel<E>) {
    const OneOp<E> one;
    using Strided = Eigen::Map<const Mat<S<E>>, 0, Eigen::OuterStride<>>;
    for (std::int64_t i = first; i < first + count; ++i) {
      const Strided wi(wt.data() + i * ld, m, r, Eigen::OuterStride<>(h * ld));
      const Strided bi(b.data() + i * dh, m, dh, Eigen::OuterStride<>(b.outerStride()));
      const auto run = [&](std::int64_t from, std::int64_t rows, std::int64_t row) {
        gemm_tn<E>(wi.middleCols(from, rows), bi, out.block(row, i * dh, rows, dh));
      };
      run(oldest, r - oldest, 0);
      if (oldest > 0) run(0, oldest, r - oldest);
    }
  } else {
    const kernels::HeadsOperands<S<E>, std::int64_t> o{
        wt.data() + first * ld, 1, ld, h * ld, b.data() + first * dh, b.outerStride(), dh};
    kernels::ring_heads_gemm(r, count, m, dh, o, oldest, out.data() + first * dh,
                             out.outerStride());
  }
}

}  // namespace cosda::ops
