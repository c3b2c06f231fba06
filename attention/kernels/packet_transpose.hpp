// A W x W block of packets transposed in registers. AVX-512: 16 x 16 floats in four shuffle stages,
// 8 x 8 doubles in three, fewer than Eigen's ptranspose (docs/performance.md); else Eigen's.
#pragma once

#include <Eigen/Core>
#include <type_traits>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wignored-attributes"

namespace cosda::kernels {

#if defined(EIGEN_VECTORIZE_AVX512)
namespace detail {

template <int M, class V>
EIGEN_ALWAYS_INLINE V shuffle_lanes(V x, V y) {  // 128-bit lanes of x, then of y, picked by M
  if constexpr (std::is_same_v<V, __m512d>)
    return _mm512_shuffle_f64x2(x, y, M);
  else
    return _mm512_shuffle_f32x4(x, y, M);
}

// The last stages of both blocks: lane g of out[L k] = lane L of x[g], the 4 x 4 transpose of
// the 128-bit lanes of four packets.
template <class V>
EIGEN_ALWAYS_INLINE void transpose_lanes(V x0, V x1, V x2, V x3, V* out, int k) {
  const V u0 = shuffle_lanes<0x44>(x0, x1), u1 = shuffle_lanes<0xEE>(x0, x1);
  const V u2 = shuffle_lanes<0x44>(x2, x3), u3 = shuffle_lanes<0xEE>(x2, x3);
  out[0] = shuffle_lanes<0x88>(u0, u2), out[k] = shuffle_lanes<0xDD>(u0, u2);
  out[2 * k] = shuffle_lanes<0x88>(u1, u3), out[3 * k] = shuffle_lanes<0xDD>(u1, u3);
}

}  // namespace detail
#endif

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
#pragma GCC unroll 4
    for (int e = 0; e < 4; ++e)  // packet 4L + e, lane g: s[4g + e] lane L
      detail::transpose_lanes(s[e], s[4 + e], s[8 + e], s[12 + e], b.packet + e, 4);
    return;
  } else if constexpr (std::is_same_v<P, Eigen::internal::Packet8d> && W == 8) {
    __m512d t[8];
#pragma GCC unroll 4
    for (int i = 0; i < 4; ++i) {  // lane L of t[2i + e]: rows 2i, 2i+1 at column 2L + e
      t[2 * i] = _mm512_unpacklo_pd(b.packet[2 * i], b.packet[2 * i + 1]);
      t[2 * i + 1] = _mm512_unpackhi_pd(b.packet[2 * i], b.packet[2 * i + 1]);
    }
#pragma GCC unroll 2
    for (int e = 0; e < 2; ++e)  // packet 2L + e, lane i: t[2i + e] lane L
      detail::transpose_lanes(t[e], t[2 + e], t[4 + e], t[6 + e], b.packet + e, 2);
    return;
  }
#endif
  Eigen::internal::ptranspose(b);
}

}  // namespace cosda::kernels

#pragma GCC diagnostic pop
