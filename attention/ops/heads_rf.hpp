// Head-batched ops for the random-feature outputs of a whole window (corf_re, rf): every head's
// out_t = phi(q_t) S_i / (phi(q_t) . z_i) for every query of a token-per-column ring, and rf's key
// and query exponentials over a window. Counts as the per-head ops (families/random_features.hpp).
#pragma once

#include <Eigen/Core>
#include <algorithm>
#include <cstdint>

#include "attention/families/window.hpp"
#include "attention/kernels/heads.hpp"
#include "attention/kernels/packet_exp.hpp"
#include "attention/kernels/packet_transpose.hpp"
#include "attention/ops/seam.hpp"

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wignored-attributes"

namespace cosda::kernels {

// inv[i ldi + t] = 1 / (sum_l z[(i m + l) ldz] ut[(i m + l) ldu + t]) for h heads and c tokens
// stored by column, c a whole number of packets: a packet of tokens at a time.
template <class T>
inline void heads_feature_reciprocals(std::int64_t h, std::int64_t m, std::int64_t c, const T* ut,
                                      std::int64_t ldu, const T* z, std::int64_t ldz, T* inv,
                                      std::int64_t ldi) {
  using namespace Eigen::internal;
  using P = typename packet_traits<T>::type;
  constexpr std::int64_t W = unpacket_traits<P>::size;
  const P one = pset1<P>(T(1));
  for (std::int64_t i = 0; i < h; ++i) {
    const T* u = ut + i * m * ldu;
    const T* zi = z + i * m * ldz;
    for (std::int64_t t = 0; t < c; t += W) {
      P acc = pmul(pset1<P>(zi[0]), ploadu<P>(u + t));
      for (std::int64_t l = 1; l < m; ++l)
        acc = pmadd(pset1<P>(zi[l * ldz]), ploadu<P>(u + l * ldu + t), acc);
      pstoreu(inv + i * ldi + t, pdiv(one, acc));
    }
  }
}

namespace detail {

// work[c W, (c + 1) W) = scale sum_l s[l lds + c] u[l ldu, l ldu + W) for one head's C outputs
// (s: its first output's column of S, u: its features of W tokens): m packets loaded once for C.
template <class P, int C, class T>
inline void features_times_sums_block(std::int64_t m, const T* u, std::int64_t ldu, const T* s,
                                      std::int64_t lds, const P& scale, T* work) {
  using namespace Eigen::internal;
  constexpr std::int64_t W = unpacket_traits<P>::size;
  P acc[C];
  const P u0 = ploadu<P>(u);
  for (int c = 0; c < C; ++c) acc[c] = pmul(pset1<P>(s[c]), u0);
  for (std::int64_t l = 1; l < m; ++l) {
    const P ul = ploadu<P>(u + l * ldu);
    for (int c = 0; c < C; ++c) acc[c] = pmadd(pset1<P>(s[l * lds + c]), ul, acc[c]);
  }
  for (int c = 0; c < C; ++c) pstoreu(work + c * W, pmul(acc[c], scale));
}

}  // namespace detail

// dst(row(t), f) = inv[i ldi + t] sum_l s[(i m + l) lds + f - i dh] ut[(i m + l) ldu + t] for
// r tokens, d outputs, i = f / dh, row(t) = (t - oldest) mod r. W tokens at a time: every head's
// outputs into an L1 work tile, then W x W tiles transposed in registers. ut and inv are read in
// whole packets up to column padded_cols(r) - 1; outputs past the last whole tile one by one.
template <class T>
inline void heads_features_times_sums(std::int64_t r, std::int64_t d, std::int64_t dh,
                                      std::int64_t m, const T* ut, std::int64_t ldu, const T* s,
                                      std::int64_t lds, const T* inv, std::int64_t ldi,
                                      std::int64_t oldest, T* dst, std::int64_t ldd) {
  using namespace Eigen::internal;
  using P = typename packet_traits<T>::type;
  constexpr std::int64_t W = unpacket_traits<P>::size;
  const auto row = [&](std::int64_t t) { return t >= oldest ? t - oldest : t - oldest + r; };
  const std::int64_t tiles = W > 1 ? d / W * W : 0;  // outputs in whole tiles
  if constexpr (W > 1) {
    constexpr std::int64_t F = 256;  // outputs per work tile: F x W values on the stack
    alignas(64) T work[F * W];       // output f0 + k's run of W tokens at [k W, (k + 1) W)
    for (std::int64_t t0 = 0; t0 < r; t0 += W) {
      const std::int64_t tokens = std::min(W, r - t0);
      for (std::int64_t f0 = 0; f0 < tiles; f0 += F) {
        const std::int64_t f1 = std::min(tiles, f0 + F);
        for (std::int64_t i = f0 / dh; i * dh < f1; ++i) {  // the heads of outputs [f0, f1)
          const std::int64_t c1 = std::min(dh, f1 - i * dh);
          const T *u = ut + i * m * ldu + t0, *si = s + i * m * lds;
          const P scale = ploadu<P>(inv + i * ldi + t0);
          std::int64_t c = std::max<std::int64_t>(0, f0 - i * dh);
          for (; c + 4 <= c1; c += 4)
            detail::features_times_sums_block<P, 4>(m, u, ldu, si + c, lds, scale,
                                                    work + (i * dh + c - f0) * W);
          for (; c < c1; ++c)
            detail::features_times_sums_block<P, 1>(m, u, ldu, si + c, lds, scale,
                                                    work + (i * dh + c - f0) * W);
        }
        for (std::int64_t g = f0; g < f1; g += W) {
          PacketBlock<P, W> b;
#pragma GCC unroll 16
          for (std::int64_t k = 0; k < W; ++k) b.packet[k] = pload<P>(work + (g - f0 + k) * W);
          transpose_block(b);
          for (std::int64_t k = 0; k < tokens; ++k)
            pstoreu(dst + row(t0 + k) * ldd + g, b.packet[k]);
        }
      }
    }
  }
  for (std::int64_t f = tiles; f < d; ++f) {
    const std::int64_t i = f / dh;
    const T* sf = s + i * m * lds + (f - i * dh);
    const T* u = ut + i * m * ldu;
    for (std::int64_t t = 0; t < r; ++t) {
      T acc = sf[0] * u[t];
      for (std::int64_t l = 1; l < m; ++l) acc += sf[l * lds] * u[l * ldu + t];
      dst[row(t) * ldd + f] = acc * inv[i * ldi + t];
    }
  }
}

}  // namespace cosda::kernels

