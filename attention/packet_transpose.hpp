// A W x W block of packets transposed in registers (W: the packet's width). With AVX-512 the
// 16 x 16 floats and 8 x 8 doubles take the fewest shuffles there are: two in-lane stages and
// two stages across 128-bit lanes, 64 and 24 shuffles. Eigen's ptranspose of the same blocks
// goes through 256-bit halves (extracts, permutes, inserts: about half as many again);
// timings in docs/performance.md. Other packets: Eigen's ptranspose.
#pragma once

#include <Eigen/Core>
#include <type_traits>

// Packet types are template arguments here, as in vector_matrix.hpp: GCC warns that their
// vector attributes are not part of the argument, which does not matter for them.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wignored-attributes"

namespace cosda::kernels {

namespace detail {

#if defined(EIGEN_VECTORIZE_AVX512)
// out[4L + e] lane g = s[4g + e] lane L, for the four e: the 4 x 4 transpose of 128-bit lanes
// that ends both blocks' transposes (s: 16 packets, 4 groups of 4).
template <class V, class Shuffle>
EIGEN_ALWAYS_INLINE void transpose_lanes(V (&s)[16], V (&out)[16], Shuffle shuffle) {
#pragma GCC unroll 4
  for (int e = 0; e < 4; ++e) {
    const V u0 = shuffle.template operator()<0x44>(s[e], s[4 + e]);
    const V u1 = shuffle.template operator()<0xEE>(s[e], s[4 + e]);
    const V u2 = shuffle.template operator()<0x44>(s[8 + e], s[12 + e]);
    const V u3 = shuffle.template operator()<0xEE>(s[8 + e], s[12 + e]);
    out[e] = shuffle.template operator()<0x88>(u0, u2);
    out[4 + e] = shuffle.template operator()<0xDD>(u0, u2);
    out[8 + e] = shuffle.template operator()<0x88>(u1, u3);
    out[12 + e] = shuffle.template operator()<0xDD>(u1, u3);
  }
}
#endif

}  // namespace detail

template <class P, int W>
EIGEN_ALWAYS_INLINE void transpose_block(Eigen::internal::PacketBlock<P, W>& b) {
#if defined(EIGEN_VECTORIZE_AVX512)
  if constexpr (std::is_same_v<P, Eigen::internal::Packet16f> && W == 16) {
    __m512 t[16], s[16];
#pragma GCC unroll 8
    for (int i = 0; i < 8; ++i) {  // lane L of t[2i]: rows 2i, 2i+1 at columns 4L, 4L + 1
      t[2 * i] = _mm512_unpacklo_ps(b.packet[2 * i], b.packet[2 * i + 1]);
      t[2 * i + 1] = _mm512_unpackhi_ps(b.packet[2 * i], b.packet[2 * i + 1]);
    }
#pragma GCC unroll 4
    for (int g = 0; g < 4; ++g) {  // lane L of s[4g + e]: rows 4g to 4g + 3 at column 4L + e
      s[4 * g] = _mm512_shuffle_ps(t[4 * g], t[4 * g + 2], 0x44);
      s[4 * g + 1] = _mm512_shuffle_ps(t[4 * g], t[4 * g + 2], 0xEE);
      s[4 * g + 2] = _mm512_shuffle_ps(t[4 * g + 1], t[4 * g + 3], 0x44);
      s[4 * g + 3] = _mm512_shuffle_ps(t[4 * g + 1], t[4 * g + 3], 0xEE);
    }
    detail::transpose_lanes(
        s, b.packet, []<int M>(__m512 x, __m512 y) { return _mm512_shuffle_f32x4(x, y, M); });
    return;
  } else if constexpr (std::is_same_v<P, Eigen::internal::Packet8d> && W == 8) {
    __m512d t[8], out[8];
#pragma GCC unroll 4
    for (int i = 0; i < 4; ++i) {  // lane L of t[2i + e]: rows 2i, 2i+1 at column 2L + e
      t[2 * i] = _mm512_unpacklo_pd(b.packet[2 * i], b.packet[2 * i + 1]);
      t[2 * i + 1] = _mm512_unpackhi_pd(b.packet[2 * i], b.packet[2 * i + 1]);
    }
    // out[2L + e] lane i = t[2i + e] lane L: the lane transpose over e in {0, 1} only.
#pragma GCC unroll 2
    for (int e = 0; e < 2; ++e) {
      const __m512d u0 = _mm512_shuffle_f64x2(t[e], t[2 + e], 0x44);
      const __m512d u1 = _mm512_shuffle_f64x2(t[e], t[2 + e], 0xEE);
      const __m512d u2 = _mm512_shuffle_f64x2(t[4 + e], t[6 + e], 0x44);
      const __m512d u3 = _mm512_shuffle_f64x2(t[4 + e], t[6 + e], 0xEE);
      out[e] = _mm512_shuffle_f64x2(u0, u2, 0x88);
      out[2 + e] = _mm512_shuffle_f64x2(u0, u2, 0xDD);
      out[4 + e] = _mm512_shuffle_f64x2(u1, u3, 0x88);
      out[6 + e] = _mm512_shuffle_f64x2(u1, u3, 0xDD);
    }
#pragma GCC unroll 8
    for (int i = 0; i < 8; ++i) b.packet[i] = out[i];
    return;
  }
#endif
  Eigen::internal::ptranspose(b);
}

}  // namespace cosda::kernels

#pragma GCC diagnostic pop
