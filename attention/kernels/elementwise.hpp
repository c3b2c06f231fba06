// Kernels of the seam's element-wise ops on rows of any length: whole packets, then a half and a
// quarter packet, then single elements (packet_widths.hpp), so that short rows (Table III: 12
// floats) run in registers. A sum's order is its own (packets, then tail); exp is packet_exp.hpp's.
#pragma once

#include <Eigen/Core>
#include <cmath>
#include <cstdint>

#include "attention/kernels/packet_exp.hpp"
#include "attention/kernels/packet_widths.hpp"

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wignored-attributes"

namespace cosda::kernels {

namespace detail {

// y[j, n) <- exp(y - c) (c when shifted) in whole packets of P from j, summed into total; returns
// the first element left.
template <class P, class T>
inline std::int64_t exp_packets(T* y, std::int64_t j, std::int64_t n, bool shifted, T c, P& total) {
  using namespace Eigen::internal;
  constexpr std::int64_t W = unpacket_traits<P>::size;
  for (; j + W <= n; j += W) {
    const P x = ploadu<P>(y + j);
    const P e = kernels::pexp(shifted ? psub(x, pset1<P>(c)) : x);
    pstoreu(y + j, e);
    total = padd(total, e);
  }
  return j;
}

}  // namespace detail

// y[0, n) <- exp(y - c) (c when shifted); returns the sum of the new y.
template <class T>
inline T exp_sum(T* y, std::int64_t n, bool shifted, T c) {
  using namespace Eigen::internal;
  T sum(0);
  std::int64_t j = packet_cascade<T>(0, [&]<class X>(std::int64_t at) {
    X total = pset1<X>(T(0));
    at = detail::exp_packets<X>(y, at, n, shifted, c, total);
    sum += predux(total);
    return at;
  });
  for (; j < n; ++j) {
    y[j] = std::exp(shifted ? y[j] - c : y[j]);
    sum += y[j];
  }
  return sum;
}

// y[0, n) <- exp(y - c) (c when shifted).
template <class T>
inline void exp_array(T* y, std::int64_t n, bool shifted, T c) {
  using namespace Eigen::internal;
  for_each_packet<T>(
      n,
      [=]<class P>(std::int64_t j) {
        const P x = ploadu<P>(y + j);
        pstoreu(y + j, kernels::pexp(shifted ? psub(x, pset1<P>(c)) : x));
      },
      [=](std::int64_t j) { y[j] = std::exp(shifted ? y[j] - c : y[j]); });
}

// The sum of x[0, n).
template <class T>
inline T sum(const T* x, std::int64_t n) {
  using namespace Eigen::internal;
  T total(0);
  const std::int64_t j = packet_cascade<T>(0, [&]<class X>(std::int64_t at) {
    constexpr std::int64_t W = unpacket_traits<X>::size;
    if (at + W > n) return at;
    X acc = ploadu<X>(x + at);
    for (at += W; at + W <= n; at += W) acc = padd(acc, ploadu<X>(x + at));
    total += predux(acc);
    return at;
  });
  for (std::int64_t i = j; i < n; ++i) total += x[i];
  return total;
}

// dst <- a src over n elements (dst may be src).
template <class T>
inline void scaled_copy(const T* src, T a, T* dst, std::int64_t n) {
  using namespace Eigen::internal;
  for_each_packet<T>(
      n, [=]<class P>(std::int64_t j) { pstoreu(dst + j, pmul(pset1<P>(a), ploadu<P>(src + j))); },
      [=](std::int64_t j) { dst[j] = a * src[j]; });
}

// y = x^T for x rows x cols (rows ldx apart) into y cols x rows (rows ldy apart): 4 x 4 tiles
// transposed in registers, the edges one element at a time.
template <class T>
inline void transpose(std::int64_t rows, std::int64_t cols, const T* x, std::int64_t ldx, T* y,
                      std::int64_t ldy) {
  using namespace Eigen::internal;
  using P = typename find_best_packet<T, 4>::type;
  std::int64_t r4 = 0, c4 = 0;
  if constexpr (unpacket_traits<P>::size == 4) {
    r4 = rows / 4 * 4, c4 = cols / 4 * 4;
    for (std::int64_t r = 0; r < r4; r += 4)
      for (std::int64_t c = 0; c < c4; c += 4) {
        PacketBlock<P, 4> tile;
        for (int k = 0; k < 4; ++k) tile.packet[k] = ploadu<P>(x + (r + k) * ldx + c);
        ptranspose(tile);
        for (int k = 0; k < 4; ++k) pstoreu(y + (c + k) * ldy + r, tile.packet[k]);
      }
  }
  for (std::int64_t r = 0; r < rows; ++r)  // the edges: columns from c4, rows from r4
    for (std::int64_t c = r < r4 ? c4 : 0; c < cols; ++c) y[c * ldy + r] = x[r * ldx + c];
}

// x <- x / a over n elements.
template <class T>
inline void quotient(T* x, T a, std::int64_t n) {
  using namespace Eigen::internal;
  for_each_packet<T>(
      n, [=]<class P>(std::int64_t j) { pstoreu(x + j, pdiv(ploadu<P>(x + j), pset1<P>(a))); },
      [=](std::int64_t j) { x[j] = x[j] / a; });
}

// y <- y + a x (sign +1) or y - a x (sign -1) over n elements.
template <class T>
inline void axpy(T a, const T* x, T* y, std::int64_t n, int sign) {
  using namespace Eigen::internal;
  for_each_packet<T>(
      n,
      [=]<class P>(std::int64_t j) {
        const P ax = pmul(pset1<P>(a), ploadu<P>(x + j)), yj = ploadu<P>(y + j);
        pstoreu(y + j, sign > 0 ? padd(yj, ax) : psub(yj, ax));
      },
      [=](std::int64_t j) { y[j] = sign > 0 ? y[j] + a * x[j] : y[j] - a * x[j]; });
}

// y <- y + x (sign +1) or y - x (sign -1) over n elements.
template <class T>
inline void accumulate(const T* x, T* y, std::int64_t n, int sign) {
  using namespace Eigen::internal;
  for_each_packet<T>(
      n,
      [=]<class P>(std::int64_t j) {
        const P xj = ploadu<P>(x + j), yj = ploadu<P>(y + j);
        pstoreu(y + j, sign > 0 ? padd(yj, xj) : psub(yj, xj));
      },
      [=](std::int64_t j) { y[j] = sign > 0 ? y[j] + x[j] : y[j] - x[j]; });
}

}  // namespace cosda::kernels

#pragma GCC diagnostic pop
