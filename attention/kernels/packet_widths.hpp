// The packet widths of the kernels for short rows (a head's 12 floats at Table III, shorter
// than a packet of 16): Eigen's packet of T, then its half and quarter packets.
#pragma once

#include <Eigen/Core>
#include <cstdint>

// Packet types are template arguments here, as in vector_matrix.hpp: GCC warns that their
// vector attributes are not part of the argument, which does not matter for them.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wignored-attributes"

namespace cosda::kernels {

// j = step.template operator()<X>(j) for X = T's packet, then its half and quarter packets
// where they are narrower: each call takes the first element left and returns the next one
// left. Returns the first element no packet took.
template <class T, class Step>
inline std::int64_t packet_cascade(std::int64_t j, Step&& step) {
  using namespace Eigen::internal;
  using P = typename packet_traits<T>::type;
  using H = typename unpacket_traits<P>::half;
  using Q = typename unpacket_traits<H>::half;
  constexpr std::int64_t W = unpacket_traits<P>::size, WH = unpacket_traits<H>::size,
                         WQ = unpacket_traits<Q>::size;
  j = step.template operator()<P>(j);
  if constexpr (WH < W) {
    j = step.template operator()<H>(j);
    if constexpr (WQ < WH) j = step.template operator()<Q>(j);
  }
  return j;
}

// packet.template operator()<X>(j) on [0, n) in whole packets X of the cascade above (every
// whole packet, then at most one half and one quarter packet), then scalar(j) on each element
// left: the loop of the element-wise kernels on rows of any length. Always inlined, with the
// operations' scalars captured by value: called, its stores could alias them and would reload
// and broadcast them for every packet.
template <class T, class PacketOp, class ScalarOp>
EIGEN_ALWAYS_INLINE void for_each_packet(std::int64_t n, PacketOp&& packet, ScalarOp&& scalar) {
  std::int64_t j = packet_cascade<T>(0, [&]<class X>(std::int64_t at) {
    constexpr std::int64_t W = Eigen::internal::unpacket_traits<X>::size;
    for (; at + W <= n; at += W) packet.template operator()<X>(at);
    return at;
  });
  for (; j < n; ++j) scalar(j);
}

}  // namespace cosda::kernels

#pragma GCC diagnostic pop
