// Optional BLAS (COSDA_HAVE_BLAS): row-major products of at least kMinWork multiply-adds go to
// cblas_{s,d}gemm, others stay in Eigen; counts are unchanged. Single-threaded: heads are the unit
// of parallelism (multi_head.hpp). OpenBLAS pools its buffers, but its small-matrix kernels
// allocate on every call (ops::kHeapFreeBlasWork).
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

// Below this many multiply-adds a BLAS call's fixed cost (dispatch, packing) does not pay. A round
// guess between Table III's per-head products and att's and ny's window products at n, d >= 64.
inline constexpr std::int64_t kMinWork = 48 * 48 * 48;

// Whether a product of r x c outputs and depth k goes to BLAS.
template <class T>
constexpr bool takes(std::int64_t r, std::int64_t c, std::int64_t k) {
  return kAvailable && (std::is_same_v<T, float> || std::is_same_v<T, double>)&&r >= 2 && c >= 2 &&
         k >= 1 && r * c * k >= kMinWork;
}

// C (r x c, row stride ldc) = op(A) op(B): A r x k (k x r if trans_a), B k x c (c x k if trans_b).
// Returns false and does nothing when the product stays in Eigen (takes).
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
