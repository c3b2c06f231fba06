// Optional BLAS for the large products of the plain and tallying paths (ops.hpp).
//
// When the build finds OpenBLAS (COSDA_HAVE_BLAS), a row-major product whose size reaches
// kMinWork multiply-adds goes to cblas_{s,d}gemm; smaller ones, and every vector-matrix
// product, stay in Eigen, whose inline code has no call overhead. Either way the product is
// the same mathematical operation and the seam's count (the textbook count) is unchanged.
// BLAS runs single-threaded: heads are the unit of parallelism (multi_head.hpp), and a step
// timed on one thread must use one. Debian's OpenBLAS keeps its buffers in a pool made on
// first use, so a steady-state step does not allocate through it either.
#pragma once

#include <cstdint>
#include <type_traits>

#ifdef COSDA_HAVE_BLAS
#include <cblas.h>
#endif

namespace cosda::blas {

#ifdef COSDA_HAVE_BLAS
inline constexpr bool kAvailable = true;
#else
inline constexpr bool kAvailable = false;
#endif

// Below this many multiply-adds (rows * cols * depth) a product stays in Eigen: a BLAS call has
// a fixed cost (dispatch, packing) that small products cannot amortize. The
// value is a round guess between the per-head products of Table III (all far below it) and
// the window products of att and ny at n, d >= 64 (above it), not a tuned optimum.
inline constexpr std::int64_t kMinWork = 48 * 48 * 48;

// Whether a product of r x c outputs and depth k goes to BLAS.
template <class T>
constexpr bool takes(std::int64_t r, std::int64_t c, std::int64_t k) {
  return kAvailable && (std::is_same_v<T, float> || std::is_same_v<T, double>)&&r >= 2 && c >= 2 &&
         k >= 1 && r * c * k >= kMinWork;
}

// C (r x c, row stride ldc) = A (r x k, row stride lda), or A^T (trans_a; A is k x r), times
// B^T (trans_b; B is c x k) or B (B is k x c). Returns false (and does nothing) when the
// product should stay in Eigen (takes).
template <class T>
bool gemm(bool trans_a, bool trans_b, std::int64_t r, std::int64_t c, std::int64_t k, const T* a,
          std::int64_t lda, const T* b, std::int64_t ldb, T* out, std::int64_t ldc) {
#ifdef COSDA_HAVE_BLAS
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    if (!takes<T>(r, c, k)) return false;
    static const bool single_threaded = (openblas_set_num_threads(1), true);
    (void)single_threaded;
    const auto ta = trans_a ? CblasTrans : CblasNoTrans;
    const auto tb = trans_b ? CblasTrans : CblasNoTrans;
    if constexpr (std::is_same_v<T, float>)
      cblas_sgemm(CblasRowMajor, ta, tb, int(r), int(c), int(k), 1.0f, a, int(lda), b, int(ldb),
                  0.0f, out, int(ldc));
    else
      cblas_dgemm(CblasRowMajor, ta, tb, int(r), int(c), int(k), 1.0, a, int(lda), b, int(ldb), 0.0,
                  out, int(ldc));
    return true;
  }
#endif
  (void)trans_a, (void)trans_b, (void)r, (void)c, (void)k, (void)a, (void)lda, (void)b, (void)ldb,
      (void)out, (void)ldc;
  return false;
}

}  // namespace cosda::blas