#pragma GCC diagnostic pop

namespace cosda::ops {

// FeatureSums::attend (random_features.hpp) for every head i over a ring of r queries by column:
// ut (h m x c) has head i's features at rows [i m, (i+1) m), s (h m x dh) and z (h m x 1) its S_i,
// z_i; dst(row, i dh + l) = (u S_i)_l / (u . z_i), row = (t - oldest) mod r; den (h x c) scratch;
// c >= padded_cols(r). One head may keep features by row (by_row: ut r x m) for one-head kernels.
// mul h*r*(dh*m + m + dh), add h*r*(dh+1)*(m-1), div h*r.
template <class E>
void heads_attend_cols(MatCRef<S<E>> ut, MatCRef<S<E>> s, MatCRef<S<E>> z, std::int64_t oldest,
                       MatRef<S<E>> den, MatRef<S<E>> dst, bool by_row = false) {
  const std::int64_t h = den.rows(), m = by_row ? ut.cols() : ut.rows() / h, r = dst.rows(),
                     d = dst.cols(), dh = d / h;
  begin_op<E>(), in<E>(by_row ? ut : ut.leftCols(r)), in<E>(s), in<E>(z), out<E>(den.leftCols(r));
  out<E>(dst);
  if (tally_skip<E>(
          {.mul = h * r * (dh * m + m + dh), .add = h * r * (dh + 1) * (m - 1), .div = h * r}))
    return;
  if constexpr (!kScalarLevel<E>)
    if (h == 1) {  // one head: the ring's two runs by the one-head product kernels
      S<E>* inv = den.data();
      for_ring_in_window_order(
          r, oldest, [&](std::int64_t first, std::int64_t count, std::int64_t row) {
            const auto u = by_row ? MatCRef<S<E>>(ut.middleRows(first, count))
                                  : MatCRef<S<E>>(ut.middleCols(first, count));
            gemm_kernels<E>(!by_row, false, u, s, dst.middleRows(row, count));
            gemm_kernels<E>(!by_row, false, u, z, Eigen::Map<Mat<S<E>>>(inv + row, count, 1));
          });
      for (std::int64_t t = 0; t < r; ++t) inv[t] = S<E>(1) / inv[t];
      split_pass<E>(r, r * d, [&](std::int64_t first, std::int64_t count) {
        for (std::int64_t t = first; t < first + count; ++t)
          kernels::scaled_copy(&dst(t, 0), inv[t], &dst(t, 0), d);
      });
      return;
    }
  if constexpr (kScalarLevel<E>) {
    const OneOp<E> one;
    for (std::int64_t i = 0; i < h; ++i) {
      S<E>* den_i = den.data() + i * den.outerStride();  // in window order
      for_ring_in_window_order(
          r, oldest, [&](std::int64_t first, std::int64_t count, std::int64_t row) {
            const auto u = by_row ? MatCRef<S<E>>(ut.middleRows(first, count))
                                  : MatCRef<S<E>>(ut.block(i * m, first, m, count));
            gemm<E>(!by_row, false, u, s.middleRows(i * m, m), dst.block(row, i * dh, count, dh));
            gemm<E>(!by_row, false, u, z.middleRows(i * m, m),
                    Eigen::Map<Mat<S<E>>>(den_i + row, count, 1));
          });
      reciprocals<E>(den_i, den_i, r);
      scale_rows<E>(dst.middleCols(i * dh, dh), den_i);
    }
  } else {
    const std::int64_t c = kernels::padded_cols<S<E>>(r);
    if (ut.cols() >= c && den.cols() >= c) {
      kernels::heads_feature_reciprocals(h, m, c, ut.data(), ut.outerStride(), z.data(),
                                         z.outerStride(), den.data(), den.outerStride());
      kernels::heads_features_times_sums(r, d, dh, m, ut.data(), ut.outerStride(), s.data(),
                                         s.outerStride(), den.data(), den.outerStride(), oldest,
                                         dst.data(), dst.outerStride());
      return;
    }
    for (std::int64_t i = 0; i < h; ++i)
      for (std::int64_t t = 0; t < r; ++t) {
        S<E> acc = z(i * m, 0) * ut(i * m, t);
        for (std::int64_t l = 1; l < m; ++l) acc += z(i * m + l, 0) * ut(i * m + l, t);
        den(i, t) = S<E>(1) / acc;
      }
    for (std::int64_t f = 0; f < d; ++f) {
      const std::int64_t i = f / dh, l0 = f - i * dh;
      for (std::int64_t t = 0; t < r; ++t) {
        S<E> acc = s(i * m, l0) * ut(i * m, t);
        for (std::int64_t l = 1; l < m; ++l) acc += s(i * m + l, l0) * ut(i * m + l, t);
        dst((t - oldest + r) % r, f) = acc * den(i, t);
      }
    }
  }
}

// u(l h + i, t) <- exp(u(l h + i, t) - (k_i(t) . k_i(t)) a) for heads [first, first + count), r
// tokens of a d x c key ring by column, u (m h x c) landmark-major: rf's window key features after
// W k_i(t), as heads_key_exp; off (1 x c) scratch.
// mul count*r*(dh+1), add count*r*(dh-1) + count*r*m, exp count*r*m.
template <class E>
void heads_key_exp_cols(MatCRef<S<E>> k, S<E> a, std::int64_t h, std::int64_t first,
                        std::int64_t count, std::int64_t r, MatRef<S<E>> u, MatRef<S<E>> off) {
  const std::int64_t m = u.rows() / h, dh = k.rows() / h, last = first + count;
  begin_op<E>(), in<E>(k.block(first * dh, 0, count * dh, r)), out<E>(off.leftCols(r));
  for (std::int64_t l = 0; l < m; ++l) inout<E>(u.block(l * h + first, 0, count, r));
  if (tally_skip<E>({.mul = count * r * (dh + 1),
                     .add = count * r * (dh - 1) + count * r * m,
                     .exp = count * r * m}))
    return;
  if constexpr (kScalarLevel<E>) {
    const OneOp<E> one;
    Mat<S<E>> ki(1, dh);
    for (std::int64_t i = first; i < last; ++i)
      for (std::int64_t t = 0; t < r; ++t) {
        for (std::int64_t f = 0; f < dh; ++f) ki(0, f) = k(i * dh + f, t);
        const S<E> offset = product<E>(dot<E>(ki.data(), ki.data(), dh), a);
        for (std::int64_t l = 0; l < m; ++l)
          exp_inplace<E>(&u(l * h + i, t), 1, Shift<S<E>>{true, offset});
      }
  } else {
    VecMap<S<E>> o(off.data(), r);
    for (std::int64_t i = first; i < last; ++i) {
      o = VecCMap<S<E>>(k.row(i * dh).data(), r).array().square();
      for (std::int64_t f = 1; f < dh; ++f)
        o.array() += VecCMap<S<E>>(k.row(i * dh + f).data(), r).array().square();
      o *= a;
      for (std::int64_t l = 0; l < m; ++l) {
        VecMap<S<E>> row(&u(l * h + i, 0), r);
        row = kernels::exp_of(row.array() - o.array());
      }
    }
  }
}

// u(i m + l, t) <- exp(u(i m + l, t) - max_l u(i m + l, t)) for h heads, m features, r tokens of
// u (h m x c by column: rf's query features after W q_i(t)); top (1 x c): scratch. heads_max_exp
// over the ring.  add h*r*m, exp h*r*m, other h*r*(m-1).
template <class E>
void heads_max_exp_cols(std::int64_t h, std::int64_t r, MatRef<S<E>> u, MatRef<S<E>> top) {
  const std::int64_t m = u.rows() / h;
  begin_op<E>(), inout<E>(u.leftCols(r)), out<E>(top.leftCols(r));
  if (tally_skip<E>({.add = h * r * m, .exp = h * r * m, .other = h * r * (m - 1)})) return;
  if constexpr (kScalarLevel<E>) {
    const OneOp<E> one;
    Mat<S<E>> x(1, m);
    for (std::int64_t i = 0; i < h; ++i)
      for (std::int64_t t = 0; t < r; ++t) {
        for (std::int64_t l = 0; l < m; ++l) x(0, l) = u(i * m + l, t);
        exp_inplace<E>(x.data(), m, Shift<S<E>>{true, max_value<E>(x.data(), m)});
        for (std::int64_t l = 0; l < m; ++l) u(i * m + l, t) = x(0, l);
      }
  } else {
    VecMap<S<E>> best(top.data(), r);
    for (std::int64_t i = 0; i < h; ++i) {
      best = VecCMap<S<E>>(&u(i * m, 0), r);
      for (std::int64_t l = 1; l < m; ++l) best = best.cwiseMax(VecCMap<S<E>>(&u(i * m + l, 0), r));
      for (std::int64_t l = 0; l < m; ++l) {
        VecMap<S<E>> row(&u(i * m + l, 0), r);
        row = kernels::exp_of(row.array() - best.array());
      }
    }
  }
}

}  // namespace cosda::ops
