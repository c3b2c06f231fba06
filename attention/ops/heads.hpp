// The seam's head-batched ops (ops/seam.hpp): h heads' products, scores, retroactive updates,
// sliding sums and random-feature exponentials in one call. A d x n state stores a token per
// column, head i owning rows [i dh, (i+1) dh). Each counts as its per-head ops, in textbook order.
#pragma once

#include <Eigen/Core>
#include <cmath>
#include <cstdint>
#include <utility>

#include "attention/kernels/heads.hpp"
#include "attention/kernels/packet_exp.hpp"
#include "attention/kernels/packet_widths.hpp"
#include "attention/kernels/scores.hpp"
#include "attention/kernels/vector_matrix.hpp"
#include "attention/ops/core.hpp"
#include "attention/ops/elementwise.hpp"
#include "attention/ops/heads_rows.hpp"
#include "attention/ops/retro.hpp"
#include "attention/ops/rows.hpp"

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wignored-attributes"

namespace cosda::kernels {

namespace detail {

// y[j, n) <- y - a x + b z in whole packets of P from j; returns the first element left.
template <class P, class T>
inline std::int64_t sub_add_packets(T* y, T a, const T* x, T b, const T* z, std::int64_t j,
                                    std::int64_t n) {
  using namespace Eigen::internal;
  constexpr std::int64_t W = unpacket_traits<P>::size;
  const P pa = pset1<P>(a), pb = pset1<P>(b);
  for (; j + W <= n; j += W) {
    const P yj = psub(ploadu<P>(y + j), pmul(pa, ploadu<P>(x + j)));
    pstoreu(y + j, padd(yj, pmul(pb, ploadu<P>(z + j))));
  }
  return j;
}

}  // namespace detail

// y <- y - a x + b z over n elements: packets, then half and quarter packets, so that a head's
// short rows (Table III: dh = 12) run in registers.
template <class T>
inline void sub_add_scaled_short(T* y, T a, const T* x, T b, const T* z, std::int64_t n) {
  std::int64_t j = packet_cascade<T>(0, [&]<class X>(std::int64_t at) {
    return detail::sub_add_packets<X>(y, a, x, b, z, at, n);
  });
  for (; j < n; ++j) y[j] = y[j] - a * x[j] + b * z[j];
}

}  // namespace cosda::kernels

#pragma GCC diagnostic pop

