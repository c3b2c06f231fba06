// The timed build's packet exponential: Eigen's pexp for float, a polynomial one for double.
// Eigen 3.4's pexp<Packet8d> takes a rational approximation (a division) and a four-factor
// ldexp; this one takes a degree-11 polynomial and one exponent-field scaling, at most 2 ulp
// from libm over the whole range (tests/kernels_test.cpp), inf above ln(max) and 0 below the
// smallest subnormal as libm. Timings: docs/performance.md.
#pragma once

#include <Eigen/Core>
#include <cmath>
#include <type_traits>
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wignored-attributes"

namespace cosda::kernels {

namespace detail {

// Per instruction set: exponent_field(t) = 2^k for t = k + 1.5 * 2^52 + 1023 with k an integer
// in [-1022, 1023] (t's low bits are k + 1023, which a left shift by 52 moves into the exponent
// field); all_within(x, a): |x| <= a in every lane (false for NaN). Only with FMA: the
// reduction below relies on k ln2 rounding once.
#if defined(__AVX512F__)
inline __m512d exponent_field(__m512d t) {
  return _mm512_castsi512_pd(_mm512_slli_epi64(_mm512_castpd_si512(t), 52));
}
inline bool all_within(__m512d x, double a) {
  return _mm512_cmp_pd_mask(_mm512_abs_pd(x), _mm512_set1_pd(a), _CMP_LE_OQ) == 0xff;
}
#endif
#if defined(__AVX2__) && defined(__FMA__)
inline __m256d exponent_field(__m256d t) {
  return _mm256_castsi256_pd(_mm256_slli_epi64(_mm256_castpd_si256(t), 52));
}
inline bool all_within(__m256d x, double a) {
  const __m256d abs = _mm256_andnot_pd(_mm256_set1_pd(-0.0), x);
  return _mm256_movemask_pd(_mm256_cmp_pd(abs, _mm256_set1_pd(a), _CMP_LE_OQ)) == 0xf;
}
#endif
#if defined(__SSE2__) && defined(__FMA__)
inline __m128d exponent_field(__m128d t) {
  return _mm_castsi128_pd(_mm_slli_epi64(_mm_castpd_si128(t), 52));
}
inline bool all_within(__m128d x, double a) {
  const __m128d abs = _mm_andnot_pd(_mm_set1_pd(-0.0), x);
  return _mm_movemask_pd(_mm_cmple_pd(abs, _mm_set1_pd(a))) == 0x3;
}
#endif

template <class P>
concept HasExponentField = requires(P p) {
  {exponent_field(p)};
  {all_within(p, 1.0)};
};

// exp(r) for |r| <= ln2 / 2 as 1 + r + r^2 q(r), q of degree 9 near-minimax (Chebyshev fit of
// (exp(r) - 1 - r) / r^2; relative error 1.6e-17 with these double coefficients).
template <class P>
inline P exp_reduced(const P& r) {
  using namespace Eigen::internal;
  P q = pmadd(pset1<P>(0x1.af38a9b0ec855p-26), r, pset1<P>(0x1.289185613a3d6p-22));
  q = pmadd(q, r, pset1<P>(0x1.71de0dae63bb3p-19));
  q = pmadd(q, r, pset1<P>(0x1.a019b90d2ae7ap-16));
  q = pmadd(q, r, pset1<P>(0x1.a01a01a7c41d5p-13));
  q = pmadd(q, r, pset1<P>(0x1.6c16c1788bd90p-10));
  q = pmadd(q, r, pset1<P>(0x1.11111111109b3p-7));
  q = pmadd(q, r, pset1<P>(0x1.5555555553d63p-5));
  q = pmadd(q, r, pset1<P>(0x1.5555555555556p-3));
  q = pmadd(q, r, pset1<P>(0x1.0000000000001p-1));
  const P one = pset1<P>(1.0);
  return pmadd(pmadd(q, r, one), r, one);
}

// x - k ln2 in two FMA steps of a split ln2.
template <class P>
inline P reduce(const P& x, const P& k) {
  using namespace Eigen::internal;
  const P r = pmadd(k, pset1<P>(-0x1.62e42fefa39efp-1), x);
  return pmadd(k, pset1<P>(-0x1.abc9e3b39803fp-56), r);
}

// exp(x) for a packet of doubles: x = k ln2 + r, k by round-to-nearest through the 1.5 * 2^52
// shift, exp(r) above, scaled by 2^k. Where some |x| > 708 (or NaN), x is clamped to
// [-746, 710] and the scale split into 2^floor(k/2) 2^(k - floor(k/2)), so that subnormal
// results and overflow to inf round once, as libm's.
template <class P>
inline P pexp_double(const P& x) {
  using namespace Eigen::internal;
  const P log2e = pset1<P>(0x1.71547652b82fep0), shifter = pset1<P>(0x1.8p52),
          biased = pset1<P>(0x1.8p52 + 1023.0);
  if (all_within(x, 708.0)) {
    const P t = pmadd(x, log2e, biased);  // k + 1.5 * 2^52 + 1023, k = round(x / ln2)
    return pmul(exp_reduced(reduce(x, psub(t, biased))), exponent_field(t));
  }
  // NaN passes both clamps (Eigen's pmin and pmax return their first argument on NaN).
  const P xc = pmin(pmax(x, pset1<P>(-746.0)), pset1<P>(710.0));
  const P k = psub(pmadd(xc, log2e, shifter), shifter);
  const P k1 = pfloor(pmul(k, pset1<P>(0.5))), k2 = psub(k, k1);
  const P p = exp_reduced(reduce(xc, k));
  return pmul(pmul(p, exponent_field(padd(k1, biased))), exponent_field(padd(k2, biased)));
}

}  // namespace detail

// exp of a packet: the polynomial above for double packets of the instruction sets it has
// shifts for, Eigen's pexp otherwise.
template <class P>
EIGEN_ALWAYS_INLINE P pexp(const P& x) {
  using T = typename Eigen::internal::unpacket_traits<P>::type;
  if constexpr (std::is_same_v<T, double> && detail::HasExponentField<P>)
    return detail::pexp_double(x);
  else
    return Eigen::internal::pexp(x);
}

// The functor of Eigen expressions' exponentials in the timed build (x.unaryExpr(Exp<T>())
// for x.exp()): std::exp on scalars, pexp above on packets.
template <class T>
struct Exp {
  T operator()(const T& a) const { return std::exp(a); }
  template <class P>
  P packetOp(const P& a) const {
    return kernels::pexp(a);
  }
};

// exp of an Eigen array expression through Exp: exp_of(x.array()) for x.array().exp().
template <class D>
auto exp_of(const Eigen::ArrayBase<D>& x) {
  return x.unaryExpr(Exp<typename D::Scalar>());
}

}  // namespace cosda::kernels

namespace Eigen::internal {
template <class T>
struct functor_traits<cosda::kernels::Exp<T>> {
  enum { Cost = functor_traits<scalar_exp_op<T>>::Cost, PacketAccess = packet_traits<T>::HasExp };
};
}  // namespace Eigen::internal

#pragma GCC diagnostic pop
