// Head-minor ops: element (a, b) of head i's r x c matrix at (a c + b) h + i, so each op loops over
// the h heads rather than c (Table III: dh = 12, m = 4); a heads-order token of width h w is a
// 1 x w matrix per head. For ny's landmarks and cony_si_fix's batched heads; counted per head.
#pragma once

#include <Eigen/Core>
#include <algorithm>
#include <cstdint>

#include "attention/kernels/elementwise.hpp"
#include "attention/ops/core.hpp"
#include "attention/ops/elementwise.hpp"
#include "attention/ops/retro.hpp"

namespace cosda::ops {

namespace detail {

// f(i, Heads<E, w>{}) for blocks of a cache line of heads [i, i + w), then single heads. A block is
// a fixed-size Eigen array, so it runs in whole packets whatever h is; scalar level: one head.
template <class E, std::int64_t W>
using Heads = Eigen::Array<S<E>, W, 1>;
template <class E, class F>
[[gnu::always_inline]] inline void for_head_blocks(std::int64_t h, F f) {
  constexpr std::int64_t kBlock = kScalarLevel<E> ? 1 : 64 / std::int64_t(sizeof(S<E>));
  std::int64_t i = 0;
  for (; i + kBlock <= h; i += kBlock) f(i, Heads<E, kBlock>{});
  for (; i < h; ++i) f(i, Heads<E, 1>{});
}

// One head in the timed build: its head-minor matrix is its own row-major one, so the ops below
// run the one-head seam's kernels (vectors along rows) instead; the same operations.
template <class E>
constexpr bool one_head(std::int64_t h) {
  return !kScalarLevel<E> && h == 1;
}

// y = x z (r x k by k x c), or x z^T (z c x k), all row-major: gemm's timed kernels.
template <class T>
void one_head_product(bool trans_b, std::int64_t r, std::int64_t k, std::int64_t c, const T* x,
                      const T* z, T* y) {
  const Eigen::Map<const Mat<T>> a(x, r, k), b(z, trans_b ? c : k, trans_b ? k : c);
  Eigen::Map<Mat<T>> out(y, r, c);
  if (r == 1) return row_product<T>(trans_b, a, b, out);
  block_product<T>(path_of<T>(false, trans_b, r, c, k), false, trans_b, a, b, out);
}

// The block of heads at p.
template <class A>
Eigen::Map<const A> at(const typename A::Scalar* p) {
  return Eigen::Map<const A>(p);
}
template <class A>
Eigen::Map<A> at(typename A::Scalar* p) {
  return Eigen::Map<A>(p);
}

}  // namespace detail

// y = x head-minor for a heads-order token x of width h w: y[l h + i] = x[i w + l]. No arithmetic.
template <class E>
void heads_minor_from_heads(std::int64_t h, std::int64_t w, const S<E>* x, S<E>* y) {
  begin_op<E>(), in<E>(x, h * w), out<E>(y, h * w);
  if (skip_arithmetic<E>()) return;
  if constexpr (kScalarLevel<E>)
    for (std::int64_t l = 0; l < w; ++l)
      for (std::int64_t i = 0; i < h; ++i) y[l * h + i] = x[i * w + l];
  else if (h == 1 || w == 1)
    std::copy_n(x, h * w, y);
  else
    kernels::transpose(h, w, x, w, y, h);
}

// The inverse: y[i w + l] = x[l h + i], the w x h x transposed. No arithmetic.
template <class E>
void heads_minor_to_heads(std::int64_t h, std::int64_t w, const S<E>* x, S<E>* y) {
  heads_minor_from_heads<E>(w, h, x, y);
}

// y = every head's w x w matrix of x (head-minor: head i's (r, c) at (r w + c) h + i)
// transposed, head after head: head i's (c, r) at y[(i w + c) w + r].
template <class E>
void heads_minor_transpose_to_heads(std::int64_t h, std::int64_t w, const S<E>* x, S<E>* y) {
  begin_op<E>(), in<E>(x, h * w * w), out<E>(y, h * w * w);
  if (skip_arithmetic<E>()) return;
  for (std::int64_t i = 0; i < h; ++i)
    for (std::int64_t c = 0; c < w; ++c)
      for (std::int64_t r = 0; r < w; ++r) y[(i * w + c) * w + r] = x[(r * w + c) * h + i];
}

namespace detail {

// y_i(a, b) = sum_l x_i(a, l) z_i(l, b), first to last, z_i(l, b) at (l zl + b zb) h + i: four
// columns at a time, four independent multiply-add chains (a head's dot product is short, k = 12).
template <class E>
void heads_minor_product(std::int64_t r, std::int64_t k, std::int64_t c, std::int64_t h,
                         const S<E>* x, const S<E>* z, std::int64_t zl, std::int64_t zb, S<E>* y) {
  for_head_blocks<E>(h, [=]<class A>(std::int64_t i, A) {
    const auto columns = [=]<int N>(std::int64_t a, std::int64_t b) {
      const S<E>* xa = x + a * k * h + i;
      const S<E>* zbt = z + b * zb * h + i;
      A acc[N];
      for (int t = 0; t < N; ++t) acc[t] = at<A>(xa) * at<A>(zbt + t * zb * h);
      for (std::int64_t l = 1; l < k; ++l)
        for (int t = 0; t < N; ++t)
          acc[t] += at<A>(xa + l * h) * at<A>(zbt + (l * zl + t * zb) * h);
      for (int t = 0; t < N; ++t) at<A>(y + (a * c + b + t) * h + i) = acc[t];
    };
    for (std::int64_t a = 0; a < r; ++a) {
      std::int64_t b = 0;
      for (; b + 4 <= c; b += 4) columns.template operator()<4>(a, b);
      for (; b < c; ++b) columns.template operator()<1>(a, b);
    }
  });
}

}  // namespace detail

// y_i = x_i z_i (r x k by k x c) for every head: gemm_nn per head, each sum first to last;
// y aliases neither.  mul h r c k, add h r c (k-1).
template <class E>
void heads_minor_gemm(std::int64_t r, std::int64_t k, std::int64_t c, std::int64_t h, const S<E>* x,
                      const S<E>* z, S<E>* y) {
  begin_op<E>(), in<E>(x, h * r * k), in<E>(z, h * k * c), out<E>(y, h * r * c);
  const bool heap_free = detail::one_head<E>(h) && gemm_heap_free<E>(false, false, r, c, k);
  if (tally_skip<E>({.mul = h * r * c * k, .add = h * r * c * (k - 1)}, heap_free)) return;
  if (detail::one_head<E>(h)) return detail::one_head_product<S<E>>(false, r, k, c, x, z, y);
  detail::heads_minor_product<E>(r, k, c, h, x, z, c, 1, y);
}

// y_i = x_i z_i^T (r x k by (c x k)^T) per head (gemm_nt).  mul h r c k, add h r c (k-1).
template <class E>
void heads_minor_gemm_nt(std::int64_t r, std::int64_t k, std::int64_t c, std::int64_t h,
                         const S<E>* x, const S<E>* z, S<E>* y) {
  begin_op<E>(), in<E>(x, h * r * k), in<E>(z, h * c * k), out<E>(y, h * r * c);
  const bool heap_free = detail::one_head<E>(h) && gemm_heap_free<E>(false, true, r, c, k);
  if (tally_skip<E>({.mul = h * r * c * k, .add = h * r * c * (k - 1)}, heap_free)) return;
  if (detail::one_head<E>(h)) return detail::one_head_product<S<E>>(true, r, k, c, x, z, y);
  detail::heads_minor_product<E>(r, k, c, h, x, z, 1, k, y);
}

// sums_i(a) = the sum of row a of x_i (r x c), first to last, for every head: row_sums per
// head; sums is r x 1 head-minor.  add h r (c-1).
template <class E>
void heads_minor_row_sums(std::int64_t r, std::int64_t c, std::int64_t h, const S<E>* x,
                          S<E>* sums) {
  begin_op<E>(), in<E>(x, h * r * c), out<E>(sums, h * r);
  if (tally_skip<E>({.add = h * r * (c - 1)})) return;
  detail::for_head_blocks<E>(h, [=]<class A>(std::int64_t i, A) {
    using detail::at;
    for (std::int64_t a = 0; a < r; ++a) {
      const S<E>* row = x + a * c * h + i;
      A acc = at<A>(row);
      for (std::int64_t b = 1; b < c; ++b) acc += at<A>(row + b * h);
      at<A>(sums + a * h + i) = acc;
    }
  });
}

// Rows of every head's r x c matrix divided by their sums: row_sums, reciprocals and scale_rows
// per head (normalize_rows); sums: h r scratch.  add h r (c-1), div h r, mul h r c.
template <class E>
void heads_minor_normalize_rows(std::int64_t r, std::int64_t c, std::int64_t h, S<E>* x,
                                S<E>* sums) {
  begin_op<E>(), inout<E>(x, h * r * c), out<E>(sums, h * r);
  if (tally_skip<E>({.mul = h * r * c, .add = h * r * (c - 1), .div = h * r})) return;
  detail::for_head_blocks<E>(h, [=]<class A>(std::int64_t i, A) {
    using detail::at;
    for (std::int64_t a = 0; a < r; ++a) {
      S<E>* row = x + a * c * h + i;
      A acc = at<A>(row);
      for (std::int64_t b = 1; b < c; ++b) acc += at<A>(row + b * h);
      acc = S<E>(1) / acc;
      at<A>(sums + a * h + i) = acc;
      for (std::int64_t b = 0; b < c; ++b) at<A>(row + b * h) *= acc;
    }
  });
}

// y_i(a, b) = s_i(a) x_i(a, b) for every head's r x c matrix, s r x 1 head-minor: scale_rows
// per head; y may be x.  mul h r c.
template <class E>
void heads_minor_scale_rows(std::int64_t r, std::int64_t c, std::int64_t h, const S<E>* x,
                            const S<E>* s, S<E>* y) {
  begin_op<E>(), in<E>(x, h * r * c), in<E>(s, h * r), out<E>(y, h * r * c);
  if (tally_skip<E>({.mul = h * r * c})) return;
  if constexpr (!kScalarLevel<E>)
    if (h == 1) {  // detail::one_head
      for (std::int64_t a = 0; a < r; ++a) kernels::scaled_copy(x + a * c, s[a], y + a * c, c);
      return;
    }
  detail::for_head_blocks<E>(h, [=]<class A>(std::int64_t i, A) {
    using detail::at;
    for (std::int64_t a = 0; a < r; ++a) {
      const A sa = at<A>(s + a * h + i);
      for (std::int64_t b = 0; b < c; ++b) {
        const std::int64_t ab = (a * c + b) * h + i;
        at<A>(y + ab) = at<A>(x + ab) * sa;
      }
    }
  });
}

namespace detail {

// y_i(a, b) <- y_i(a, b) - w_old_i(a) v_old_i(b) + w_new_i(a) v_new_i(b) for every head: the
// rows' side of retro_update and slide_sums (w r x 1, v 1 x dv, y_i r x dv).
template <class E>
void slide_rows(std::int64_t r, std::int64_t dv, std::int64_t h, const S<E>* w_old,
                const S<E>* w_new, const S<E>* v_old, const S<E>* v_new, S<E>* y) {
  if (one_head<E>(h)) {
    for (std::int64_t a = 0; a < r; ++a)
      kernels::sub_add_scaled(y + a * dv, w_old[a], v_old, w_new[a], v_new, dv);
    return;
  }
  for_head_blocks<E>(h, [=]<class A>(std::int64_t i, A) {
    for (std::int64_t a = 0; a < r; ++a) {
      const A wo = at<A>(w_old + a * h + i), wn = at<A>(w_new + a * h + i);
      for (std::int64_t b = 0; b < dv; ++b) {
        S<E>* yab = y + (a * dv + b) * h + i;
        at<A>(yab) = at<A>(yab) - wo * at<A>(v_old + b * h + i) + wn * at<A>(v_new + b * h + i);
      }
    }
  });
}

}  // namespace detail

// retro_update (ops/retro.hpp) for every head, head-minor: x_i r x dh, k_old, k_new 1 x dh, v_old,
// v_new 1 x dv, y_i r x dv, e_old, e_new, sums r x 1.  retro_counts(h r, dh, dv).
template <class E>
void heads_minor_retro_update(std::int64_t r, std::int64_t dh, std::int64_t dv, std::int64_t h,
                              const S<E>* x, const S<E>* k_old, const S<E>* k_new,
                              const S<E>* v_old, const S<E>* v_new, S<E>* e_old, S<E>* e_new,
                              S<E>* sums, S<E>* y, const Shift<S<E>>& s) {
  begin_op<E>(), in<E>(x, h * r * dh), in<E>(k_old, h * dh), in<E>(k_new, h * dh);
  in<E>(v_old, h * dv), in<E>(v_new, h * dv), out<E>(e_old, h * r), out<E>(e_new, h * r);
  inout<E>(sums, h * r), inout<E>(y, h * r * dv);
  if (tally_skip<E>(retro_counts(h * r, dh, dv, s.on))) return;
  const OneOp<E> one;              // the exponentials' ops at the scalar level
  if constexpr (!kScalarLevel<E>)  // its exponentials have no scalar-level kernel
    if (detail::one_head<E>(h))    // retro_update's timed kernels
      return detail::retro_rows<S<E>>(r, dh, dv, x, dh, k_old, k_new, v_old, v_new, e_old, e_new,
                                      sums, y, dv, s);
  detail::for_head_blocks<E>(h, [=]<class A>(std::int64_t i, A) {
    using detail::at;
    for (std::int64_t a = 0; a < r; ++a) {  // both dot products of a row in one pass
      const S<E>* xa = x + a * dh * h + i;
      A eo = at<A>(xa) * at<A>(k_old + i), en = at<A>(xa) * at<A>(k_new + i);
      for (std::int64_t l = 1; l < dh; ++l) {
        eo += at<A>(xa + l * h) * at<A>(k_old + l * h + i);
        en += at<A>(xa + l * h) * at<A>(k_new + l * h + i);
      }
      at<A>(e_old + a * h + i) = eo;
      at<A>(e_new + a * h + i) = en;
    }
  });
  retro_exp_sums<E>(e_old, e_new, sums, h * r, s);
  detail::slide_rows<E>(r, dv, h, e_old, e_new, v_old, v_new, y);
}

// slide_sums (ops/retro.hpp) for every head, head-minor: the token (a_old r x 1, v_old 1 x dv)
// leaves sums (r x 1) and y_i (r x dv), (a_new, v_new) enters.  mul 2 h r dv, add 2 h r dv + 2 h r.
template <class E>
void heads_minor_slide_sums(std::int64_t r, std::int64_t dv, std::int64_t h, const S<E>* a_old,
                            const S<E>* a_new, const S<E>* v_old, const S<E>* v_new, S<E>* sums,
                            S<E>* y) {
  begin_op<E>(), in<E>(a_old, h * r), in<E>(a_new, h * r), in<E>(v_old, h * dv);
  in<E>(v_new, h * dv), inout<E>(sums, h * r), inout<E>(y, h * r * dv);
  if (tally_skip<E>({.mul = 2 * h * r * dv, .add = 2 * h * r * dv + 2 * h * r})) return;
  detail::for_head_blocks<E>(h, [=]<class A>(std::int64_t i, A) {
    using detail::at;
    for (std::int64_t a = 0; a < r; ++a)
      at<A>(sums + a * h + i) =
          at<A>(sums + a * h + i) - at<A>(a_old + a * h + i) + at<A>(a_new + a * h + i);
  });
  detail::slide_rows<E>(r, dv, h, a_old, a_new, v_old, v_new, y);
}

// The token (a r x 1, v 1 x dv) enters every head's sums (r x 1) and y_i (r x dv), none leaves:
// z += a and S += a v^T per head (add, r axpys).  mul h r dv, add h r + h r dv.
template <class E>
void heads_minor_enter(std::int64_t r, std::int64_t dv, std::int64_t h, const S<E>* a,
                       const S<E>* v, S<E>* sums, S<E>* y) {
  begin_op<E>(), in<E>(a, h * r), in<E>(v, h * dv), inout<E>(sums, h * r);
  inout<E>(y, h * r * dv);
  if (tally_skip<E>({.mul = h * r * dv, .add = h * r + h * r * dv})) return;
  if (detail::one_head<E>(h)) {
    for (std::int64_t b = 0; b < r; ++b) {
      sums[b] = sums[b] + a[b];
      for (std::int64_t l = 0; l < dv; ++l) y[b * dv + l] = y[b * dv + l] + a[b] * v[l];
    }
    return;
  }
  detail::for_head_blocks<E>(h, [=]<class A>(std::int64_t i, A) {
    using detail::at;
    for (std::int64_t b = 0; b < r; ++b) {
      const A ab = at<A>(a + b * h + i);
      at<A>(sums + b * h + i) = at<A>(sums + b * h + i) + ab;
      for (std::int64_t l = 0; l < dv; ++l) {
        S<E>* ybl = y + (b * dv + l) * h + i;
        at<A>(ybl) = at<A>(ybl) + ab * at<A>(v + l * h + i);
      }
    }
  });
}

// u_i = x_i W^T for every head with one shared W (c x k, row-major), x_i 1 x k, u_i 1 x c: gemm_nt
// of the h x k rows by W.  mul h c k, add h c (k-1).
template <class E>
void heads_minor_gemm_nt_shared(std::int64_t k, std::int64_t c, std::int64_t h, const S<E>* x,
                                MatCRef<S<E>> w, S<E>* u) {
  begin_op<E>(), in<E>(x, h * k), in<E>(w), out<E>(u, h * c);
  if (tally_skip<E>({.mul = h * c * k, .add = h * c * (k - 1)})) return;
  if (detail::one_head<E>(h))
    return row_product<S<E>>(true, Eigen::Map<const Mat<S<E>>>(x, 1, k), w,
                             Eigen::Map<Mat<S<E>>>(u, 1, c));
  detail::for_head_blocks<E>(h, [=]<class A>(std::int64_t i, A) {
    using detail::at;
    const auto columns = [=]<int N>(std::int64_t b) {  // N independent chains, as in products
      A acc[N];
      for (int t = 0; t < N; ++t) acc[t] = at<A>(x + i) * w(b + t, 0);
      for (std::int64_t l = 1; l < k; ++l)
        for (int t = 0; t < N; ++t) acc[t] += at<A>(x + l * h + i) * w(b + t, l);
      for (int t = 0; t < N; ++t) at<A>(u + (b + t) * h + i) = acc[t];
    };
    std::int64_t b = 0;
    for (; b + 4 <= c; b += 4) columns.template operator()<4>(b);
    for (; b < c; ++b) columns.template operator()<1>(b);
  });
}

// heads_key_exp (ops/heads.hpp) head-minor, u m x 1, k 1 x dh:
// u_i <- exp(u_i - (k_i . k_i) a [- c]).  mul h (dh+1), add h (dh-1) + h m (+ h shifted), exp h m.
template <class E>
void heads_minor_key_exp(std::int64_t m, std::int64_t dh, std::int64_t h, const S<E>* k, S<E> a,
                         const Shift<S<E>>& shift, S<E>* u) {
  begin_op<E>(), in<E>(k, h * dh), inout<E>(u, h * m);
  if (skip_arithmetic<E>())  // the count of the arithmetic below
    return tally<E>(
        {.mul = h * (dh + 1), .add = h * (dh - 1) + h * m + (shift.on ? h : 0), .exp = h * m});
  const OneOp<E> one;  // the exponentials' op at the scalar level
  tally<E>({.mul = h * (dh + 1), .add = h * (dh - 1) + h * m + (shift.on ? h : 0)});
  if (detail::one_head<E>(h)) {  // the head's dot product by the vector kernel (ops::dot)
    S<E> offset = VecCMap<S<E>>(k, dh).dot(VecCMap<S<E>>(k, dh)) * a;
    if (shift.on) offset += shift.c;
    for (std::int64_t b = 0; b < m; ++b) u[b] -= offset;
    return exp_inplace<E>(u, m);
  }
  detail::for_head_blocks<E>(h, [=]<class A>(std::int64_t i, A) {
    using detail::at;
    A offset = at<A>(k + i) * at<A>(k + i);
    for (std::int64_t l = 1; l < dh; ++l) offset += at<A>(k + l * h + i) * at<A>(k + l * h + i);
    offset *= a;
    if (shift.on) offset += shift.c;
    for (std::int64_t b = 0; b < m; ++b) at<A>(u + b * h + i) -= offset;
  });
  exp_inplace<E>(u, h * m);
}

// u_i <- exp(u_i - max u_i) for every head, head-minor (u m x 1): the random-feature queries'
// stabiliser, as heads_max_exp (ops/heads.hpp).  add h m, exp h m, other h (m-1).
template <class E>
void heads_minor_max_exp(std::int64_t m, std::int64_t h, S<E>* u) {
  begin_op<E>(), inout<E>(u, h * m);
  if (skip_arithmetic<E>())  // the count of the arithmetic below
    return tally<E>({.add = h * m, .exp = h * m, .other = h * (m - 1)});
  const OneOp<E> one;  // the exponentials' op at the scalar level
  tally<E>({.add = h * m, .other = h * (m - 1)});
  detail::for_head_blocks<E>(h, [=]<class A>(std::int64_t i, A) {
    using detail::at;
    A top = at<A>(u + i);
    for (std::int64_t b = 1; b < m; ++b) {
      const A ub = at<A>(u + b * h + i);
      for (Eigen::Index j = 0; j < top.size(); ++j) {
        using std::max;
        top[j] = max(top[j], ub[j]);
      }
    }
    for (std::int64_t b = 0; b < m; ++b) at<A>(u + b * h + i) -= top;
  });
  exp_inplace<E>(u, h * m);
}

}  // namespace cosda::ops