namespace cosda::ops {

// a_i = q_i K_i for every head i: q 1 x d, K d x n (a token per column), a h x n; q_i =
// q[i dh, (i+1) dh), K_i = rows [i dh, (i+1) dh) of K.  mul h*n*dh, add h*n*(dh-1).
template <class E>
void heads_gemm_nn(MatCRef<S<E>> q, MatCRef<S<E>> k, MatRef<S<E>> a) {
  const std::int64_t h = a.rows(), n = a.cols(), dh = q.cols() / h;
  begin_op<E>(), in<E>(q), in<E>(k), out<E>(a);
  if (tally_skip<E>({.mul = h * n * dh, .add = h * n * (dh - 1)})) return;
  if constexpr (kScalarLevel<E>) {
    for (std::int64_t i = 0; i < h; ++i)
      for (std::int64_t t = 0; t < n; ++t) {
        S<E> acc = q(0, i * dh) * k(i * dh, t);
        for (std::int64_t l = 1; l < dh; ++l) acc += q(0, i * dh + l) * k(i * dh + l, t);
        a(i, t) = acc;
      }
  } else {
    for (std::int64_t i = 0; i < h; ++i) {
      if (kernels::vector_matrix_fits<S<E>>(dh, n))
        kernels::vector_matrix(dh, q.data() + i * dh, k.row(i * dh).data(), k.outerStride(), n,
                               a.row(i).data());
      else
        a.row(i).noalias() = q.middleCols(i * dh, dh) * k.middleRows(i * dh, dh);
    }
  }
}

// a_i = exp(q_i K_i - c) and sums_i = a_i 1^T (h sums) for every head i (c when shifted):
// heads_gemm_nn, exp_inplace and row_sums in one op, exponentiated while K streams in.
// mul h*n*dh, add h*n*(dh-1) + h*(n-1) (+ h*n shifted), exp h*n.
template <class E>
void heads_exp_scores(MatCRef<S<E>> q, MatCRef<S<E>> k, MatRef<S<E>> a, S<E>* sums,
                      const Shift<S<E>>& shift) {
  const std::int64_t h = a.rows(), n = a.cols(), dh = q.cols() / h;
  begin_op<E>(), in<E>(q), in<E>(k), out<E>(a), out<E>(sums, h);
  if (tally_skip<E>({.mul = h * n * dh,
                     .add = h * n * (dh - 1) + h * (n - 1) + (shift.on ? h * n : 0),
                     .exp = h * n}))
    return;
  if constexpr (kScalarLevel<E>) {
    const OneOp<E> one;
    heads_gemm_nn<E>(q, k, a);
    exp_inplace<E>(a.data(), h * n, shift);
    row_sums<E>(a, sums);
  } else {
    const bool fits = kernels::vector_matrix_fits<S<E>>(dh, n);
    for (std::int64_t i = 0; i < h; ++i) {
      if (fits) {
        sums[i] =
            kernels::exp_vector_matrix(dh, q.data() + i * dh, k.row(i * dh).data(), k.outerStride(),
                                       n, a.row(i).data(), shift.on, shift.c);
        continue;
      }
      VecMap<S<E>> row(a.row(i).data(), n);
      a.row(i).noalias() = q.middleCols(i * dh, dh) * k.middleRows(i * dh, dh);
      if (shift.on)
        row = kernels::exp_of(row.array() - shift.c);
      else
        row = kernels::exp_of(row.array());
      sums[i] = row.sum();
    }
  }
}

// out_i = a_i V_i^T for every head i: a h x n, V d x n (a token per column), out 1 x d,
// out[r] = a_{r / dh} . V[r, :].  mul d*n, add d*(n-1).
template <class E>
void heads_gemm_nt(MatCRef<S<E>> a, MatCRef<S<E>> v, MatRef<S<E>> out) {
  const std::int64_t h = a.rows(), n = a.cols(), d = out.cols(), dh = d / h;
  begin_op<E>(), in<E>(a), in<E>(v), ops::out<E>(out);
  if (tally_skip<E>({.mul = d * n, .add = d * (n - 1)})) return;
  if constexpr (kScalarLevel<E>) {
    for (std::int64_t r = 0; r < d; ++r) {
      S<E> acc = a(r / dh, 0) * v(r, 0);
      for (std::int64_t t = 1; t < n; ++t) acc += a(r / dh, t) * v(r, t);
      out(0, r) = acc;
    }
  } else {
    if (d * n <= kernels::kMatrixVectorMaxElements<S<E>>)
      kernels::heads_matrix_vector(n, dh, d, a.data(), a.outerStride(), v.data(), v.outerStride(),
                                   out.data());
    else
      for (std::int64_t i = 0; i < h; ++i) {
        if (dh * n <= kernels::kMatrixVectorMaxElements<S<E>>)
          kernels::matrix_vector(n, a.row(i).data(), v.row(i * dh).data(), v.outerStride(), dh,
                                 out.data() + i * dh);
        else
          out.middleCols(i * dh, dh).noalias() = a.row(i) * v.middleRows(i * dh, dh).transpose();
      }
  }
}

// y_i = A_i X_i for heads [first, first + count), x and y landmark-major (h m x n, row l h + i:
// head i's row l), a h m x m (A_i at rows [i m, (i+1) m)): ny_fix's B_phi Gamma_phi^+ with the
// tokens along rows.  mul count*m*m*n, add count*m*(m-1)*n.
template <class E>
void heads_gemm_lm(MatCRef<S<E>> a, MatCRef<S<E>> x, MatRef<S<E>> y, std::int64_t first,
                   std::int64_t count) {
  const std::int64_t m = a.cols(), h = a.rows() / m, n = x.cols(), ldx = x.outerStride(),
                     ldy = y.outerStride();
  using Rows = Eigen::Map<const Mat<S<E>>, 0, Eigen::OuterStride<>>;  // X_i: m rows h apart
  const auto x_i = [&](std::int64_t i) {
    return Rows(x.data() + i * ldx, m, n, Eigen::OuterStride<>(h * ldx));
  };
  begin_op<E>(), in<E>(a.middleRows(first * m, count * m));
  for (std::int64_t l = 0; l < m; ++l)  // the heads' rows of each landmark
    in<E>(x.middleRows(l * h + first, count)), out<E>(y.middleRows(l * h + first, count));
  if (tally_skip<E>({.mul = count * m * m * n, .add = count * m * (m - 1) * n})) return;
  if constexpr (kScalarLevel<E>) {
    const OneOp<E> one;
    for (std::int64_t i = first; i < first + count; ++i)
      gemm_nn<E>(a.middleRows(i * m, m), x_i(i),
                 Eigen::Map<Mat<S<E>>, 0, Eigen::OuterStride<>>(y.data() + i * ldy, m, n,
                                                                Eigen::OuterStride<>(h * ldy)));
  } else {
    const bool fits = kernels::vector_matrix_fits<S<E>>(m, n);
    for (std::int64_t i = first; i < first + count; ++i)
      for (std::int64_t l = 0; l < m; ++l) {
        S<E>* yi = y.data() + (l * h + i) * ldy;
        if (fits)
          kernels::vector_matrix(m, a.row(i * m + l).data(), x.data() + i * ldx, h * ldx, n, yi);
        else
          VecMap<S<E>>(yi, n).transpose().noalias() = a.row(i * m + l) * x_i(i);
      }
  }
}

// slide_sums (ops/retro.hpp) for every head i: rows [i r, (i+1) r) of sums, y (h r x dv), a_old
// and a_new are head i's, against its slices of v_old and v_new (width h dv).
// mul 2*h*r*dv, add 2*h*r*dv + 2*h*r.
template <class E>
void heads_slide_sums(std::int64_t h, const S<E>* a_old, const S<E>* a_new, const S<E>* v_old,
                      const S<E>* v_new, S<E>* sums, MatRef<S<E>> y) {
  const std::int64_t rows = y.rows(), r = rows / h, dv = y.cols();
  begin_op<E>(), in<E>(a_old, rows), in<E>(a_new, rows), in<E>(v_old, h * dv);
  in<E>(v_new, h * dv), inout<E>(sums, rows), inout<E>(y);
  if (tally_skip<E>({.mul = 2 * rows * dv, .add = 2 * rows * dv + 2 * rows})) return;
  if constexpr (kScalarLevel<E>) {
    const OneOp<E> one;
    for (std::int64_t i = 0; i < h; ++i)
      slide_sums<E>(a_old + i * r, a_new + i * r, v_old + i * dv, v_new + i * dv, sums + i * r,
                    y.middleRows(i * r, r));
  } else {
    VecMap<S<E>> sm(sums, rows);
    sm = sm - VecCMap<S<E>>(a_old, rows) + VecCMap<S<E>>(a_new, rows);
    for (std::int64_t j = 0; j < rows; ++j) {
      const std::int64_t i = j / r;
      kernels::sub_add_scaled_short(&y(j, 0), a_old[j], v_old + i * dv, a_new[j], v_new + i * dv,
                                    dv);
    }
  }
}

// retro_update_cols (ops/retro.hpp) for every head i over the columns [0, n) other than j: xt
// (d x c), yt (h dv x c) and the columns k_old, k_new, v_old, v_new hold head i's rows at
// [i dh, (i+1) dh) or [i dv, (i+1) dv); row i of e_old, e_new, sums (h x c) is head i's. c >=
// padded_cols(n); columns j and n to c - 1 are read, never written.  retro_counts(h (n-1), dh, dv).
template <class E>
void heads_retro_update_cols(std::int64_t n, std::int64_t j, MatCRef<S<E>> xt, MatCRef<S<E>> k_old,
                             MatCRef<S<E>> k_new, MatCRef<S<E>> v_old, MatCRef<S<E>> v_new,
                             MatRef<S<E>> e_old, MatRef<S<E>> e_new, MatRef<S<E>> sums,
                             MatRef<S<E>> yt, const Shift<S<E>>& s) {
  const std::int64_t h = e_old.rows(), dh = xt.rows() / h, dv = yt.rows() / h;
  [[maybe_unused]] const std::int64_t np = kernels::padded_cols<S<E>>(n);
  eigen_assert(xt.cols() >= np && yt.cols() >= np && e_old.cols() >= np && e_new.cols() >= np &&
               sums.cols() >= np && "the state's columns padded to whole packets");
  begin_op<E>(), in<E>(k_old), in<E>(k_new), in<E>(v_old), in<E>(v_new);
  for (const auto& [from, cols] : {std::pair{std::int64_t(0), j}, std::pair{j + 1, n - j - 1}}) {
    if (cols == 0) continue;  // the two runs beside j: column j is read in packets, not used
    in<E>(xt.middleCols(from, cols)), out<E>(e_old.middleCols(from, cols));
    out<E>(e_new.middleCols(from, cols)), inout<E>(sums.middleCols(from, cols));
    inout<E>(yt.middleCols(from, cols));
  }
  if (tally_skip<E>(retro_counts(h * (n - 1), dh, dv, s.on))) return;
  if constexpr (kScalarLevel<E>) {
    const OneOp<E> one;
    for (std::int64_t i = 0; i < h; ++i) {
      const auto run = [&](std::int64_t first, std::int64_t count) {
        retro_update_cols<E>(xt.block(i * dh, first, dh, count), k_old.middleRows(i * dh, dh),
                             k_new.middleRows(i * dh, dh), v_old.middleRows(i * dv, dv),
                             v_new.middleRows(i * dv, dv), &e_old(i, first), &e_new(i, first),
                             &sums(i, first), yt.block(i * dv, first, dv, count), s);
      };
      if (j > 0) run(0, j);
      if (j + 1 < n) run(j + 1, n - j - 1);
    }
  } else {
    if (n < 2) return;
    const auto row = [](auto&& m, std::int64_t i) { return m.data() + i * m.outerStride(); };
    const auto col = [&](const auto& m, std::int64_t i) {
      return kernels::Strided<S<E>>{row(m, i), m.outerStride()};
    };
    for (std::int64_t i = 0; i < h; ++i)
      kernels::retro_update_cols(n, j, dh, row(xt, i * dh), xt.outerStride(), col(k_old, i * dh),
                                 col(k_new, i * dh), dv, col(v_old, i * dv), col(v_new, i * dv),
                                 row(e_old, i), row(e_new, i), row(sums, i), row(yt, i * dv),
                                 yt.outerStride(), s.on, s.c);
  }
}

// scale_rows_into with src transposed (ops/rows.hpp) for every head i, ring tokens put in window
// order: src d x c (a token per column), s h x c, dst r x d; slot t lands on row (t - oldest) mod
// r, dst(row, i dh + l) = s(i, t) src(i dh + l, t). c >= padded_cols(r) for whole packets; columns
// r to c - 1 are padding, never used.  mul r*d.
template <class E>
void heads_scale_rows_into(MatCRef<S<E>> src, MatCRef<S<E>> s, std::int64_t oldest,
                           MatRef<S<E>> dst) {
  const std::int64_t h = s.rows(), r = dst.rows(), d = dst.cols(), dh = d / h;
  begin_op<E>(), in<E>(src.leftCols(r)), in<E>(s.leftCols(r)), out<E>(dst);
  if (tally_skip<E>({.mul = r * d})) return;
  if constexpr (kScalarLevel<E>) {
    const OneOp<E> one;
    for (std::int64_t i = 0; i < h; ++i) {
      const auto run = [&](std::int64_t first, std::int64_t count, std::int64_t row) {
        scale_rows_into<E>(src.block(i * dh, first, dh, count),
                           s.data() + i * s.outerStride() + first,
                           dst.block(row, i * dh, count, dh), true);
      };
      run(oldest, r - oldest, 0);
      if (oldest > 0) run(0, oldest, r - oldest);
    }
  } else {
    if (src.cols() >= kernels::padded_cols<S<E>>(r) && s.cols() >= kernels::padded_cols<S<E>>(r))
      kernels::scale_transpose_heads(r, d, dh, src.data(), src.outerStride(), s.data(),
                                     s.outerStride(), oldest, dst.data(), dst.outerStride());
    else
      for (std::int64_t t = 0; t < r; ++t)
        for (std::int64_t f = 0; f < d; ++f)
          dst((t - oldest + r) % r, f) = src(f, t) * s(f / dh, t);
  }
}

namespace detail {
// x <- exp(x), uncounted: one packet loop if rows are contiguous (h rows of m = 4 are short).
template <class T>
void exp_all(MatRef<T> x) {
  if (x.outerStride() == x.cols()) {
    VecMap<T> all(x.data(), x.size());
    all = kernels::exp_of(all.array());
  } else {
    x = kernels::exp_of(x.array()).matrix();
  }
}
}  // namespace detail

// u_i <- exp(u_i - (k_i . k_i) a [- c]) for every head i, u h x m, k 1 x d: the random-feature
// keys' exponentials after u_i = W_i k_i (keys_transposed per key, a = 1 / (2 sqrt(dh))).
// mul h*(dh+1), add h*(dh-1) + h*m (+ h shifted), exp h*m.
template <class E>
void heads_key_exp(MatCRef<S<E>> k, S<E> a, const Shift<S<E>>& shift, MatRef<S<E>> u) {
  const std::int64_t h = u.rows(), m = u.cols(), dh = k.cols() / h;
  begin_op<E>(), in<E>(k), inout<E>(u);
  if (tally_skip<E>(
          {.mul = h * (dh + 1), .add = h * (dh - 1) + h * m + (shift.on ? h : 0), .exp = h * m}))
    return;
  if constexpr (kScalarLevel<E>) {
    const OneOp<E> one;
    for (std::int64_t i = 0; i < h; ++i) {
      const S<E>* ki = k.data() + i * dh;
      S<E> offset = product<E>(dot<E>(ki, ki, dh), a);
      if (shift.on) offset = plus<E>(offset, shift.c);
      exp_inplace<E>(&u(i, 0), m, Shift<S<E>>{true, offset});
    }
  } else {
    for (std::int64_t i = 0; i < h; ++i) {
      const VecCMap<S<E>> ki(k.data() + i * dh, dh);
      S<E> offset = ki.dot(ki) * a;
      if (shift.on) offset += shift.c;
      u.row(i).array() -= offset;
    }
    detail::exp_all<S<E>>(u);
  }
}

// u_i <- exp(u_i - max u_i) for every head i, u h x m: the random-feature queries' stabiliser
// after u_i = W_i q_i (FeatureMap::query).  add h*m, exp h*m, other h*(m-1).
template <class E>
void heads_max_exp(MatRef<S<E>> u) {
  const std::int64_t h = u.rows(), m = u.cols();
  begin_op<E>(), inout<E>(u);
  if (tally_skip<E>({.add = h * m, .exp = h * m, .other = h * (m - 1)})) return;
  if constexpr (kScalarLevel<E>) {
    const OneOp<E> one;
    for (std::int64_t i = 0; i < h; ++i) {
      const S<E> top = max_value<E>(&u(i, 0), m);
      exp_inplace<E>(&u(i, 0), m, Shift<S<E>>{true, top});
    }
  } else {
    for (std::int64_t i = 0; i < h; ++i) {
      const S<E> top = u.row(i).maxCoeff();
      u.row(i).array() -= top;
    }
    detail::exp_all<S<E>>(u);
  }
}

}  // namespace cosda::ops
