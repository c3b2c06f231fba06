// Kernels of the head-batched seam ops on states stored a token per column
// (attention/ops_heads.hpp: heads_retro_update_cols, heads_scale_rows_into): head i's
// features are rows [i dh, (i+1) dh) of a d x n state, and the loops run along the tokens in
// whole packets over columns padded to whole packets (padded_cols).
#pragma once

#include <Eigen/Core>
#include <algorithm>
#include <cstdint>

#include "attention/packet_exp.hpp"

// Packet types are template arguments here, as in vector_matrix.hpp: GCC warns that their
// vector attributes are not part of the argument, which does not matter for them.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wignored-attributes"

namespace cosda::kernels {

// A column of features, elements ld apart: a token of a ring stored a token per column, or
// (ld = 1) a token as it arrives.
template <class T>
struct Strided {
  const T* p;
  std::int64_t ld;
  T operator[](std::int64_t l) const { return p[l * ld]; }
};

// Columns of a state stored a token per column rounded up to whole packets of T: the width
// that lets the kernels below read every token in whole packets.
template <class T>
constexpr std::int64_t padded_cols(std::int64_t n) {
  constexpr std::int64_t W = Eigen::internal::packet_traits<T>::size;
  return (n + W - 1) / W * W;
}

namespace detail {

// The retroactive update of one head's rows R W columns at a time, packets of type P, on a
// state stored a token per column (x: dh rows of Q, y: dv rows of AV, rows ldx and ldy
// apart; every pointer at the block's first column, col0): the two dot products accumulate
// in registers over the dh rows, are exponentiated there, update the sums and then every row
// of y, so each element of x and y is read once. The same operations per element as
// ops::retro_update_cols. Masked: only the columns below n other than skip are written (the
// others' lanes are computed and dropped).
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

// One head's retroactive update of the columns [0, n) other than skip of a state stored a
// token per column (see detail::retro_cols_block): x, y, eo, en and sums are read in whole
// packets up to column padded_cols(n) - 1, four packets at a time; the blocks holding skip or
// the padding are masked.
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

// dst(row(t), f) = s[(f / dh) lds + t] src[f ldsrc + t] for the r tokens t of a state of d
// features stored a token per column (src rows ldsrc apart, s: a row of scales per head, lds
// apart), row(t) = (t - oldest) mod r; dst rows ldd apart. Tiles of W features by W tokens,
// scaled in registers and transposed there, W tokens' rows of dst written whole at a time; src and
// s are read in whole packets up to column padded_cols(r) - 1. Features beyond the last whole tile
// one by one.
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
        ptranspose(b);
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
