// Row kernels of the retroactive update (ops::retro_update): two dot products of a row and
// y <- y - a x + b z, in whole unaligned packets from a row's start and only the last length mod W
// elements as scalars (Eigen peels to alignment). A dot product's order is its own (packets, tail).
#pragma once

#include <Eigen/Core>
#include <cstdint>

namespace cosda::kernels {

// (x . a, x . b) over n elements: two accumulators per product over pairs of packets, so that
// long rows (Table IV: 1024) do not wait on one chain of multiply-adds.
template <class T>
inline void dot2(const T* x, const T* a, const T* b, std::int64_t n, T* xa, T* xb) {
  using namespace Eigen::internal;
  using P = typename packet_traits<T>::type;
  constexpr std::int64_t W = packet_traits<T>::size;
  const std::int64_t nv = n / W * W, n2 = n / (2 * W) * (2 * W);
  P sa = pset1<P>(T(0)), sb = sa, ta = sa, tb = sa;
  std::int64_t j = 0;
  for (; j < n2; j += 2 * W) {
    const P x0 = ploadu<P>(x + j), x1 = ploadu<P>(x + j + W);
    sa = pmadd(x0, ploadu<P>(a + j), sa);
    sb = pmadd(x0, ploadu<P>(b + j), sb);
    ta = pmadd(x1, ploadu<P>(a + j + W), ta);
    tb = pmadd(x1, ploadu<P>(b + j + W), tb);
  }
  if (j < nv) {
    const P x0 = ploadu<P>(x + j);
    sa = pmadd(x0, ploadu<P>(a + j), sa);
    sb = pmadd(x0, ploadu<P>(b + j), sb);
  }
  T ra = predux(padd(sa, ta)), rb = predux(padd(sb, tb));
  for (j = nv; j < n; ++j) {
    ra += x[j] * a[j];
    rb += x[j] * b[j];
  }
  *xa = ra;
  *xb = rb;
}

// y <- y - a x + b z over n elements.
template <class T>
inline void sub_add_scaled(T* y, T a, const T* x, T b, const T* z, std::int64_t n) {
  using namespace Eigen::internal;
  using P = typename packet_traits<T>::type;
  constexpr std::int64_t W = packet_traits<T>::size;
  const std::int64_t nv = n / W * W;
  const P pa = pset1<P>(a), pb = pset1<P>(b);
  for (std::int64_t j = 0; j < nv; j += W) {
    const P yj = psub(ploadu<P>(y + j), pmul(pa, ploadu<P>(x + j)));
    pstoreu(y + j, padd(yj, pmul(pb, ploadu<P>(z + j))));
  }
  for (std::int64_t j = nv; j < n; ++j) y[j] = y[j] - a * x[j] + b * z[j];
}

}  // namespace cosda::kernels
