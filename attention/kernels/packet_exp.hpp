// The timed build's packet exponential: a polynomial and one exponent-field scaling, in place of
// Eigen 3.4's pexp (a division for double, a four-factor ldexp). At most 2 ulp from libm over the
// whole range (tests/kernels_test.cpp), with libm's inf and 0 at the ends.
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

// Per instruction set with FMA (the reductions rely on k ln2 rounding once): exponent_field(t) =
// 2^k for t = k + 1.5 * 2^52 + 1023 (float: k + 1.5 * 2^23 + 127), k a normal exponent, by a
// shift of t's low bits into the exponent; all_within(x, a): |x| <= a in every lane (NaN: false).
#if defined(__AVX512F__)
inline __m512 exponent_field(__m512 t) {
  return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_castps_si512(t), 23));
}
inline bool all_within(__m512 x, float a) {
  return _mm512_cmp_ps_mask(_mm512_abs_ps(x), _mm512_set1_ps(a), _CMP_LE_OQ) == 0xffff;
}
inline __m512d exponent_field(__m512d t) {
  return _mm512_castsi512_pd(_mm512_slli_epi64(_mm512_castpd_si512(t), 52));
}
inline bool all_within(__m512d x, double a) {
  return _mm512_cmp_pd_mask(_mm512_abs_pd(x), _mm512_set1_pd(a), _CMP_LE_OQ) == 0xff;
}
#endif
#if defined(__AVX2__) && defined(__FMA__)
inline __m256 exponent_field(__m256 t) {
  return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_castps_si256(t), 23));
}
inline bool all_within(__m256 x, float a) {
  const __m256 abs = _mm256_andnot_ps(_mm256_set1_ps(-0.0f), x);
  return _mm256_movemask_ps(_mm256_cmp_ps(abs, _mm256_set1_ps(a), _CMP_LE_OQ)) == 0xff;
}
inline __m256d exponent_field(__m256d t) {
  return _mm256_castsi256_pd(_mm256_slli_epi64(_mm256_castpd_si256(t), 52));
}
inline bool all_within(__m256d x, double a) {
  const __m256d abs = _mm256_andnot_pd(_mm256_set1_pd(-0.0), x);
  return _mm256_movemask_pd(_mm256_cmp_pd(abs, _mm256_set1_pd(a), _CMP_LE_OQ)) == 0xf;
}
#endif
#if defined(__SSE2__) && defined(__FMA__)
inline __m128 exponent_field(__m128 t) {
  return _mm_castsi128_ps(_mm_slli_epi32(_mm_castps_si128(t), 23));
}
inline bool all_within(__m128 x, float a) {
  const __m128 abs = _mm_andnot_ps(_mm_set1_ps(-0.0f), x);
  return _mm_movemask_ps(_mm_cmple_ps(abs, _mm_set1_ps(a))) == 0xf;
}
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

// x = k ln2 + r, k = round(x / ln2) by adding shifter = 1.5 * 2^(mantissa bits), ln2 = ln2_hi +
// ln2_lo. Fast path: all |x| <= fast (2^k normal); clamped: x in [lo, hi] (beyond: exp 0 or inf).
template <class T>
struct ExpFormat;
template <>
struct ExpFormat<double> {
  static constexpr double log2e = 0x1.71547652b82fep0, shifter = 0x1.8p52, bias = 1023.0,
                          ln2_hi = 0x1.62e42fefa39efp-1, ln2_lo = 0x1.abc9e3b39803fp-56,
                          fast = 708.0, lo = -746.0, hi = 710.0;
};
template <>
struct ExpFormat<float> {
  static constexpr float log2e = 0x1.715476p0f, shifter = 0x1.8p23f, bias = 127.0f,
                         ln2_hi = 0x1.62e430p-1f, ln2_lo = -0x1.05c610p-29f, fast = 87.0f,
                         lo = -104.0f, hi = 89.0f;
};

// exp(r) for |r| <= ln2 / 2 as 1 + r + r^2 q(r), q a Chebyshev fit of (exp(r) - 1 - r) / r^2:
// degree 9 in double (relative error 1.6e-17), degree 4 in float (1.1e-8).
template <class P>
EIGEN_ALWAYS_INLINE P exp_reduced(const P& r) {
  using namespace Eigen::internal;
  if constexpr (std::is_same_v<typename unpacket_traits<P>::type, double>) {
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
  } else {
    P q = pmadd(pset1<P>(0x1.6d431ap-10f), r, pset1<P>(0x1.120b66p-7f));
    q = pmadd(q, r, pset1<P>(0x1.5554eap-5f));
    q = pmadd(q, r, pset1<P>(0x1.5554dcp-3f));
    q = pmadd(q, r, pset1<P>(0.5f));
    return pmadd(pmul(q, r), r, padd(r, pset1<P>(1.0f)));
  }
}

// exp(r) of r = x - k ln2, in two FMA steps of the split ln2.
template <class P, class F = ExpFormat<typename Eigen::internal::unpacket_traits<P>::type>>
EIGEN_ALWAYS_INLINE P exp_minus_k_ln2(const P& x, const P& k) {
  using namespace Eigen::internal;
  return exp_reduced(pmadd(k, pset1<P>(-F::ln2_lo), pmadd(k, pset1<P>(-F::ln2_hi), x)));
}

// exp(x) where some |x| > fast (or NaN): x clamped to [lo, hi], 2^k applied as two factors so that
// subnormals and overflow round once, as libm's. Out of line, so the fast path inlines.
template <class P, class F = ExpFormat<typename Eigen::internal::unpacket_traits<P>::type>>
[[gnu::noinline, gnu::cold]] P pexp_ends(const P& x) {
  using namespace Eigen::internal;
  const P shifter = pset1<P>(F::shifter), biased = pset1<P>(F::shifter + F::bias);
  // NaN passes both clamps (Eigen's pmin and pmax return their first argument on NaN).
  const P xc = pmin(pmax(x, pset1<P>(F::lo)), pset1<P>(F::hi));
  const P k = psub(pmadd(xc, pset1<P>(F::log2e), shifter), shifter);
  const P k1 = pfloor(pmul(k, pset1<P>(0.5))), k2 = psub(k, k1);
  return pmul(pmul(exp_minus_k_ln2(xc, k), exponent_field(padd(k1, biased))),
              exponent_field(padd(k2, biased)));
}

// exp(x) for a packet: where every |x| <= fast, t = x / ln2 + shifter + bias, rounded to an
// integer by the add, holds k + bias in its low bits, and 2^k is one shift of t.
template <class P, class F = ExpFormat<typename Eigen::internal::unpacket_traits<P>::type>>
EIGEN_ALWAYS_INLINE P pexp_poly(const P& x) {
  using namespace Eigen::internal;
  if (!all_within(x, F::fast)) [[unlikely]]
    return pexp_ends(x);
  const P biased = pset1<P>(F::shifter + F::bias);
  const P t = pmadd(x, pset1<P>(F::log2e), biased);
  return pmul(exp_minus_k_ln2(x, psub(t, biased)), exponent_field(t));
}

}  // namespace detail

// exp of a packet: the polynomial where the instruction set has the shifts, else Eigen's pexp.
template <class P>
EIGEN_ALWAYS_INLINE P pexp(const P& x) {
  if constexpr (detail::HasExponentField<P>)
    return detail::pexp_poly(x);
  else
    return Eigen::internal::pexp(x);
}

// The timed build's exponential functor for Eigen: std::exp on scalars, pexp on packets.
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
