// ny's per-step landmarks of every head at once (families/nystrom_heads.hpp): segment means over
// a token ring by column, and every head's Gamma_phi^+ by pinv.hpp's iteration on head-minor
// matrices (ops/heads_minor.hpp). Each op counts as the per-head ops it stands for.
#pragma once

#include <algorithm>
#include <cstdint>

#include "attention/ops/core.hpp"
#include "attention/ops/elementwise.hpp"
#include "attention/ops/heads_minor.hpp"

namespace cosda::ops {

// y[r] = mean of row r of x over columns first, ..., first + count - 1 modulo x.cols() (a token
// ring by column): segment_mean (landmarks.hpp) per head's rows.  add (count-1)*rows, div rows.
template <class E>
void segment_mean_cols(MatCRef<S<E>> x, std::int64_t first, std::int64_t count, S<E>* y) {
  const std::int64_t n = x.cols(), rows = x.rows(), start = (first % n + n) % n;
  const std::int64_t run = std::min(count, n - start), wrapped = count - run;
  begin_op<E>(), in<E>(x.middleCols(start, run)), out<E>(y, rows);
  if (wrapped > 0) in<E>(x.leftCols(wrapped));
  if (skip_arithmetic<E>()) return tally<E>({.add = (count - 1) * rows, .div = rows});
  const OneOp<E> one;  // the sums of the runs, their joins and the divisions
  if constexpr (!kScalarLevel<E>)
    if (wrapped > 0) E::tally({.add = rows});
  for (std::int64_t r = 0; r < rows; ++r) {
    const S<E>* row = x.row(r).data();
    y[r] = sum<E>(row + start, run);
    if (wrapped > 0) y[r] += sum<E>(row, wrapped);
  }
  divide<E>(y, rows, S<E>(static_cast<double>(count)));
}

// Every head's landmark kernel before exp, head-minor: y[(a m + b) h + i] = x_i(a) . z_i(b), row
// a of x (m x h dh) every head's landmark a; gemm_nt per head.  mul h m m dh, add h m m (dh-1).
template <class E>
void heads_minor_gram(MatCRef<S<E>> x, MatCRef<S<E>> z, std::int64_t h, S<E>* y) {
  const std::int64_t m = x.rows(), dh = x.cols() / h;
  begin_op<E>(), in<E>(x), in<E>(z), out<E>(y, h * m * m);
  if (tally_skip<E>({.mul = h * m * m * dh, .add = h * m * m * (dh - 1)})) return;
  for (std::int64_t a = 0; a < m; ++a)
    for (std::int64_t b = 0; b < m; ++b)
      for (std::int64_t i = 0; i < h; ++i) {
        const S<E>* xa = x.row(a).data() + i * dh;
        const S<E>* zb = z.row(b).data() + i * dh;
        S<E> acc = xa[0] * zb[0];
        for (std::int64_t f = 1; f < dh; ++f) acc += xa[f] * zb[f];
        y[(a * m + b) * h + i] = acc;
      }
}

namespace detail {

// The ops below for one row-major head in the timed build (out of line: head loops inline as is).
template <class T>
[[gnu::noinline]] void one_head_pinv_start(std::int64_t m, const T* x, T* z, T* scale) {
  const Eigen::Map<const Mat<T>> x1(x, m, m);
  Eigen::Map<Mat<T>> z1(z, m, m);
  z1.row(0) = x1.row(0);  // the column sums a row at a time, in z's first row, written over below
  for (std::int64_t a = 1; a < m; ++a) z1.row(0) += x1.row(a);
  scale[0] = T(1) / z1.row(0).maxCoeff();
  z1 = x1.transpose() * scale[0];
}
template <class T>
[[gnu::noinline]] void one_head_shifted_negation(std::int64_t m, const T* x, T c, T* y) {
  for (std::int64_t a = 0; a < m; ++a) {  // c - x is -x + c
    for (std::int64_t b = 0; b < m; ++b) y[a * m + b] = -x[a * m + b];
    y[a * m + a] += c;
  }
}

}  // namespace detail

// The start of every head's iteration (Pinv::iterate): z_i = x_i^T / max_b sum_a x_i(a, b);
// scale: h scratch.  add h m (m-1), other h (m-1), div h, mul h m m.
template <class E>
void heads_minor_pinv_start(std::int64_t m, std::int64_t h, const S<E>* x, S<E>* z, S<E>* scale) {
  begin_op<E>(), in<E>(x, h * m * m), out<E>(z, h * m * m), out<E>(scale, h);
  if (tally_skip<E>({.mul = h * m * m, .add = h * m * (m - 1), .div = h, .other = h * (m - 1)}))
    return;
  if (detail::one_head<E>(h)) return detail::one_head_pinv_start<S<E>>(m, x, z, scale);
  using std::max;
  for (std::int64_t b = 0; b < m; ++b) {  // column sums of x_i, the largest in scale
    S<E>* col = z + b * h;                // scratch: row b of z, written over below
    for (std::int64_t i = 0; i < h; ++i) col[i] = x[b * h + i];
    for (std::int64_t a = 1; a < m; ++a)
      for (std::int64_t i = 0; i < h; ++i) col[i] += x[(a * m + b) * h + i];
    for (std::int64_t i = 0; i < h; ++i) scale[i] = b == 0 ? col[i] : max(scale[i], col[i]);
  }
  for (std::int64_t i = 0; i < h; ++i) scale[i] = S<E>(1) / scale[i];
  for (std::int64_t a = 0; a < m; ++a)
    for (std::int64_t b = 0; b < m; ++b)
      for (std::int64_t i = 0; i < h; ++i)
        z[(a * m + b) * h + i] = x[(b * m + a) * h + i] * scale[i];
}

// y_i = c I - x_i for every head (shifted_negation per head).  add h m m.
template <class E>
void heads_minor_shifted_negation(std::int64_t m, std::int64_t h, const S<E>* x, S<E> c, S<E>* y) {
  begin_op<E>(), in<E>(x, h * m * m), out<E>(y, h * m * m);
  if (tally_skip<E>({.add = h * m * m})) return;
  if (detail::one_head<E>(h)) return detail::one_head_shifted_negation<S<E>>(m, x, c, y);
  for (std::int64_t a = 0; a < m; ++a)
    for (std::int64_t b = 0; b < m; ++b) {
      const S<E>* xab = x + (a * m + b) * h;
      S<E>* yab = y + (a * m + b) * h;
      if (a == b)
        for (std::int64_t i = 0; i < h; ++i) yab[i] = c - xab[i];
      else
        for (std::int64_t i = 0; i < h; ++i) yab[i] = -xab[i];
    }
}

// Pinv::iterate (attention/families/pinv.hpp) for every head: z_i = the pseudo-inverse of x_i by
// `iterations` steps, head-minor; work: 3 h m m scratch. The counts of h Pinv::iterate.
template <class E>
void heads_minor_pinv(std::int64_t m, std::int64_t h, int iterations, const S<E>* x, S<E>* z,
                      S<E>* work) {
  const std::int64_t mm = h * m * m;
  S<E>*xz = work, *t = xz + mm, *u = t + mm;
  heads_minor_pinv_start<E>(m, h, x, z, u);
  for (int it = 0; it < iterations; ++it) {
    heads_minor_gemm<E>(m, m, m, h, x, z, xz);
    heads_minor_shifted_negation<E>(m, h, xz, S<E>(7), t);
    heads_minor_gemm<E>(m, m, m, h, xz, t, u);
    heads_minor_shifted_negation<E>(m, h, u, S<E>(15), t);
    heads_minor_gemm<E>(m, m, m, h, xz, t, u);
    heads_minor_shifted_negation<E>(m, h, u, S<E>(13), t);
    heads_minor_gemm<E>(m, m, m, h, z, t, u);
    copy<E>(u, u + mm, z);
    scale<E>(z, mm, S<E>(0.25));
  }
}

}  // namespace cosda::ops
