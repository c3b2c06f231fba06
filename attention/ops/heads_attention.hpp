// att's batched heads (variants/att.hpp): every head's softmax attention over head panels (a packet
// of heads side by side), a block of queries at a time, a packet of heads wide; a block's scores
// wait in a kAttQueries x n scratch. And co_si's and co_re's one-query ops over the same panels.
#pragma once

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "attention/kernels/elementwise.hpp"
#include "attention/kernels/packet_exp.hpp"
#include "attention/kernels/packet_widths.hpp"
#include "attention/ops/core.hpp"
#include "attention/ops/elementwise.hpp"

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wignored-attributes"

namespace cosda::ops {

namespace detail {

// Queries a block takes; keys of the score pass's register tile; features of the output pass's.
inline constexpr std::int64_t kAttQueries = 4, kAttKeys = 4, kAttFeatures = 4;

// Heads a block takes at most: a packet of them (one head at the scalar level).
template <class E>
constexpr std::int64_t attention_lanes() {
  return Eigen::internal::unpacket_traits<
      typename Eigen::internal::packet_traits<S<E>>::type>::size;
}

// f.template operator()<X>(i) per block of heads from i: packets, half and quarter packets, X = T.
template <class T, class F>
[[gnu::always_inline]] inline void for_head_packets(std::int64_t h, F f) {
  std::int64_t i = kernels::packet_cascade<T>(0, [&]<class X>(std::int64_t at) {
    constexpr std::int64_t B = Eigen::internal::unpacket_traits<X>::size;
    for (; at + B <= h; at += B) f.template operator()<X>(at);
    return at;
  });
  for (; i < h; ++i) f.template operator()<T>(i);
}

// Keeps a loaded packet in a register: GCC would otherwise reload it for each multiply-add.
template <class X>
EIGEN_ALWAYS_INLINE void in_register([[maybe_unused]] X& x) {
#if defined(__x86_64__)
  if constexpr (!std::is_class_v<X>) asm("" : "+v"(x));  // a packet or a plain scalar
#endif
}

template <class X>
EIGEN_ALWAYS_INLINE X exp_heads(const X& x) {
  if constexpr (std::is_class_v<X>)  // a scalar-level policy's scalar
    return exp(x);
  else if constexpr (std::is_floating_point_v<X>)
    return std::exp(x);
  else
    return kernels::pexp(x);
}

// s[u][j0 + t] = scaled query qs[u] . key j0 + t, first to last over dh, for an NQ x NK register
// tile, each packet X a block of heads. Out of line: the tile gets a function's registers.
template <int NQ, int NK, class X, class T>
[[gnu::noinline]] void score_tile(const T* qs, const T* kj, std::int64_t dh, std::int64_t stride,
                                  T* s, std::int64_t n) {
  using namespace Eigen::internal;
  constexpr std::int64_t B = unpacket_traits<X>::size;
  X acc[NQ][NK];
  {
    X kc[NK];
    for (int t = 0; t < NK; ++t) kc[t] = ploadu<X>(kj + t * stride);
    for (int u = 0; u < NQ; ++u) {
      const X qu = ploadu<X>(qs + u * dh * B);
      for (int t = 0; t < NK; ++t) acc[u][t] = pmul(qu, kc[t]);
    }
  }
  for (std::int64_t c = 1; c < dh; ++c) {
    X kc[NK];
    for (int t = 0; t < NK; ++t) kc[t] = ploadu<X>(kj + t * stride + c * B);
    if constexpr (NQ > 1)  // each used NQ times
      for (int t = 0; t < NK; ++t) in_register(kc[t]);
    for (int u = 0; u < NQ; ++u) {
      X qu = ploadu<X>(qs + (u * dh + c) * B);
      in_register(qu);
      for (int t = 0; t < NK; ++t) acc[u][t] = pmadd(qu, kc[t], acc[u][t]);
    }
  }
  for (int u = 0; u < NQ; ++u)
    for (int t = 0; t < NK; ++t) pstoreu(s + (u * n + t) * B, acc[u][t]);
}

// o[u][c0 + t] = (sum over the n keys of e[u][j] V[j][c0 + t], first to last) times inv[u],
// for a tile of NQ queries by NC features held in registers.
template <int NQ, int NC, class X, class T>
[[gnu::noinline]] void output_tile(const T* e, std::int64_t n, const T* vc, std::int64_t stride,
                                   const T* inv, T* o, std::int64_t dh) {
  using namespace Eigen::internal;
  constexpr std::int64_t B = unpacket_traits<X>::size;
  X acc[NQ][NC];
  {
    X vj[NC];
    for (int t = 0; t < NC; ++t) vj[t] = ploadu<X>(vc + t * B);
    for (int u = 0; u < NQ; ++u) {
      const X eu = ploadu<X>(e + u * n * B);
      for (int t = 0; t < NC; ++t) acc[u][t] = pmul(eu, vj[t]);
    }
  }
  for (std::int64_t j = 1; j < n; ++j) {
    X vj[NC];
    for (int t = 0; t < NC; ++t) vj[t] = ploadu<X>(vc + j * stride + t * B);
    if constexpr (NQ > 1)  // each used NQ times
      for (int t = 0; t < NC; ++t) in_register(vj[t]);
    for (int u = 0; u < NQ; ++u) {
      X eu = ploadu<X>(e + (u * n + j) * B);
      in_register(eu);
      for (int t = 0; t < NC; ++t) acc[u][t] = pmadd(eu, vj[t], acc[u][t]);
    }
  }
  for (int u = 0; u < NQ; ++u) {
    const X iu = ploadu<X>(inv + u * B);
    for (int t = 0; t < NC; ++t) pstoreu(o + (u * dh + t) * B, pmul(acc[u][t], iu));
  }
}

}  // namespace detail

// Token x of h heads of dh features (head i's at [i dh, (i+1) dh)) into slot t of a ring of n in
// head panels: heads in blocks of B (for_head_packets), block [i, i + B) a panel of n dh packets
// at n dh i, element (t, c) of head i + b at n dh i + (t dh + c) B + b. No arithmetic.
template <class E>
void heads_panels_enter(std::int64_t h, std::int64_t dh, std::int64_t n, const S<E>* x, S<E>* ring,
                        std::int64_t t) {
  begin_op<E>(), in<E>(x, h * dh);
  const bool skip = skip_arithmetic<E>();
  detail::for_head_packets<S<E>>(h, [&]<class X>(std::int64_t i) {
    constexpr std::int64_t B = Eigen::internal::unpacket_traits<X>::size;
    S<E>* y = ring + n * dh * i + t * dh * B;
    out<E>(y, dh * B);  // the token's slot of the panel, not the whole ring
    if (skip) return;
    if constexpr (B == 1)
      std::copy_n(x + i * dh, dh, y);
    else
      kernels::transpose(B, dh, x + i * dh, dh, y, B);
  });
}

// Token x into slot t of ring (h dh x n): heads_panels_enter if panels, else copy_to_column.
template <class E>
void heads_ring_enter(bool panels, std::int64_t h, std::int64_t dh, const S<E>* x,
                      MatRef<S<E>> ring, std::int64_t t) {
  if (panels)
    heads_panels_enter<E>(h, dh, ring.cols(), x, ring.data(), t);
  else
    copy_to_column<E>(x, ring, t);
}

// The inverse of heads_panels_enter: slot t of the ring back into token x. No arithmetic.
template <class E>
void heads_panels_leave(std::int64_t h, std::int64_t dh, std::int64_t n, const S<E>* ring,
                        std::int64_t t, S<E>* x) {
  begin_op<E>(), out<E>(x, h * dh);
  const bool skip = skip_arithmetic<E>();
  detail::for_head_packets<S<E>>(h, [&]<class X>(std::int64_t i) {
    constexpr std::int64_t B = Eigen::internal::unpacket_traits<X>::size;
    const S<E>* y = ring + n * dh * i + t * dh * B;
    in<E>(y, dh * B);
    if (skip) return;
    if constexpr (B == 1)
      std::copy_n(y, dh, x + i * dh);
    else
      kernels::transpose(dh, B, y, B, x + i * dh, dh);
  });
}

// Scratch heads_panels_attention takes, in elements.
template <class E>
constexpr std::int64_t heads_attention_scratch(std::int64_t n, std::int64_t dh) {
  return detail::kAttQueries * (2 * dh + n + 1) * detail::attention_lanes<E>();
}

namespace detail {

// NQ query rows from r of heads [i, i + B) into dst: scaled queries, scores, exponentials and
// sums, outputs, each a pass over the block's rows in work.
template <int NQ, class X, class T>
void attention_block(std::int64_t n, std::int64_t dh, std::int64_t i, const T* q, const T* k,
                     const T* v, T s, std::int64_t oldest, std::int64_t r, MatRef<T> dst, T* work) {
  using namespace Eigen::internal;
  constexpr std::int64_t B = unpacket_traits<X>::size, kQ = kAttQueries;
  const std::int64_t stride = dh * B;  // from a token to the next in a panel
  T* qs = work;                        // the block's scaled queries, kQ x dh packets
  T* e = qs + kQ * dh * B;             // their exponentiated scores, kQ x n
  T* ob = e + kQ * n * B;              // their outputs, kQ x dh
  T* inv = ob + kQ * dh * B;           // the reciprocals of their sums, kQ
  const X ps = pset1<X>(s);
  for (int u = 0; u < NQ; ++u) {  // scale_into of the queries in window order
    const T* qt = q + (oldest + r + u) % n * stride;
    for (std::int64_t c = 0; c < dh; ++c)
      pstoreu(qs + (u * dh + c) * B, pmul(ploadu<X>(qt + c * B), ps));
  }
  // q K^T (gemm_nt), register tiles of NQ queries by kAttKeys keys
  std::int64_t j = 0;
  for (; j + kAttKeys <= n; j += kAttKeys)
    score_tile<NQ, kAttKeys, X>(qs, k + j * stride, dh, stride, e + j * B, n);
  for (; j < n; ++j) score_tile<NQ, 1, X>(qs, k + j * stride, dh, stride, e + j * B, n);
  // their exponentials, sums and reciprocals (exp_row_sums, reciprocals)
  for (int u = 0; u < NQ; ++u) {
    T* eu = e + u * n * B;
    X sum = exp_heads(ploadu<X>(eu));
    pstoreu(eu, sum);
    for (std::int64_t jx = 1; jx < n; ++jx) {
      const X x = exp_heads(ploadu<X>(eu + jx * B));
      pstoreu(eu + jx * B, x);
      sum = padd(sum, x);
    }
    pstoreu(inv + u * B, pdiv(pset1<X>(T(1)), sum));
  }
  // (A V) scaled by the reciprocals (gemm_nn, scale_rows), NQ x kAttFeatures tiles
  std::int64_t c = 0;
  for (; c + kAttFeatures <= dh; c += kAttFeatures)
    output_tile<NQ, kAttFeatures, X>(e, n, v + c * B, stride, inv, ob + c * B, dh);
  for (; c < dh; ++c) output_tile<NQ, 1, X>(e, n, v + c * B, stride, inv, ob + c * B, dh);
  for (int u = 0; u < NQ; ++u) {  // the packets to the heads' columns of the output row
    T* row = &dst(r + u, i * dh);
    if constexpr (B == 1)
      std::copy_n(ob + u * dh, dh, row);
    else
      kernels::transpose(dh, B, ob + u * dh * B, B, row, dh);
  }
}

}  // namespace detail

// Rows [first, first + rows) of every head's D^-1 exp(s Q_i K_i^T) V_i (CoTrans Eq. 1) into dst
// (n x h dh). q, k, v: head-panel rings, queries in window order (row r: slot (oldest + r) % n).
// Per head and row as att's step (scale_into, gemm_nt, exp_row_sums, gemm_nn, reciprocals,
// scale_rows), sums first to last. work: heads_attention_scratch.  mul h rows (2 dh + 2 n dh),
// add h rows (n (dh-1) + (n-1) + dh (n-1)), div h rows, exp h rows n.
template <class E>
void heads_panels_attention(std::int64_t n, std::int64_t dh, std::int64_t h, const S<E>* q,
                            const S<E>* k, const S<E>* v, S<E> s, std::int64_t oldest,
                            std::int64_t first, std::int64_t rows, MatRef<S<E>> dst, S<E>* work) {
  begin_op<E>(), in<E>(k, n * dh * h), in<E>(v, n * dh * h);
  out<E>(dst.middleRows(first, rows)), out<E>(work, heads_attention_scratch<E>(n, dh));
  if constexpr (E::kCounting)  // the rows' queries only: their slots of every block's panel
    detail::for_head_packets<S<E>>(h, [&]<class X>(std::int64_t i) {
      constexpr std::int64_t B = Eigen::internal::unpacket_traits<X>::size;
      for (std::int64_t r = first; r < first + rows; ++r)
        in<E>(q + n * dh * i + (oldest + r) % n * dh * B, dh * B);
    });
  if (tally_skip<E>({.mul = h * rows * (2 * dh + 2 * n * dh),
                     .add = h * rows * (n * (dh - 1) + (n - 1) + dh * (n - 1)),
                     .div = h * rows,
                     .exp = h * rows * n}))
    return;
  constexpr std::int64_t kQ = detail::kAttQueries;
  detail::for_head_packets<S<E>>(h, [&]<class X>(std::int64_t i) {
    const std::int64_t panel = n * dh * i;  // the panels of heads [i, i + B)
    const auto block = [&]<int NQ>(std::int64_t r) {
      detail::attention_block<NQ, X>(n, dh, i, q + panel, k + panel, v + panel, s, oldest, r, dst,
                                     work);
    };
    std::int64_t r = first;
    for (; r + kQ <= first + rows; r += kQ) block.template operator()<kQ>(r);
    for (; r < first + rows; ++r) block.template operator()<1>(r);
  });
}

// Widest head heads_panels_single takes: its outputs stay in registers, one per feature.
inline constexpr std::int64_t kSingleQueryMaxWidth = 16;

namespace detail {

// e[t] = exp(qs k_t^T - c) (c when shifted) for NG keys from kj, sums over DH first to last.
template <int NG, int DH, class X, class T>
EIGEN_ALWAYS_INLINE void single_scores(const T* qs, const T* kj, bool shifted, const X& pc,
                                       X (&e)[NG]) {
  using namespace Eigen::internal;
  constexpr std::int64_t B = unpacket_traits<X>::size, stride = DH * B;
  for (int t = 0; t < NG; ++t) e[t] = pmul(ploadu<X>(qs), ploadu<X>(kj + t * stride));
  for (int c = 1; c < DH; ++c) {
    X qc = ploadu<X>(qs + c * B);
    if constexpr (NG > 1) in_register(qc);  // used NG times
    for (int t = 0; t < NG; ++t) e[t] = pmadd(qc, ploadu<X>(kj + t * stride + c * B), e[t]);
  }
  for (int t = 0; t < NG; ++t) e[t] = exp_heads(shifted ? psub(e[t], pc) : e[t]);
}

// o = D^-1 a V of one scaled query over n keys and values of a block of heads in panels, the DH
// outputs in registers, in one pass over the keys, G at a time, so exponentials overlap the loads.
// Not Normalize: a V into o and the sum after it (o + DH B), as co_re's newest row keeps them.
template <int DH, bool Normalize, class X, class T>
[[gnu::noinline]] void single_query_block(std::int64_t n, const T* qs, const T* k, const T* v,
                                          bool shifted, T c, T* o) {
  using namespace Eigen::internal;
  constexpr std::int64_t B = unpacket_traits<X>::size, stride = DH * B;
  constexpr int G = DH <= 8 ? 4 : 2;
  const X pc = pset1<X>(c);
  X acc[DH], sum;
  {
    X e[1];
    single_scores<1, DH>(qs, k, shifted, pc, e);
    sum = e[0];
    for (int f = 0; f < DH; ++f) acc[f] = pmul(e[0], ploadu<X>(v + f * B));
  }
  const auto keys = [&]<int NG>(std::int64_t j) {
    X e[NG];
    single_scores<NG, DH>(qs, k + j * stride, shifted, pc, e);
    for (int t = 0; t < NG; ++t) sum = padd(sum, e[t]);
    for (int t = 0; t < NG; ++t)
      for (int f = 0; f < DH; ++f)
        acc[f] = pmadd(e[t], ploadu<X>(v + (j + t) * stride + f * B), acc[f]);
  };
  std::int64_t j = 1;
  for (; j + G <= n; j += G) keys.template operator()<G>(j);
  for (; j < n; ++j) keys.template operator()<1>(j);
  if constexpr (Normalize) {
    const X inv = pdiv(pset1<X>(T(1)), sum);
    for (int f = 0; f < DH; ++f) pstoreu(o + f * B, pmul(acc[f], inv));
  } else {
    for (int f = 0; f < DH; ++f) pstoreu(o + f * B, acc[f]);
    pstoreu(o + DH * B, sum);
  }
}

// f.template operator()<DH>() for the compile-time DH equal to dh, 1 <= dh <= kSingleQueryMaxWidth.
template <class F, int... DH>
void with_width(std::int64_t dh, F&& f, std::integer_sequence<int, DH...>) {
  (void)((dh == DH + 1 ? (f.template operator()<DH + 1>(), true) : false) || ...);
}

}  // namespace detail

// Scratch heads_panels_single and heads_panels_row take, in elements.
template <class E>
constexpr std::int64_t heads_single_scratch(std::int64_t dh) {
  return (2 * dh + 1) * detail::attention_lanes<E>();
}

namespace detail {

// The two ops below, a block of heads per pass: the query transposed to packets, scaled by s if
// Normalize (scale_into), single_query_block, the outputs (and sums) back to the heads' columns.
template <bool Normalize, class E>
void single_query_heads(std::int64_t n, std::int64_t dh, std::int64_t h, const S<E>* q,
                        const S<E>* k, const S<E>* v, S<E> s, const Shift<S<E>>& shift, S<E>* dst,
                        S<E>* sums, S<E>* work) {
  for_head_packets<S<E>>(h, [&]<class X>(std::int64_t i) {
    using namespace Eigen::internal;
    constexpr std::int64_t B = unpacket_traits<X>::size;
    S<E>*qs = work, *o = work + dh * B;
    if constexpr (B == 1)
      std::copy_n(q + i * dh, dh, qs);
    else
      kernels::transpose(B, dh, q + i * dh, dh, qs, B);
    if constexpr (Normalize)
      for (std::int64_t c = 0; c < dh; ++c)
        pstoreu(qs + c * B, pmul(ploadu<X>(qs + c * B), pset1<X>(s)));
    with_width(
        dh,
        [&]<int DH>() {
          single_query_block<DH, Normalize, X>(n, qs, k + n * dh * i, v + n * dh * i, shift.on,
                                               shift.c, o);
        },
        std::make_integer_sequence<int, kSingleQueryMaxWidth>());
    if constexpr (B == 1)
      std::copy_n(o, dh, dst + i * dh);
    else
      kernels::transpose(dh, B, o, B, dst + i * dh, dh);
    if constexpr (!Normalize) std::copy_n(o + dh * B, B, sums + i);
  });
}

}  // namespace detail

// Every head's D^-1 exp(s q_i K_i^T) V_i of one query (CoTrans Eq. 7) over head panels (any ring
// order) into dst (1 x h dh), exp(x - c) where shifted: per head co_si's scale_into, exp_scores,
// weighted_average, sums first to last. dh <= kSingleQueryMaxWidth; work: heads_single_scratch.
// mul h (2 dh + 2 n dh), add h (n (dh-1) + (n-1) + dh (n-1)) (+ h n shifted), div h, exp h n.
template <class E>
void heads_panels_single(std::int64_t n, std::int64_t dh, std::int64_t h, const S<E>* q,
                         const S<E>* k, const S<E>* v, S<E> s, const Shift<S<E>>& shift,
                         MatRef<S<E>> dst, S<E>* work) {
  eigen_assert(dh >= 1 && dh <= kSingleQueryMaxWidth);  // with_width has a kernel for each
  begin_op<E>(), in<E>(q, h * dh), in<E>(k, n * dh * h), in<E>(v, n * dh * h);
  out<E>(dst), out<E>(work, heads_single_scratch<E>(dh));
  if (tally_skip<E>({.mul = h * (2 * dh + 2 * n * dh),
                     .add = h * (n * (dh - 1) + (n - 1) + dh * (n - 1) + (shift.on ? n : 0)),
                     .div = h,
                     .exp = h * n}))
    return;
  detail::single_query_heads<true, E>(n, dh, h, q, k, v, s, shift, dst.data(), nullptr, work);
}

// Every head's a_i = exp(q_i K_i^T) (exp(x - c) where shifted), its sum and a_i V_i for one
// pre-scaled query (CoTrans Eqs. 3, 5 per head: co_re's heads_exp_scores, heads_gemm_nt) in one
// pass: a_i V_i into dst (1 x h dh), the h sums into sums. dh, work: as heads_panels_single.
// mul h 2 n dh, add h (n (dh-1) + (n-1) + dh (n-1)) (+ h n shifted), exp h n.
template <class E>
void heads_panels_row(std::int64_t n, std::int64_t dh, std::int64_t h, const S<E>* q, const S<E>* k,
                      const S<E>* v, const Shift<S<E>>& shift, MatRef<S<E>> dst, S<E>* sums,
                      S<E>* work) {
  eigen_assert(dh >= 1 && dh <= kSingleQueryMaxWidth);
  begin_op<E>(), in<E>(q, h * dh), in<E>(k, n * dh * h), in<E>(v, n * dh * h);
  out<E>(dst), out<E>(sums, h), out<E>(work, heads_single_scratch<E>(dh));
  if (tally_skip<E>({.mul = h * 2 * n * dh,
                     .add = h * (n * (dh - 1) + (n - 1) + dh * (n - 1) + (shift.on ? n : 0)),
                     .exp = h * n}))
    return;
  detail::single_query_heads<false, E>(n, dh, h, q, k, v, S<E>(1), shift, dst.data(), sums, work);
}

}  // namespace cosda::ops

#pragma GCC diagnostic pop
