// The seam's products (attention/ops/seam.hpp): C = op(A) op(B) and its three forms.
#pragma once

#include <omp.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <map>
#include <mutex>

#include "attention/kernels/blas.hpp"
#include "attention/kernels/shallow_gemm.hpp"
#include "attention/kernels/vector_matrix.hpp"
#include "attention/ops/core.hpp"

namespace cosda::ops {

// Whether the timed build may split a large product among threads: off unless a step turns it on
// (MultiHead, for one head on several threads); the size then decides (product_threads).
inline bool& split_products() {
  thread_local bool on = false;
  return on;
}
// Splits on for one step (MultiHead::split_step, a batched kernel's step_split).
struct SplitScope {
  SplitScope() { split_products() = true; }
  ~SplitScope() { split_products() = false; }
  SplitScope(const SplitScope&) = delete;
  SplitScope& operator=(const SplitScope&) = delete;
};
// Products this thread has split so far: what MultiHead counts as a step on several threads.
inline std::int64_t& split_count() {
  thread_local std::int64_t count = 0;
  return count;
}

// Threads for a product of r rows (or columns) and work multiply-adds when splits are on: as many
// as OpenMP allows outside a parallel region, each with kParallelWork and kSplitRowAlign rows.
inline constexpr std::int64_t kParallelWork = std::int64_t(1) << 20;
// Split parts start at multiples of this many rows (or columns): kernels compute C in blocks
// (OpenBLAS sgemm: of 24 or 48), the partial last one in another order of additions, so a part
// starting off a block boundary would change its rows' bits (docs/performance.md).
inline constexpr std::int64_t kSplitRowAlign = 48;
inline int product_threads(std::int64_t r, std::int64_t work) {
  if (!split_products() || work < 2 * kParallelWork || r < 2 * kSplitRowAlign || omp_in_parallel())
    return 1;
  return int(
      std::min<std::int64_t>({omp_get_max_threads(), work / kParallelWork, r / kSplitRowAlign}));
}
// The first row of part p of a product of r rows split into t (p = t: r).
inline std::int64_t split_row(std::int64_t r, int p, int t) {
  return p == t ? r : r * p / t / kSplitRowAlign * kSplitRowAlign;
}

// A pass over memory (copies, scalings, row sums) splits where each thread gets at least this many
// elements, many times the cost of entering a parallel region (docs/performance.md).
inline constexpr std::int64_t kParallelElements = std::int64_t(1) << 18;
// f(first, count) over parts of [0, r) of whole units, among threads where splits are on and
// `elements` allow, else f(0, r): units are computed alone, so bits do not change. Parts start
// where offset + first is a multiple of align, for passes that peel to aligned addresses (co_re).
template <class E, class F>
void split_pass(std::int64_t r, std::int64_t elements, F&& f, std::int64_t align = 1,
                std::int64_t offset = 0) {
  if constexpr (!E::kCounting) {
    const int t =
        !split_products() || omp_in_parallel()
            ? 1
            : int(std::min<std::int64_t>({omp_get_max_threads(), elements / kParallelElements, r}));
    if (t >= 2) {
      ++split_count();
      const auto start = [&](int p) {
        return p == t ? r
                      : std::max<std::int64_t>(0, (offset + r * p / t) / align * align - offset);
      };
#pragma omp parallel for num_threads(t) schedule(static)
      for (int p = 0; p < t; ++p)
        if (start(p + 1) > start(p)) f(start(p), start(p + 1) - start(p));
      return;
    }
  }
  f(std::int64_t{0}, r);
}

// The timed path's kernel for an r x n product of depth k: shallow, then BLAS, then Eigen.
struct ProductPath {
  kernels::Shallow shallow = kernels::Shallow::kNone;
  bool blas = false;
  bool operator==(const ProductPath&) const = default;
};
template <class T>
ProductPath path_of(bool trans_a, bool trans_b, std::int64_t r, std::int64_t n, std::int64_t k) {
  ProductPath p;
  if (!trans_a) p.shallow = kernels::shallow_kind<T>(trans_b, r, n, k);
  p.blas = p.shallow == kernels::Shallow::kNone && blas::takes<T>(r, n, k);
  return p;
}

// C = op(A) op(B) by `path` (path_of C's shape, or of the product C's rows are part of).
template <class T>
void block_product(const ProductPath& path, bool trans_a, bool trans_b, MatCRef<T> a, MatCRef<T> b,
                   MatRef<T> c) {
  const std::int64_t r = c.rows(), n = c.cols(), k = trans_a ? a.rows() : a.cols();
  if (path.shallow != kernels::Shallow::kNone)
    return kernels::shallow_gemm(path.shallow, trans_b, r, n, k, a.data(), a.outerStride(),
                                 b.data(), b.outerStride(), c.data(), c.outerStride());
  if (path.blas && blas::gemm(trans_a, trans_b, r, n, k, a.data(), a.outerStride(), b.data(),
                              b.outerStride(), c.data(), c.outerStride()))
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

// Whether t parts by columns give this product's unsplit bits on this machine, tried once per
// shape on fixed operands. A BLAS call may compute its first block of columns in another order of
// additions than the rest (OpenBLAS's Haswell and Zen sgemm), so a part's first columns can
// change bits; rows keep them (parts at multiples of kSplitRowAlign).
template <class T>
bool column_split_keeps_bits(const ProductPath& path, bool trans_a, bool trans_b, std::int64_t r,
                             std::int64_t n, std::int64_t k, int t) {
  static std::mutex mutex;
  static std::map<std::array<std::int64_t, 6>, bool> known;
  const std::lock_guard lock(mutex);
  const auto [at, fresh] = known.try_emplace({trans_a, trans_b, r, n, k, t}, false);
  if (!fresh) return at->second;
  const auto fixed = [](std::int64_t rows, std::int64_t cols) {
    return Mat<T>(Mat<T>::NullaryExpr(rows, cols, [](Eigen::Index i, Eigen::Index j) {
      return T(((i * 7919 + j * 104729) % 2003) - 1001) / T(1001);
    }));
  };
  const Mat<T> a = trans_a ? fixed(k, r) : fixed(r, k), b = trans_b ? fixed(n, k) : fixed(k, n);
  Mat<T> whole(r, n), split(r, n);
  block_product<T>(path, trans_a, trans_b, a, b, whole);
  for (int p = 0; p < t; ++p) {
    const std::int64_t lo = split_row(n, p, t), part = split_row(n, p + 1, t) - lo;
    block_product<T>(
        path, trans_a, trans_b, a,
        trans_b ? MatCRef<T>(b.middleRows(lo, part)) : MatCRef<T>(b.middleCols(lo, part)),
        split.middleCols(lo, part));
  }
  return at->second = std::memcmp(whole.data(), split.data(), sizeof(T) * r * n) == 0;
}

// C = op(A) op(B) split among threads by rows where product_threads allows, else by columns (the
// landmark products of m rows: ny's Q~ K^T and B V, rf's phi(K)^T V), each part on the whole
// product's kernel so outputs keep their unsplit bits; false (nothing done) otherwise.
template <class T>
bool split_product(bool trans_a, bool trans_b, MatCRef<T> a, MatCRef<T> b, MatRef<T> c) {
  const std::int64_t r = c.rows(), n = c.cols(), k = trans_a ? a.rows() : a.cols();
  const int by_row_threads = product_threads(r, r * n * k);
  const bool by_rows = by_row_threads >= 2;
  const int t = by_rows ? by_row_threads : product_threads(n, r * n * k);
  if (t < 2) return false;
  const std::int64_t size = by_rows ? r : n;
  const ProductPath path = path_of<T>(trans_a, trans_b, r, n, k);
  for (int p = 0; p < t; ++p) {
    const std::int64_t part = split_row(size, p + 1, t) - split_row(size, p, t);
    if (path_of<T>(trans_a, trans_b, by_rows ? part : r, by_rows ? n : part, k) != path)
      return false;
  }
  if (!by_rows && !column_split_keeps_bits<T>(path, trans_a, trans_b, r, n, k, t)) return false;
  ++split_count();
#pragma omp parallel for num_threads(t) schedule(static)
  for (int p = 0; p < t; ++p) {
    const std::int64_t lo = split_row(size, p, t), part = split_row(size, p + 1, t) - lo;
    if (by_rows)
      block_product<T>(
          path, trans_a, trans_b,
          trans_a ? MatCRef<T>(a.middleCols(lo, part)) : MatCRef<T>(a.middleRows(lo, part)), b,
          c.middleRows(lo, part));
    else
      block_product<T>(
          path, trans_a, trans_b, a,
          trans_b ? MatCRef<T>(b.middleRows(lo, part)) : MatCRef<T>(b.middleCols(lo, part)),
          c.middleCols(lo, part));
  }
  return true;
}

// The kernel of a one-row product of n outputs and depth k (row_product): 0 vector_matrix, 1
// matrix_vector, 2 Eigen's matrix-vector kernels.
template <class T>
int row_kernel(bool trans_b, std::int64_t n, std::int64_t k) {
  if (!trans_b && k >= 1 && kernels::vector_matrix_fits<T>(k, n)) return 0;
  if (trans_b && k >= 1 && n * k <= kernels::kMatrixVectorMaxElements<T>) return 1;
  return 2;
}

// C = A op(B) for one row A (1 x k), gemm's timed one-row path: vector_matrix.hpp's kernels where
// they fit, else Eigen's matrix-vector kernels without a dynamic product's dispatch and zeroing.
template <class T>
void row_product(bool trans_b, MatCRef<T> a, MatCRef<T> b, MatRef<T> c) {
  const std::int64_t n = c.cols(), k = a.cols();
  const int kernel = row_kernel<T>(trans_b, n, k);
  if (kernel == 0)
    return kernels::vector_matrix(k, a.data(), b.data(), b.outerStride(), n, c.data());
  if (kernel == 1)
    return kernels::matrix_vector(k, a.data(), b.data(), b.outerStride(), n, c.data());
  auto y = c.row(0).transpose();
  if (trans_b)
    y.noalias() = b * a.row(0).transpose();
  else
    y.noalias() = b.transpose() * a.row(0).transpose();
}

// A one-row product split by outputs, each part reading >= kParallelElements of B, at multiples of
// kSplitRowAlign, on one kernel (bits unchanged); else false, nothing done. co_re's newest row.
template <class T>
bool split_row_product(bool trans_b, MatCRef<T> a, MatCRef<T> b, MatRef<T> c) {
  const std::int64_t n = c.cols(), k = a.cols();
  if (!split_products() || omp_in_parallel() || n < 2 * kSplitRowAlign) return false;
  const int t = int(std::min<std::int64_t>(
      {omp_get_max_threads(), n * k / kParallelElements, n / kSplitRowAlign}));
  if (t < 2) return false;
  const int kernel = row_kernel<T>(trans_b, n, k);
  for (int p = 0; p < t; ++p)
    if (row_kernel<T>(trans_b, split_row(n, p + 1, t) - split_row(n, p, t), k) != kernel)
      return false;
  ++split_count();
#pragma omp parallel for num_threads(t) schedule(static)
  for (int p = 0; p < t; ++p) {
    const std::int64_t lo = split_row(n, p, t), part = split_row(n, p + 1, t) - lo;
    row_product<T>(
        trans_b, a,
        trans_b ? MatCRef<T>(b.middleRows(lo, part)) : MatCRef<T>(b.middleCols(lo, part)),
        c.middleCols(lo, part));
  }
  return true;
}

// gemm's arithmetic outside the scalar level, uncounted and unrecorded (batched ops call it for one
// head under their own count): the timed kernels, shared by Tally, split by threads in Plain only.
template <class E>
void gemm_kernels(bool trans_a, bool trans_b, MatCRef<S<E>> a, MatCRef<S<E>> b, MatRef<S<E>> c) {
  const std::int64_t r = c.rows(), n = c.cols(), k = trans_a ? a.rows() : a.cols();
  if constexpr (!E::kCounting)
    if (r == 1 && !trans_a ? split_row_product<S<E>>(trans_b, a, b, c)
                           : split_product<S<E>>(trans_a, trans_b, a, b, c))
      return;
  if (r == 1 && !trans_a) return row_product<S<E>>(trans_b, a, b, c);
  block_product<S<E>>(path_of<S<E>>(trans_a, trans_b, r, n, k), trans_a, trans_b, a, b, c);
}

// Multiply-adds from which OpenBLAS takes no heap: its small-matrix kernels (AVX-512 cores, up to
// 10^6 multiply-adds) allocate on every call; larger products use its pooled buffers.
inline constexpr std::int64_t kHeapFreeBlasWork = std::int64_t(1) << 22;
// Whether gemm_kernels take no heap (HeapFreeOps holds it), asked by Tally alone (the timed path
// asks nothing): row_product (contiguous rows: Eigen's matrix-vector kernels copy nothing), the
// shallow kernels, OpenBLAS's large products; not Eigen's.
template <class E>
bool gemm_heap_free(bool trans_a, bool trans_b, std::int64_t r, std::int64_t n, std::int64_t k) {
  if constexpr (!E::kCounting || kScalarLevel<E>) return false;
  const ProductPath p = path_of<S<E>>(trans_a, trans_b, r, n, k);
  return (r == 1 && !trans_a) || p.shallow != kernels::Shallow::kNone ||
         (p.blas && r * n * k >= kHeapFreeBlasWork);
}

// C = op(A) op(B), op(X) = X, or X^T when trans_x: the product behind gemm_nt, gemm_nn and
// gemm_tn. C is r x c and the depth is k.  mul r*c*k, add r*c*(k-1).
template <class E>
void gemm(bool trans_a, bool trans_b, MatCRef<S<E>> a, MatCRef<S<E>> b, MatRef<S<E>> c) {
  const std::int64_t r = c.rows(), n = c.cols(), k = trans_a ? a.rows() : a.cols();
  begin_op<E>(), in<E>(a), in<E>(b), out<E>(c);
  const bool heap_free = gemm_heap_free<E>(trans_a, trans_b, r, n, k);
  if (tally_skip<E>({.mul = r * n * k, .add = r * n * (k - 1)}, heap_free)) return;
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
    gemm_kernels<E>(trans_a, trans_b, a, b, c);
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

}  // namespace cosda::ops
