// The arithmetic seam: every operation a kernel executes goes through one of these calls.
//
// Each op states its exact count. For E = Exact (Counted scalars) the op runs the textbook
// loop and the scalar counts itself; for Tally<T> it runs plain Eigen code and adds the stated
// count; for Plain<T> it runs plain Eigen code only (both send shallow products to the kernels
// of shallow_gemm.hpp, and other large ones to BLAS when the build has it, blas.hpp). The
// textbook algorithm fixes the count, so counts never depend on a product kernel's blocking: a
// length-k dot product is k multiplications and k-1 additions. tests/counting_test.cpp proves Tally
// == Exact per op and per variant, bucket by bucket. Under Tally each op also records the memory it
// reads and writes (touch(), attention/footprint.hpp): the bytes of the roofline bound.
#pragma once

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <type_traits>

#include "attention/blas.hpp"
#include "attention/exec.hpp"
#include "attention/footprint.hpp"
#include "attention/row_kernels.hpp"
#include "attention/shallow_gemm.hpp"
#include "attention/vector_matrix.hpp"

namespace cosda::ops {

template <class E>
using S = typename E::Scalar;
template <class E>
inline constexpr bool kScalarLevel = std::is_same_v<typename E::Scalar, Counted>;

template <class T>
using VecMap = Eigen::Map<Eigen::Matrix<T, Eigen::Dynamic, 1>>;
template <class T>
using VecCMap = Eigen::Map<const Eigen::Matrix<T, Eigen::Dynamic, 1>>;

// Records that an op touches n elements from p, or a matrix (row by row when its rows are not
// contiguous). Tally only: Plain compiles it away.
template <class E, class T>
void touch(const T* p, std::int64_t n) {
  if constexpr (E::kCounting && !kScalarLevel<E>)
    thread_footprint().record(p, n * std::int64_t(sizeof(T)));
}
template <class E, class M>
void touch(const M& m) {
  if constexpr (E::kCounting && !kScalarLevel<E>) {
    if (m.outerStride() == m.cols() || m.rows() == 1)
      touch<E>(m.data(), m.rows() * m.cols());
    else
      for (std::int64_t i = 0; i < m.rows(); ++i)
        touch<E>(m.data() + i * m.outerStride(), m.cols());
  }
}

// C = op(A) op(B), op(X) = X, or X^T when trans_x: the product behind gemm_nt, gemm_nn and
// gemm_tn. C is r x c and the depth is k.  mul r*c*k, add r*c*(k-1).
template <class E>
void gemm(bool trans_a, bool trans_b, MatCRef<S<E>> a, MatCRef<S<E>> b, MatRef<S<E>> c) {
  const std::int64_t r = c.rows(), n = c.cols(), k = trans_a ? a.rows() : a.cols();
  if constexpr (kScalarLevel<E>) {
    const auto at = [&](std::int64_t i, std::int64_t l) { return trans_a ? a(l, i) : a(i, l); };
    const auto bt = [&](std::int64_t l, std::int64_t j) { return trans_b ? b(j, l) : b(l, j); };
    for (std::int64_t i = 0; i < r; ++i)
      for (std::int64_t j = 0; j < n; ++j) {
        S<E> acc = at(i, 0) * bt(0, j);
        for (std::int64_t l = 1; l < k; ++l) acc += at(i, l) * bt(l, j);
        c(i, j) = acc;
      }
  } else {
    E::tally({.mul = r * n * k, .add = r * n * (k - 1)});
    touch<E>(a), touch<E>(b), touch<E>(c);
    if (r == 1 && !trans_a && !trans_b && k >= 1 && n <= kernels::kVectorMatrixMaxCols<S<E>>)
      return kernels::vector_matrix(k, a.data(), b.data(), b.outerStride(), n, c.data());
    if (r == 1 && !trans_a && trans_b && k >= 1 && n * k <= kernels::kMatrixVectorMaxElements<S<E>>)
      return kernels::matrix_vector(k, a.data(), b.data(), b.outerStride(), n, c.data());
    if (!trans_a && kernels::shallow_gemm(trans_b, r, n, k, a.data(), a.outerStride(), b.data(),
                                          b.outerStride(), c.data(), c.outerStride()))
      return;
    if (blas::gemm(trans_a, trans_b, r, n, k, a.data(), a.outerStride(), b.data(), b.outerStride(),
                   c.data(), c.outerStride()))
      return;
    if (trans_a && trans_b)
      c.noalias() = a.transpose() * b.transpose();
    else if (trans_a)
      c.noalias() = a.transpose() * b;
    else if (trans_b)
      c.noalias() = a * b.transpose();
    else
      c.noalias() = a * b;
  }
}

// C = A B^T, A: r x k, B: c x k.
template <class E>
void gemm_nt(MatCRef<S<E>> a, MatCRef<S<E>> b, MatRef<S<E>> c) {
  gemm<E>(false, true, a, b, c);
}

// C = A B, A: r x k, B: k x c.
template <class E>
void gemm_nn(MatCRef<S<E>> a, MatCRef<S<E>> b, MatRef<S<E>> c) {
  gemm<E>(false, false, a, b, c);
}

// C = A^T B, A: k x r, B: k x c.
template <class E>
void gemm_tn(MatCRef<S<E>> a, MatCRef<S<E>> b, MatRef<S<E>> c) {
  gemm<E>(true, false, a, b, c);
}

// dst = [first, last) and dst = src (matrices of one shape).  No arithmetic: they move the
// tokens into the state and record what they touch.
template <class E>
void copy(const S<E>* first, const S<E>* last, S<E>* dst) {
  touch<E>(first, last - first), touch<E>(dst, last - first);
  std::copy(first, last, dst);
}
template <class E>
void copy(MatCRef<S<E>> src, MatRef<S<E>> dst) {
  touch<E>(src), touch<E>(dst);
  dst = src;
}

// Column j of dst = [x, x + dst.rows()): a token written into a ring stored transposed.
// No arithmetic.
template <class E>
void copy_to_column(const S<E>* x, MatRef<S<E>> dst, std::int64_t j) {
  touch<E>(x, dst.rows());
  for (std::int64_t i = 0; i < dst.rows(); ++i) {
    touch<E>(&dst(i, j), 1);
    dst(i, j) = x[i];
  }
}

// x <- exp(x).  exp n.
template <class E>
void exp_inplace(S<E>* x, std::int64_t n) {
  if constexpr (kScalarLevel<E>) {
    for (std::int64_t i = 0; i < n; ++i) x[i] = exp(x[i]);
  } else {
    E::tally({.exp = n});
    touch<E>(x, n);
    VecMap<S<E>>(x, n) = VecMap<S<E>>(x, n).array().exp();
  }
}
template <class E>
void exp_inplace(MatRef<S<E>> x) {
  for (std::int64_t i = 0; i < x.rows(); ++i) exp_inplace<E>(&x(i, 0), x.cols());
}

// The stabilised mode's exponent shift (Config::exp_shift): off, or a fixed constant c.
template <class T>
struct Shift {
  bool on = false;
  T c{};
};
template <class T>
Shift<T> shift_of(const std::optional<double>& c) {
  return {c.has_value(), T(c.value_or(0.0))};
}

// x <- exp(x - c) when the shift is on: add n, exp n. Off: exp_inplace (exp n).
template <class E>
void exp_inplace(S<E>* x, std::int64_t n, const Shift<S<E>>& s) {
  if (!s.on) return exp_inplace<E>(x, n);
  if constexpr (kScalarLevel<E>) {
    for (std::int64_t i = 0; i < n; ++i) x[i] = exp(x[i] - s.c);
  } else {
    E::tally({.add = n, .exp = n});
    touch<E>(x, n);
    VecMap<S<E>>(x, n) = (VecMap<S<E>>(x, n).array() - s.c).exp();
  }
}
template <class E>
void exp_inplace(MatRef<S<E>> x, const Shift<S<E>>& s) {
  for (std::int64_t i = 0; i < x.rows(); ++i) exp_inplace<E>(&x(i, 0), x.cols(), s);
}

// sum of x.  add n-1.
template <class E>
S<E> sum(const S<E>* x, std::int64_t n) {
  if constexpr (kScalarLevel<E>) {
    S<E> acc = x[0];
    for (std::int64_t i = 1; i < n; ++i) acc += x[i];
    return acc;
  } else {
    E::tally({.add = n - 1});
    touch<E>(x, n);
    return VecCMap<S<E>>(x, n).sum();
  }
}

// a . b.  mul n, add n-1.
template <class E>
S<E> dot(const S<E>* a, const S<E>* b, std::int64_t n) {
  if constexpr (kScalarLevel<E>) {
    S<E> acc = a[0] * b[0];
    for (std::int64_t i = 1; i < n; ++i) acc += a[i] * b[i];
    return acc;
  } else {
    E::tally({.mul = n, .add = n - 1});
    touch<E>(a, n), touch<E>(b, n);
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

// x <- a x.  mul n.
template <class E>
void scale(S<E>* x, std::int64_t n, S<E> a) {
  if constexpr (kScalarLevel<E>) {
    for (std::int64_t i = 0; i < n; ++i) x[i] *= a;
  } else {
    E::tally({.mul = n});
    touch<E>(x, n);
    VecMap<S<E>>(x, n) *= a;
  }
}

// x <- x / a.  div n.
template <class E>
void divide(S<E>* x, std::int64_t n, S<E> a) {
  if constexpr (kScalarLevel<E>) {
    for (std::int64_t i = 0; i < n; ++i) x[i] /= a;
  } else {
    E::tally({.div = n});
    touch<E>(x, n);
    VecMap<S<E>>(x, n) /= a;
  }
}

// y <- y + a x (sign +1) or y - a x (sign -1).  mul n, add n.
template <class E>
void axpy(S<E> a, const S<E>* x, S<E>* y, std::int64_t n, int sign = +1) {
  if constexpr (kScalarLevel<E>) {
    if (sign > 0)
      for (std::int64_t i = 0; i < n; ++i) y[i] += a * x[i];
    else
      for (std::int64_t i = 0; i < n; ++i) y[i] -= a * x[i];
  } else {
    E::tally({.mul = n, .add = n});
    touch<E>(x, n), touch<E>(y, n);
    if (sign > 0)
      VecMap<S<E>>(y, n) += a * VecCMap<S<E>>(x, n);
    else
      VecMap<S<E>>(y, n) -= a * VecCMap<S<E>>(x, n);
  }
}

// y <- y + x (sign +1) or y - x (sign -1).  add n.
template <class E>
void add(const S<E>* x, S<E>* y, std::int64_t n, int sign = +1) {
  if constexpr (kScalarLevel<E>) {
    if (sign > 0)
      for (std::int64_t i = 0; i < n; ++i) y[i] += x[i];
    else
      for (std::int64_t i = 0; i < n; ++i) y[i] -= x[i];
  } else {
    E::tally({.add = n});
    touch<E>(x, n), touch<E>(y, n);
    if (sign > 0)
      VecMap<S<E>>(y, n) += VecCMap<S<E>>(x, n);
    else
      VecMap<S<E>>(y, n) -= VecCMap<S<E>>(x, n);
  }
}

// The exponentials and running sums of retro_update and retro_update_cols:
// e <- exp(e [- c]) for e_old and e_new, then sums <- sums - e_old + e_new. Counted by the
// scalar level as two exp_inplace and two add; uncounted otherwise (retro_counts has them).
template <class E>
void retro_exp_sums(S<E>* e_old, S<E>* e_new, S<E>* sums, std::int64_t r, const Shift<S<E>>& s) {
  if constexpr (kScalarLevel<E>) {
    exp_inplace<E>(e_old, r, s);
    exp_inplace<E>(e_new, r, s);
    add<E>(e_old, sums, r, -1);
    add<E>(e_new, sums, r, +1);
  } else {
    VecMap<S<E>> eo(e_old, r), en(e_new, r), sm(sums, r);
    if (s.on) {
      eo = (eo.array() - s.c).exp();
      en = (en.array() - s.c).exp();
    } else {
      eo = eo.array().exp();
      en = en.array().exp();
    }
    sm = sm - eo + en;
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
// with e_old, e_new (x.rows() each) receiving the exponentials. It reads x and y once each,
// where the ops it fuses read them twice, and counts exactly those ops: gemm_nt 1 x r x d and
// exp_inplace (shift s) of r, each twice, add r twice, and 2r axpy of y.cols().
template <class E>
void retro_update(MatCRef<S<E>> x, const S<E>* k_old, const S<E>* k_new, const S<E>* v_old,
                  const S<E>* v_new, S<E>* e_old, S<E>* e_new, S<E>* sums, MatRef<S<E>> y,
                  const Shift<S<E>>& s) {
  const std::int64_t r = x.rows(), d = x.cols(), dv = y.cols();
  if constexpr (kScalarLevel<E>) {
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
    E::tally(retro_counts(r, d, dv, s.on));
    touch<E>(x), touch<E>(k_old, d), touch<E>(k_new, d), touch<E>(e_old, r), touch<E>(e_new, r);
    touch<E>(sums, r), touch<E>(v_old, dv), touch<E>(v_new, dv), touch<E>(y);
    for (std::int64_t i = 0; i < r; ++i)  // both dot products while x_i is in L1
      kernels::dot2(x.row(i).data(), k_old, k_new, d, &e_old[i], &e_new[i]);
    retro_exp_sums<E>(e_old, e_new, sums, r, s);
    for (std::int64_t i = 0; i < r; ++i)
      kernels::sub_add_scaled(&y(i, 0), e_old[i], v_old, e_new[i], v_new, dv);
  }
}

// retro_update on a state stored transposed (a row per feature, a column per state row):
// xt is d x r and yt is dv x r; k_old, k_new (d x 1) and v_old, v_new (dv x 1) are columns,
// which may be columns of a transposed ring. The loops run along the r state rows, so short
// feature vectors (Table III: d = 12 per head) do not end every dot product in a horizontal
// sum. Same results and the same count as retro_update.
template <class E>
void retro_update_cols(MatCRef<S<E>> xt, MatCRef<S<E>> k_old, MatCRef<S<E>> k_new,
                       MatCRef<S<E>> v_old, MatCRef<S<E>> v_new, S<E>* e_old, S<E>* e_new,
                       S<E>* sums, MatRef<S<E>> yt, const Shift<S<E>>& s) {
  const std::int64_t r = xt.cols(), d = xt.rows(), dv = yt.rows();
  using Row = Eigen::Map<Mat<S<E>>>;
  if constexpr (kScalarLevel<E>) {
    gemm_tn<E>(k_old, xt, Row(e_old, 1, r));
    gemm_tn<E>(k_new, xt, Row(e_new, 1, r));
    retro_exp_sums<E>(e_old, e_new, sums, r, s);
    for (std::int64_t i = 0; i < r; ++i)
      for (std::int64_t l = 0; l < dv; ++l) {
        yt(l, i) -= e_old[i] * v_old(l, 0);
        yt(l, i) += e_new[i] * v_new(l, 0);
      }
  } else {
    E::tally(retro_counts(r, d, dv, s.on));
    touch<E>(xt), touch<E>(k_old), touch<E>(k_new), touch<E>(e_old, r), touch<E>(e_new, r);
    touch<E>(sums, r), touch<E>(v_old), touch<E>(v_new), touch<E>(yt);
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

// out_i = sum_j x_ij.  add r*(c-1).
template <class E>
void row_sums(MatCRef<S<E>> x, S<E>* out) {
  touch<E>(out, x.rows());
  for (std::int64_t i = 0; i < x.rows(); ++i) out[i] = sum<E>(x.row(i).data(), x.cols());
}

// x <- exp(x) and out_i = sum_j x_ij, a row at a time while it is in L1: exp_inplace then
// row_sums in one pass.  exp r*c, add r*(c-1).
template <class E>
void exp_row_sums(MatRef<S<E>> x, S<E>* out) {
  if constexpr (kScalarLevel<E>) {
    exp_inplace<E>(x);
    row_sums<E>(x, out);
  } else {
    E::tally({.add = x.rows() * (x.cols() - 1), .exp = x.rows() * x.cols()});
    touch<E>(x), touch<E>(out, x.rows());
    for (std::int64_t i = 0; i < x.rows(); ++i) {
      VecMap<S<E>> row(x.row(i).data(), x.cols());
      row = row.array().exp();
      out[i] = row.sum();
    }
  }
}

// x_ij <- s_i x_ij.  mul r*c.
template <class E>
void scale_rows(MatRef<S<E>> x, const S<E>* s) {
  touch<E>(s, x.rows());
  for (std::int64_t i = 0; i < x.rows(); ++i) scale<E>(&x(i, 0), x.cols(), s[i]);
}

// dst = a src (matrices of one shape): a copy and a scaling in one pass.  mul r*c.
template <class E>
void scale_into(MatCRef<S<E>> src, S<E> a, MatRef<S<E>> dst) {
  if constexpr (kScalarLevel<E>) {
    for (std::int64_t i = 0; i < src.rows(); ++i)
      for (std::int64_t j = 0; j < src.cols(); ++j) dst(i, j) = src(i, j) * a;
  } else {
    E::tally({.mul = src.rows() * src.cols()});
    touch<E>(src), touch<E>(dst);
    dst = src * a;
  }
}

// dst_ij = s_i src_ij: scale_rows into another matrix of the same shape, one pass instead of
// a copy and a scaling pass. With src_transposed, src is stored transposed (c x r) and
// dst_ij = s_i src_ji.  mul r*c.
template <class E>
void scale_rows_into(MatCRef<S<E>> src, const S<E>* s, MatRef<S<E>> dst,
                     bool src_transposed = false) {
  const std::int64_t r = dst.rows(), c = dst.cols();
  if constexpr (kScalarLevel<E>) {
    for (std::int64_t i = 0; i < r; ++i)
      for (std::int64_t j = 0; j < c; ++j)
        dst(i, j) = (src_transposed ? src(j, i) : src(i, j)) * s[i];
  } else {
    E::tally({.mul = r * c});
    touch<E>(s, r), touch<E>(src), touch<E>(dst);
    if (!src_transposed) {
      for (std::int64_t i = 0; i < r; ++i)
        kernels::scaled_copy(src.row(i).data(), s[i], dst.row(i).data(), c);
    } else if (c < 16) {  // fewer columns than a tile (Table III: 12): src by rows, dst by columns
      for (std::int64_t j = 0; j < c; ++j) {
        const S<E>* in = src.row(j).data();
        for (std::int64_t i = 0; i < r; ++i) dst(i, j) = in[i] * s[i];
      }
    } else {
      // In tiles of 16 x 16: reading whole columns of src would take a cache line for every
      // element once src is larger than L1.
      constexpr std::int64_t kTile = 16;
      for (std::int64_t i = 0; i < r; i += kTile)
        for (std::int64_t j = 0; j < c; j += kTile) {
          const std::int64_t ri = std::min(kTile, r - i), cj = std::min(kTile, c - j);
          dst.block(i, j, ri, cj) =
              VecCMap<S<E>>(s + i, ri).asDiagonal() * src.block(j, i, cj, ri).transpose();
        }
    }
  }
}

// x <- a x.  mul r*c.
template <class E>
void scale(MatRef<S<E>> x, S<E> a) {
  for (std::int64_t i = 0; i < x.rows(); ++i) scale<E>(&x(i, 0), x.cols(), a);
}

// out = c I - x (square).  add r*r: c - x_ii on the diagonal, -x_ij elsewhere.
template <class E>
void shifted_negation(MatCRef<S<E>> x, S<E> c, MatRef<S<E>> out) {
  const std::int64_t r = x.rows();
  if constexpr (kScalarLevel<E>) {
    for (std::int64_t i = 0; i < r; ++i)
      for (std::int64_t j = 0; j < r; ++j) out(i, j) = i == j ? c - x(i, j) : -x(i, j);
  } else {
    E::tally({.add = r * r});
    touch<E>(x), touch<E>(out);
    out = -x;
    out.diagonal().array() += c;
  }
}

// max_i sum_j |x_ij| (the infinity norm).  other r*c + (r-1), add r*(c-1).
template <class E>
S<E> max_abs_row_sum(MatCRef<S<E>> x) {
  const std::int64_t r = x.rows(), c = x.cols();
  if constexpr (kScalarLevel<E>) {
    S<E> best;
    for (std::int64_t i = 0; i < r; ++i) {
      S<E> acc = abs(x(i, 0));
      for (std::int64_t j = 1; j < c; ++j) acc += abs(x(i, j));
      best = i == 0 ? acc : max(best, acc);
    }
    return best;
  } else {
    E::tally({.add = r * (c - 1), .other = r * c + (r - 1)});
    touch<E>(x);
    return x.cwiseAbs().rowwise().sum().maxCoeff();
  }
}

// max_j sum_i |x_ij| (the 1-norm).  other r*c + (c-1), add c*(r-1).
template <class E>
S<E> max_abs_col_sum(MatCRef<S<E>> x) {
  const std::int64_t r = x.rows(), c = x.cols();
  if constexpr (kScalarLevel<E>) {
    S<E> best;
    for (std::int64_t j = 0; j < c; ++j) {
      S<E> acc = abs(x(0, j));
      for (std::int64_t i = 1; i < r; ++i) acc += abs(x(i, j));
      best = j == 0 ? acc : max(best, acc);
    }
    return best;
  } else {
    E::tally({.add = c * (r - 1), .other = r * c + (c - 1)});
    touch<E>(x);
    return x.cwiseAbs().colwise().sum().maxCoeff();
  }
}

// ---- Whole-model ops (attention/encoder.hpp: LayerNorm, biases, activations) ----

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
  if constexpr (kScalarLevel<E>) {
    if (sign > 0)
      for (std::int64_t i = 0; i < n; ++i) x[i] += c;
    else
      for (std::int64_t i = 0; i < n; ++i) x[i] -= c;
  } else {
    E::tally({.add = n});
    touch<E>(x, n);
    VecMap<S<E>>(x, n).array() += sign > 0 ? c : -c;
  }
}

// y <- y .* w, element-wise.  mul n.
template <class E>
void multiply(const S<E>* w, S<E>* y, std::int64_t n) {
  if constexpr (kScalarLevel<E>) {
    for (std::int64_t i = 0; i < n; ++i) y[i] *= w[i];
  } else {
    E::tally({.mul = n});
    touch<E>(w, n), touch<E>(y, n);
    VecMap<S<E>>(y, n).array() *= VecCMap<S<E>>(w, n).array();
  }
}

// x <- max(x, 0).  other n (one comparison each).
template <class E>
void relu_inplace(S<E>* x, std::int64_t n) {
  if constexpr (kScalarLevel<E>) {
    const S<E> zero(0.0);
    for (std::int64_t i = 0; i < n; ++i) x[i] = max(x[i], zero);
  } else {
    E::tally({.other = n});
    touch<E>(x, n);
    VecMap<S<E>>(x, n) = VecMap<S<E>>(x, n).cwiseMax(S<E>(0));
  }
}

// GELU, tanh form: x / (1 + exp(-2 sqrt(2/pi) (x + 0.044715 x^3))), which is
// 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))) written through one exponential.
// mul 4, add 2, div 1, exp 1 per element. exp overflows to inf for very negative x, and the
// quotient is then -0, the function's limit.
template <class E>
void gelu_inplace(S<E>* x, std::int64_t n) {
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
    E::tally({.mul = 4 * n, .add = 2 * n, .div = n, .exp = n});
    touch<E>(x, n);
    auto a = VecMap<S<E>>(x, n).array();
    using T = S<E>;
    a = a / (((a * a * a * T(kCubic) + a) * T(k2)).exp() + T(1));
  }
}

}  // namespace cosda::ops
