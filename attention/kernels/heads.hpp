// Kernels of the head-batched seam ops (ops/heads.hpp) on states stored a token per column (head
// i: rows [i dh, (i+1) dh)), running along the tokens in whole packets of columns (padded_cols).
#pragma once

#include <Eigen/Core>
#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "attention/kernels/packet_exp.hpp"
#include "attention/kernels/packet_transpose.hpp"
#include "attention/kernels/vector_matrix.hpp"

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wignored-attributes"

namespace cosda::kernels {

// A column of features ld apart: a token of a ring stored by column, or (ld = 1) a lone token.
template <class T>
struct Strided {
  const T* p;
  std::int64_t ld;
  T operator[](std::int64_t l) const { return p[l * ld]; }
};

// Columns of a token-per-column state, rounded up so that the kernels read whole packets of T.
template <class T>
constexpr std::int64_t padded_cols(std::int64_t n) {
  constexpr std::int64_t W = Eigen::internal::packet_traits<T>::size;
  return (n + W - 1) / W * W;
}

namespace detail {

// One head's retroactive update of R W columns, pointers at column col0 (x: dh rows of Q, y: dv
// rows of AV): dot products, exponentials and sums in registers, then every row of y, reading x
// and y once; as ops::retro_update_cols. Masked: only columns below n other than skip are written.
template <class P, int R, bool Masked, class T>
inline void retro_cols_block(std::int64_t col0, std::int64_t n, std::int64_t skip, std::int64_t dh,
                             const T* x, std::int64_t ldx, Strided<T> ko, Strided<T> kn,
                             std::int64_t dv, Strided<T> vo, Strided<T> vn, T* eo, T* en, T* sums,
                             T* y, std::int64_t ldy, bool shifted, T c) {
  using namespace Eigen::internal;
  constexpr int W = unpacket_traits<P>::size;
  P ao[R], an[R], keep[R];
  if constexpr (Masked) {
    const P pn = pset1<P>(T(n)), pskip = pset1<P>(T(skip));
    for (int r = 0; r < R; ++r) {
      const P col = plset<P>(T(col0 + r * W));
      keep[r] = pandnot(pcmp_lt(col, pn), pcmp_eq(col, pskip));
    }
  }
  const auto put = [&](T* to, int r, const P& value) {
    if constexpr (Masked)
      pstoreu(to, pselect(keep[r], value, ploadu<P>(to)));
    else
      pstoreu(to, value);
  };
  {
    const P k0o = pset1<P>(ko[0]), k0n = pset1<P>(kn[0]);
    for (int r = 0; r < R; ++r) {
      const P xr = ploadu<P>(x + r * W);
      ao[r] = pmul(k0o, xr);
      an[r] = pmul(k0n, xr);
    }
  }
  for (std::int64_t l = 1; l < dh; ++l) {
    const T* xl = x + l * ldx;
    const P klo = pset1<P>(ko[l]), kln = pset1<P>(kn[l]);
    for (int r = 0; r < R; ++r) {
      const P xr = ploadu<P>(xl + r * W);
      ao[r] = pmadd(klo, xr, ao[r]);
      an[r] = pmadd(kln, xr, an[r]);
    }
  }
  const P pc = pset1<P>(c);
  for (int r = 0; r < R; ++r) {
    ao[r] = kernels::pexp(shifted ? psub(ao[r], pc) : ao[r]);
    an[r] = kernels::pexp(shifted ? psub(an[r], pc) : an[r]);
    put(eo + r * W, r, ao[r]);
    put(en + r * W, r, an[r]);
    put(sums + r * W, r, padd(psub(ploadu<P>(sums + r * W), ao[r]), an[r]));
  }
  for (std::int64_t l = 0; l < dv; ++l) {
    T* yl = y + l * ldy;
    const P vlo = pset1<P>(vo[l]), vln = pset1<P>(vn[l]);
    for (int r = 0; r < R; ++r) {
      const P yr = psub(ploadu<P>(yl + r * W), pmul(vlo, ao[r]));
      put(yl + r * W, r, padd(yr, pmul(vln, an[r])));
    }
  }
}

}  // namespace detail

// One head's retroactive update of columns [0, n) other than skip (retro_cols_block), four packets
// at a time, in whole packets up to column padded_cols(n) - 1; blocks with skip or padding masked.
template <class T>
inline void retro_update_cols(std::int64_t n, std::int64_t skip, std::int64_t dh, const T* x,
                              std::int64_t ldx, Strided<T> ko, Strided<T> kn, std::int64_t dv,
                              Strided<T> vo, Strided<T> vn, T* eo, T* en, T* sums, T* y,
                              std::int64_t ldy, bool shifted, T c) {
  using P = typename Eigen::internal::packet_traits<T>::type;
  constexpr std::int64_t W = Eigen::internal::unpacket_traits<P>::size;
  const std::int64_t np = padded_cols<T>(n);
  const auto block = [&]<int R, bool Masked>(std::int64_t j) {
    detail::retro_cols_block<P, R, Masked>(j, n, skip, dh, x + j, ldx, ko, kn, dv, vo, vn, eo + j,
                                           en + j, sums + j, y + j, ldy, shifted, c);
  };
  const auto blocks = [&]<int R>(std::int64_t j) {
    if (j + R * W > n || (skip >= j && skip < j + R * W))
      block.template operator()<R, true>(j);
    else
      block.template operator()<R, false>(j);
  };
  std::int64_t j = 0;
  for (; j + 4 * W <= np; j += 4 * W) blocks.template operator()<4>(j);
  if (np - j == 3 * W) blocks.template operator()<3>(j);
  if (np - j == 2 * W) blocks.template operator()<2>(j);
  if (np - j == W) blocks.template operator()<1>(j);
}

// The first count < W elements at from, other lanes zero, reading nothing beyond: a masked load.
template <class P, class T>
inline P pload_first(const T* from, std::int64_t count) {
#if defined(EIGEN_VECTORIZE_AVX512)
  if constexpr (std::is_same_v<P, Eigen::internal::Packet16f>)
    return _mm512_maskz_loadu_ps(__mmask16((1u << count) - 1), from);
  else if constexpr (std::is_same_v<P, Eigen::internal::Packet8d>)
    return _mm512_maskz_loadu_pd(__mmask8((1u << count) - 1), from);
  else
#endif
  {
    alignas(64) T buf[Eigen::internal::unpacket_traits<P>::size] = {};
    std::copy(from, from + count, buf);
    return Eigen::internal::pload<P>(buf);
  }
}

namespace detail {

// s[q * 4 + r] += x . B[r, ...) over k for the four rows r of B (ldb apart) sharing x: whole
// packets, then the last k mod W elements as one partly loaded packet.
template <class P, class T>
EIGEN_ALWAYS_INLINE void mv_four(std::int64_t kv, std::int64_t rest, const T* x, const T* b,
                                 std::int64_t ldb, P* s) {
  using namespace Eigen::internal;
  constexpr std::int64_t W = unpacket_traits<P>::size;
  const T *b0 = b, *b1 = b0 + ldb, *b2 = b1 + ldb, *b3 = b2 + ldb;
  P s0 = s[0], s1 = s[1], s2 = s[2], s3 = s[3];
  for (std::int64_t l = 0; l < kv; l += W) {
    const P xl = ploadu<P>(x + l);
    s0 = pmadd(xl, ploadu<P>(b0 + l), s0), s1 = pmadd(xl, ploadu<P>(b1 + l), s1);
    s2 = pmadd(xl, ploadu<P>(b2 + l), s2), s3 = pmadd(xl, ploadu<P>(b3 + l), s3);
  }
  if (rest > 0) {
    const P xl = pload_first<P>(x + kv, rest);
    s0 = pmadd(xl, pload_first<P>(b0 + kv, rest), s0);
    s1 = pmadd(xl, pload_first<P>(b1 + kv, rest), s1);
    s2 = pmadd(xl, pload_first<P>(b2 + kv, rest), s2);
    s3 = pmadd(xl, pload_first<P>(b3 + kv, rest), s3);
  }
  s[0] = s0, s[1] = s1, s[2] = s2, s[3] = s3;
}

}  // namespace detail

// y[f] = x_{f / dh} . B[f, 0, k) for the d rows of B (ldb apart), head i's x at x + i ldx. With dh
// a multiple of four: W rows at a time, four sharing one x, each a packet accumulator, summed by a
// transpose into one packet of W dot products. Other rows by matrix_vector, per head.
template <class T>
inline void heads_matrix_vector(std::int64_t k, std::int64_t dh, std::int64_t d, const T* x,
                                std::int64_t ldx, const T* b, std::int64_t ldb, T* y) {
  using namespace Eigen::internal;
  using P = typename packet_traits<T>::type;
  constexpr int W = unpacket_traits<P>::size;
  const std::int64_t kv = k / W * W, rest = k - kv;
  std::int64_t f = 0;
  if constexpr (W >= 4 && W % 4 == 0) {
    if (dh % 4 == 0) {
      for (; f + W <= d; f += W) {
        PacketBlock<P, W> s;
        for (int r = 0; r < W; ++r) s.packet[r] = pset1<P>(T(0));
#pragma GCC unroll 4
        for (int q = 0; q < W / 4; ++q) {
          const std::int64_t row = f + 4 * q;
          detail::mv_four<P>(kv, rest, x + row / dh * ldx, b + row * ldb, ldb, s.packet + 4 * q);
        }
        transpose_block(s);
        P sum = s.packet[0];
        for (int r = 1; r < W; ++r) sum = padd(sum, s.packet[r]);
        pstoreu(y + f, sum);
      }
    }
  }
  while (f < d) {
    const std::int64_t rows = std::min(d, (f / dh + 1) * dh) - f;
    matrix_vector(k, x + f / dh * ldx, b + f * ldb, ldb, rows, y + f);
    f += rows;
  }
}

// dst(row(t), f) = s[(f / dh) lds + t] src[f ldsrc + t] for the r tokens of a d-feature state
// stored by column, row(t) = (t - oldest) mod r: W x W tiles scaled and transposed in registers,
// src and s read in whole packets up to column padded_cols(r) - 1; leftover features one by one.
template <class T>
inline void scale_transpose_heads(std::int64_t r, std::int64_t d, std::int64_t dh, const T* src,
                                  std::int64_t ldsrc, const T* s, std::int64_t lds,
                                  std::int64_t oldest, T* dst, std::int64_t ldd) {
  using namespace Eigen::internal;
  using P = typename packet_traits<T>::type;
  constexpr std::int64_t W = unpacket_traits<P>::size;
  const auto row = [&](std::int64_t t) { return t >= oldest ? t - oldest : t - oldest + r; };
  const std::int64_t tiles = W > 1 ? d / W * W : 0;  // features in whole tiles
  if constexpr (W > 1) {
    for (std::int64_t t0 = 0; t0 < r; t0 += W) {  // a run of W tokens' rows of dst at a time
      const std::int64_t tokens = std::min(W, r - t0);
      std::int64_t head = 0, in_head = 0;  // feature f0 + k is feature in_head of head
      for (std::int64_t f0 = 0; f0 < tiles; f0 += W) {
        const T* scale[W];  // each feature's row of scales
        for (std::int64_t k = 0; k < W; ++k) {
          scale[k] = s + head * lds + t0;
          if (++in_head == dh) in_head = 0, ++head;
        }
        PacketBlock<P, W> b;  // unrolled, so that the tile stays in registers
#pragma GCC unroll 16
        for (std::int64_t k = 0; k < W; ++k)
          b.packet[k] = pmul(ploadu<P>(src + (f0 + k) * ldsrc + t0), ploadu<P>(scale[k]));
        transpose_block(b);
        for (std::int64_t k = 0; k < tokens; ++k)
          pstoreu(dst + row(t0 + k) * ldd + f0, b.packet[k]);
      }
    }
  }
  for (std::int64_t f = tiles; f < d; ++f)
    for (std::int64_t t = 0; t < r; ++t)
      dst[row(t) * ldd + f] = src[f * ldsrc + t] * s[(f / dh) * lds + t];
}

}  // namespace cosda::kernels

#pragma GCC diagnostic pop
