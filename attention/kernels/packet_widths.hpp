// Packet widths for short rows (a head's 12 floats, Table III): T's packet, its half and quarter.
#pragma once

#include <Eigen/Core>
#include <cstdint>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wignored-attributes"

namespace cosda::kernels {

// j = step.template operator()<X>(j) for X = T's packet, then its narrower half and quarter
// packets; each call returns the first element left, as does the cascade.
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

// packet.template operator()<X>(j) on [0, n) in whole packets of the cascade, then scalar(j) on the
// rest. Inlined, scalars by value: else stores could alias them, forcing a reload per packet.
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
