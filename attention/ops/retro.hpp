// The seam's retroactive updates (attention/ops/seam.hpp): a continual state's rows lose the token
// that leaves the window and gain the one that enters, in one pass.
#pragma once

#include <Eigen/Core>
#include <cstdint>

#include "attention/kernels/packet_exp.hpp"
#include "attention/kernels/rows.hpp"
#include "attention/ops/core.hpp"
#include "attention/ops/elementwise.hpp"
#include "attention/ops/product.hpp"

namespace cosda::ops {

namespace detail {

// The timed kernels of retro_exp_sums.
template <class T>
void exp_sums(T* e_old, T* e_new, T* sums, std::int64_t r, const Shift<T>& s) {
  VecMap<T> eo(e_old, r), en(e_new, r), sm(sums, r);
  if (s.on) {
    eo = kernels::exp_of(eo.array() - s.c);
    en = kernels::exp_of(en.array() - s.c);
  } else {
    eo = kernels::exp_of(eo.array());
    en = kernels::exp_of(en.array());
  }
  sm = sm - eo + en;
}

// The timed kernels of a retroactive update of r rows (retro_update, one head of
// heads_minor_retro_update): both dot products while row i of x (at x + i ldx) is in L1.
template <class T>
void retro_rows(std::int64_t r, std::int64_t d, std::int64_t dv, const T* x, std::int64_t ldx,
                const T* k_old, const T* k_new, const T* v_old, const T* v_new, T* e_old, T* e_new,
                T* sums, T* y, std::int64_t ldy, const Shift<T>& s) {
  for (std::int64_t i = 0; i < r; ++i)
    kernels::dot2(x + i * ldx, k_old, k_new, d, &e_old[i], &e_new[i]);
  exp_sums<T>(e_old, e_new, sums, r, s);
  for (std::int64_t i = 0; i < r; ++i)
    kernels::sub_add_scaled(y + i * ldy, e_old[i], v_old, e_new[i], v_new, dv);
}

}  // namespace detail

// e <- exp(e [- c]) for e_old and e_new, then sums <- sums - e_old + e_new: counted at the scalar
// level as two exp_inplace and two add; uncounted otherwise (retro_counts has them).
template <class E>
void retro_exp_sums(S<E>* e_old, S<E>* e_new, S<E>* sums, std::int64_t r, const Shift<S<E>>& s) {
  if constexpr (kScalarLevel<E>) {
    exp_inplace<E>(e_old, r, s);
    exp_inplace<E>(e_new, r, s);
    add<E>(e_old, sums, r, -1);
    add<E>(e_new, sums, r, +1);
  } else {
    detail::exp_sums<S<E>>(e_old, e_new, sums, r, s);
  }
}

// What a retroactive update of r rows executes, d features in, dv out, shift on or off: two
// 1 x r x d products, 2r exponentials (and 2r shifts), 2r sum updates, 2r axpys of dv.
inline OpCounts retro_counts(std::int64_t r, std::int64_t d, std::int64_t dv, bool shifted) {
  return {.mul = 2 * r * d + 2 * r * dv,
          .add = 2 * r * (d - 1) + (shifted ? 2 * r : 0) + 2 * r + 2 * r * dv,
          .exp = 2 * r};
}

// The retroactive update of a continual state's rows (CoTrans Eqs. 2, 4; Nyström Eqs. 24, 25):
// the token (k_old, v_old) leaves the window and (k_new, v_new) enters. For each row i of x,
//   e_old_i = exp(x_i . k_old [- c]),  e_new_i = exp(x_i . k_new [- c])
//   sums_i <- sums_i - e_old_i + e_new_i,  y_i <- y_i - e_old_i v_old + e_new_i v_new
// It reads x and y once (the fused ops read them twice) and counts those ops (retro_counts).
template <class E>
void retro_update(MatCRef<S<E>> x, const S<E>* k_old, const S<E>* k_new, const S<E>* v_old,
                  const S<E>* v_new, S<E>* e_old, S<E>* e_new, S<E>* sums, MatRef<S<E>> y,
                  const Shift<S<E>>& s) {
  const std::int64_t r = x.rows(), d = x.cols(), dv = y.cols();
  begin_op<E>(), in<E>(x), in<E>(k_old, d), in<E>(k_new, d), in<E>(v_old, dv), in<E>(v_new, dv);
  out<E>(e_old, r), out<E>(e_new, r), inout<E>(sums, r), inout<E>(y);
  if (tally_skip<E>(retro_counts(r, d, dv, s.on))) return;
  if constexpr (kScalarLevel<E>) {
    const OneOp<E> one;
    using Row = Eigen::Map<Mat<S<E>>>;
    using CRow = Eigen::Map<const Mat<S<E>>>;
    gemm_nt<E>(CRow(k_old, 1, d), x, Row(e_old, 1, r));
    gemm_nt<E>(CRow(k_new, 1, d), x, Row(e_new, 1, r));
    retro_exp_sums<E>(e_old, e_new, sums, r, s);
    for (std::int64_t i = 0; i < r; ++i) {
      axpy<E>(e_old[i], v_old, &y(i, 0), dv, -1);
      axpy<E>(e_new[i], v_new, &y(i, 0), dv, +1);
    }
  } else {
    detail::retro_rows<S<E>>(r, d, dv, x.data(), x.outerStride(), k_old, k_new, v_old, v_new, e_old,
                             e_new, sums, y.data(), y.outerStride(), s);
  }
}

// The sliding update of running sums (random-feature states, corf_si.hpp): the token with weights
// a_old (r) and value v_old (dv) leaves, (a_new, v_new) enters.  mul 2 r dv, add 2 r dv + 2r.
//   sums <- sums - a_old + a_new,  y_i <- y_i - a_old_i v_old + a_new_i v_new  (y: r x dv).
template <class E>
void slide_sums(const S<E>* a_old, const S<E>* a_new, const S<E>* v_old, const S<E>* v_new,
                S<E>* sums, MatRef<S<E>> y) {
  const std::int64_t r = y.rows(), dv = y.cols();
  begin_op<E>(), in<E>(a_old, r), in<E>(a_new, r), in<E>(v_old, dv), in<E>(v_new, dv);
  inout<E>(sums, r), inout<E>(y);
  if (tally_skip<E>({.mul = 2 * r * dv, .add = 2 * r * dv + 2 * r})) return;
  if constexpr (kScalarLevel<E>) {
    const OneOp<E> one;
    add<E>(a_old, sums, r, -1);
    add<E>(a_new, sums, r, +1);
    for (std::int64_t i = 0; i < r; ++i) {
      axpy<E>(a_old[i], v_old, &y(i, 0), dv, -1);
      axpy<E>(a_new[i], v_new, &y(i, 0), dv, +1);
    }
  } else {
    VecMap<S<E>> sm(sums, r);
    sm = sm - VecCMap<S<E>>(a_old, r) + VecCMap<S<E>>(a_new, r);
    for (std::int64_t i = 0; i < r; ++i)
      kernels::sub_add_scaled(&y(i, 0), a_old[i], v_old, a_new[i], v_new, dv);
  }
}

// retro_update, same results and count, on a state stored transposed (xt d x r, yt dv x r; k_*, v_*
// columns): loops run along the r rows, so short features (d = 12) skip horizontal sums.
template <class E>
void retro_update_cols(MatCRef<S<E>> xt, MatCRef<S<E>> k_old, MatCRef<S<E>> k_new,
                       MatCRef<S<E>> v_old, MatCRef<S<E>> v_new, S<E>* e_old, S<E>* e_new,
                       S<E>* sums, MatRef<S<E>> yt, const Shift<S<E>>& s) {
  const std::int64_t r = xt.cols(), d = xt.rows(), dv = yt.rows();
  using Row = Eigen::Map<Mat<S<E>>>;
  begin_op<E>(), in<E>(xt), in<E>(k_old), in<E>(k_new), in<E>(v_old), in<E>(v_new);
  out<E>(e_old, r), out<E>(e_new, r), inout<E>(sums, r), inout<E>(yt);
  if (tally_skip<E>(retro_counts(r, d, dv, s.on))) return;
  if constexpr (kScalarLevel<E>) {
    const OneOp<E> one;
    gemm_tn<E>(k_old, xt, Row(e_old, 1, r));
    gemm_tn<E>(k_new, xt, Row(e_new, 1, r));
    retro_exp_sums<E>(e_old, e_new, sums, r, s);
    for (std::int64_t i = 0; i < r; ++i)
      for (std::int64_t l = 0; l < dv; ++l) {
        yt(l, i) -= e_old[i] * v_old(l, 0);
        yt(l, i) += e_new[i] * v_new(l, 0);
      }
  } else {
    VecMap<S<E>> eo(e_old, r), en(e_new, r);
    eo = k_old(0, 0) * xt.row(0).transpose();  // both dot products in one pass over xt
    en = k_new(0, 0) * xt.row(0).transpose();
    for (std::int64_t l = 1; l < d; ++l) {
      eo += k_old(l, 0) * xt.row(l).transpose();
      en += k_new(l, 0) * xt.row(l).transpose();
    }
    retro_exp_sums<E>(e_old, e_new, sums, r, s);
    for (std::int64_t l = 0; l < dv; ++l)
      yt.row(l) = yt.row(l) - v_old(l, 0) * eo.transpose() + v_new(l, 0) * en.transpose();
  }
}

}  // namespace cosda::ops
