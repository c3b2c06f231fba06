// The seam's element-wise ops (attention/ops/seam.hpp): copies, exponentials, sums, dot products,
// scalings and additions on vectors, and the whole-model ops of the encoder.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "attention/kernels/elementwise.hpp"
#include "attention/kernels/packet_exp.hpp"
#include "attention/ops/core.hpp"

namespace cosda::ops {

// dst = [first, last) and dst = src (same shape). No arithmetic: they move tokens into the state.
template <class E>
void copy(const S<E>* first, const S<E>* last, S<E>* dst) {
  begin_op<E>(), in<E>(first, last - first), out<E>(dst, last - first);
  if (skip_arithmetic<E>()) return;
  std::copy(first, last, dst);
}
template <class E>
void copy(MatCRef<S<E>> src, MatRef<S<E>> dst) {
  begin_op<E>(), in<E>(src), out<E>(dst);
  if (skip_arithmetic<E>()) return;
  dst = src;
}

// Column j of dst = [x, x + dst.rows()): a token into a ring stored transposed. No arithmetic.
template <class E>
void copy_to_column(const S<E>* x, MatRef<S<E>> dst, std::int64_t j) {
  begin_op<E>(), in<E>(x, dst.rows()), out<E>(dst.col(j));
  if (skip_arithmetic<E>()) return;
  for (std::int64_t i = 0; i < dst.rows(); ++i) dst(i, j) = x[i];
}

// x <- exp(x).  exp n.
template <class E>
void exp_inplace(S<E>* x, std::int64_t n) {
  begin_op<E>(), inout<E>(x, n);
  if (tally_skip<E>({.exp = n})) return;
  if constexpr (kScalarLevel<E>) {
    for (std::int64_t i = 0; i < n; ++i) x[i] = exp(x[i]);
  } else {
    kernels::exp_array(x, n, false, S<E>(0));
  }
}
// A contiguous matrix (rows of m = 4 landmark scores) in one op and pass; others an op per row.
template <class E>
void exp_inplace(MatRef<S<E>> x) {
  if (x.outerStride() == x.cols()) return exp_inplace<E>(x.data(), x.size());
  for (std::int64_t i = 0; i < x.rows(); ++i) exp_inplace<E>(&x(i, 0), x.cols());
}

// x <- exp(x - c) when the shift is on: add n, exp n. Off: exp_inplace (exp n).
template <class E>
void exp_inplace(S<E>* x, std::int64_t n, const Shift<S<E>>& s) {
  begin_op<E>(), inout<E>(x, n);
  if (!s.on) return exp_inplace<E>(x, n);
  if (tally_skip<E>({.add = n, .exp = n})) return;
  if constexpr (kScalarLevel<E>) {
    for (std::int64_t i = 0; i < n; ++i) x[i] = exp(x[i] - s.c);
  } else {
    kernels::exp_array(x, n, true, s.c);
  }
}
template <class E>
void exp_inplace(MatRef<S<E>> x, const Shift<S<E>>& s) {
  if (x.outerStride() == x.cols()) return exp_inplace<E>(x.data(), x.size(), s);
  for (std::int64_t i = 0; i < x.rows(); ++i) exp_inplace<E>(&x(i, 0), x.cols(), s);
}

// sum of x.  add n-1.
template <class E>
S<E> sum(const S<E>* x, std::int64_t n) {
  begin_op<E>(), in<E>(x, n);
  if (tally_skip<E>({.add = n - 1})) return S<E>(0);
  if constexpr (kScalarLevel<E>) {
    S<E> acc = x[0];
    for (std::int64_t i = 1; i < n; ++i) acc += x[i];
    return acc;
  } else {
    return kernels::sum(x, n);
  }
}

// max of x (the random-feature queries' stabiliser).  other n-1 (one comparison each).
template <class E>
S<E> max_value(const S<E>* x, std::int64_t n) {
  begin_op<E>(), in<E>(x, n);
  if (tally_skip<E>({.other = n - 1})) return S<E>(0);
  if constexpr (kScalarLevel<E>) {
    S<E> best = x[0];
    for (std::int64_t i = 1; i < n; ++i) best = max(best, x[i]);
    return best;
  } else {
    return VecCMap<S<E>>(x, n).maxCoeff();
  }
}

// a . b.  mul n, add n-1.
template <class E>
S<E> dot(const S<E>* a, const S<E>* b, std::int64_t n) {
  begin_op<E>(), in<E>(a, n), in<E>(b, n);
  if (tally_skip<E>({.mul = n, .add = n - 1})) return S<E>(0);
  if constexpr (kScalarLevel<E>) {
    S<E> acc = a[0] * b[0];
    for (std::int64_t i = 1; i < n; ++i) acc += a[i] * b[i];
    return acc;
  } else {
    return VecCMap<S<E>>(a, n).dot(VecCMap<S<E>>(b, n));
  }
}

// 1 / a.  div 1.
template <class E>
S<E> reciprocal(S<E> a) {
  if constexpr (kScalarLevel<E>) {
    return S<E>(1.0) / a;
  } else {
    E::tally({.div = 1});
    return S<E>(1) / a;
  }
}

// y_i = 1 / x_i.  div n.
template <class E>
void reciprocals(const S<E>* x, S<E>* y, std::int64_t n) {
  begin_op<E>(), in<E>(x, n), out<E>(y, n);
  if (skip_arithmetic<E>()) return tally<E>({.div = n});  // the count of the loop below
  const OneOp<E> one;
  for (std::int64_t i = 0; i < n; ++i) y[i] = reciprocal<E>(x[i]);
}

// *dst = a: a scalar result stored into a buffer.  No arithmetic.
template <class E>
void store(S<E> a, S<E>* dst) {
  begin_op<E>(), out<E>(dst, 1);
  if (skip_arithmetic<E>()) return;
  *dst = a;
}

// x <- a x.  mul n.
template <class E>
void scale(S<E>* x, std::int64_t n, S<E> a) {
  begin_op<E>(), inout<E>(x, n);
  if (tally_skip<E>({.mul = n})) return;
  if constexpr (kScalarLevel<E>) {
    for (std::int64_t i = 0; i < n; ++i) x[i] *= a;
  } else {
    kernels::scaled_copy(x, a, x, n);
  }
}

// x <- x / a.  div n.
template <class E>
void divide(S<E>* x, std::int64_t n, S<E> a) {
  begin_op<E>(), inout<E>(x, n);
  if (tally_skip<E>({.div = n})) return;
  if constexpr (kScalarLevel<E>) {
    for (std::int64_t i = 0; i < n; ++i) x[i] /= a;
  } else {
    kernels::quotient(x, a, n);
  }
}

// y <- y + a x (sign +1) or y - a x (sign -1).  mul n, add n.
template <class E>
void axpy(S<E> a, const S<E>* x, S<E>* y, std::int64_t n, int sign = +1) {
  begin_op<E>(), in<E>(x, n), inout<E>(y, n);
  if (tally_skip<E>({.mul = n, .add = n})) return;
  if constexpr (kScalarLevel<E>) {
    if (sign > 0)
      for (std::int64_t i = 0; i < n; ++i) y[i] += a * x[i];
    else
      for (std::int64_t i = 0; i < n; ++i) y[i] -= a * x[i];
  } else {
    kernels::axpy(a, x, y, n, sign);
  }
}

// y <- y + x (sign +1) or y - x (sign -1): vectors, or matrices of one shape a row at a time (x
// may be strided: a column of heads).  add n (r*c).
template <class E>
void add(const S<E>* x, S<E>* y, std::int64_t n, int sign = +1) {
  begin_op<E>(), in<E>(x, n), inout<E>(y, n);
  if (tally_skip<E>({.add = n})) return;
  if constexpr (kScalarLevel<E>) {
    if (sign > 0)
      for (std::int64_t i = 0; i < n; ++i) y[i] += x[i];
    else
      for (std::int64_t i = 0; i < n; ++i) y[i] -= x[i];
  } else {
    kernels::accumulate(x, y, n, sign);
  }
}
template <class E>
void add(MatCRef<S<E>> x, MatRef<S<E>> y, int sign = +1) {
  begin_op<E>(), in<E>(x), inout<E>(y);
  if (skip_arithmetic<E>()) return tally<E>({.add = x.size()});  // the loop's
  const OneOp<E> one;
  for (std::int64_t i = 0; i < x.rows(); ++i)
    add<E>(x.row(i).data(), y.row(i).data(), x.cols(), sign);
}

// ---- Whole-model ops (models/encoder.hpp: LayerNorm, biases, activations) ----

// sqrt(a).  other 1 (Counted's bucket for square roots).
template <class E>
S<E> sqrt_of(S<E> a) {
  if constexpr (kScalarLevel<E>) {
    return sqrt(a);
  } else {
    E::tally({.other = 1});
    return std::sqrt(a);
  }
}

// a * b and a + b on scalars.  mul 1 / add 1.
template <class E>
S<E> product(S<E> a, S<E> b) {
  if constexpr (!kScalarLevel<E>) E::tally({.mul = 1});
  return a * b;
}
template <class E>
S<E> plus(S<E> a, S<E> b) {
  if constexpr (!kScalarLevel<E>) E::tally({.add = 1});
  return a + b;
}

// x <- x + c (sign +1) or x - c (sign -1), a scalar offset.  add n.
template <class E>
void offset(S<E>* x, std::int64_t n, S<E> c, int sign = +1) {
  begin_op<E>(), inout<E>(x, n);
  if (tally_skip<E>({.add = n})) return;
  if constexpr (kScalarLevel<E>) {
    if (sign > 0)
      for (std::int64_t i = 0; i < n; ++i) x[i] += c;
    else
      for (std::int64_t i = 0; i < n; ++i) x[i] -= c;
  } else {
    VecMap<S<E>>(x, n).array() += sign > 0 ? c : -c;
  }
}

// y <- y .* w, element-wise.  mul n.
template <class E>
void multiply(const S<E>* w, S<E>* y, std::int64_t n) {
  begin_op<E>(), in<E>(w, n), inout<E>(y, n);
  if (tally_skip<E>({.mul = n})) return;
  if constexpr (kScalarLevel<E>) {
    for (std::int64_t i = 0; i < n; ++i) y[i] *= w[i];
  } else {
    VecMap<S<E>>(y, n).array() *= VecCMap<S<E>>(w, n).array();
  }
}

// x <- max(x, 0).  other n (one comparison each).
template <class E>
void relu_inplace(S<E>* x, std::int64_t n) {
  begin_op<E>(), inout<E>(x, n);
  if (tally_skip<E>({.other = n})) return;
  if constexpr (kScalarLevel<E>) {
    const S<E> zero(0.0);
    for (std::int64_t i = 0; i < n; ++i) x[i] = max(x[i], zero);
  } else {
    VecMap<S<E>>(x, n) = VecMap<S<E>>(x, n).cwiseMax(S<E>(0));
  }
}

// GELU, tanh form via one exp: x / (1 + exp(-2 sqrt(2/pi) (x + 0.044715 x^3))); for very negative
// x, exp is inf and the result -0, the limit.  mul 4, add 2, div 1, exp 1 per element.
template <class E>
void gelu_inplace(S<E>* x, std::int64_t n) {
  begin_op<E>(), inout<E>(x, n);
  if (tally_skip<E>({.mul = 4 * n, .add = 2 * n, .div = n, .exp = n})) return;
  constexpr double kCubic = 0.044715;
  const double k2 = -2.0 * std::sqrt(2.0 / 3.14159265358979323846);
  if constexpr (kScalarLevel<E>) {
    const S<E> cubic(kCubic), scale(k2), one(1.0);
    for (std::int64_t i = 0; i < n; ++i) {
      S<E> u = x[i] * x[i];
      u = u * x[i];
      u = u * cubic + x[i];
      u = exp(u * scale);
      x[i] = x[i] / (u + one);
    }
  } else {
    auto a = VecMap<S<E>>(x, n).array();
    using T = S<E>;
    a = a / (kernels::exp_of((a * a * a * T(kCubic) + a) * T(k2)) + T(1));
  }
}

}  // namespace cosda::ops
