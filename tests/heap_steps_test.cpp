// The timed path allocates nothing: a steady-state step of every variant, as cosda-bench runs
// it (MultiHead<Plain<T>>: batched heads where the variant has them, heads in parallel on
// every thread OpenMP gives), makes no malloc-family call on any thread. Runs in the Release
// tree (cosda_heap_tests), where the heap hooks are on. And the counted ops that claim to take no
// heap (ops::tally_skip's heap_free, which measured steps skip) take none.
#include <omp.h>

#include <functional>
#include <thread>
#include <vector>

#include "analysis/heap.hpp"
#include "attention/families/landmarks.hpp"
#include "attention/ops/heads_minor.hpp"
#include "attention/ops/heads_rows.hpp"
#include "attention/ops/product.hpp"
#include "attention/ops/rows.hpp"
#include "models/multi_head.hpp"
#include "tests/test_util.hpp"

namespace cosda::test {
namespace {

// Allocations so far on every thread of OpenMP's pool, the calling one included (the pool
// keeps its threads between parallel regions, and heap counters are per thread).
std::int64_t pool_allocations() {
  // One thread: its own counter (a parallel region of one thread may allocate its team).
  if (omp_get_max_threads() == 1) return heap::allocations();
  std::int64_t sum = 0;
#pragma omp parallel reduction(+ : sum)
  sum += heap::allocations();
  return sum;
}

template <class T>
void expect_steady_steps_allocate_nothing(const std::string& id, std::int64_t h, int layers) {
  Config c{.n = 24, .d = 64, .m = 4};
  if (find_variant(id)->landmarks == LandmarkKind::kFixed)
    c.fixed_q = c.fixed_k = random_stream(c.m, c.d, 3);
  // Priming, the thread choice's trials (heads' or one head's plan), then a landmark cycle
  // (n steps) measured.
  using MH = MultiHead<Plain<T>>;
  const std::int64_t warm = 2 * c.n + std::int64_t(MH::kTrialSteps) + 3;
  MH mh(id, c, h, layers);
  const Mat<T> x = random_stream(warm + c.n, 3 * c.d, 4).template cast<T>();
  std::int64_t t = 0;
  for (; t < warm; ++t) mh.step(&x(t, 0), &x(t, c.d), &x(t, 2 * c.d));
  const std::int64_t before = pool_allocations();
  for (; t < x.rows(); ++t) ASSERT_TRUE(mh.step(&x(t, 0), &x(t, c.d), &x(t, 2 * c.d)));
  EXPECT_EQ(pool_allocations() - before, 0)
      << id << " h " << h << " layers " << layers << (mh.batched() ? " (batched)" : "");
}

TEST(HeapHooks, AreOnInThisBinary) {
  ASSERT_TRUE(heap::enabled()) << "cosda_heap_tests must be built without COSDA_NO_HEAP_HOOKS";
  const std::int64_t before = pool_allocations();
  { const Mat<double> m(50, 50); }
  EXPECT_GE(pool_allocations() - before, 1) << "an Eigen matrix is a malloc the hooks see";
}

class TimedSteps : public ::testing::TestWithParam<std::string> {};

TEST_P(TimedSteps, SteadyStateStepAllocatesNothingOnAnyThread) {
  for (const std::int64_t h : {1, 16})
    for (const int layers : {1, 2}) {
      expect_steady_steps_allocate_nothing<double>(GetParam(), h, layers);
      expect_steady_steps_allocate_nothing<float>(GetParam(), h, layers);
    }
}

// The same on one thread: the serial path of MultiHead (and of a batched object).
TEST_P(TimedSteps, SteadyStateStepAllocatesNothingOnOneThread) {
  const int threads = omp_get_max_threads();
  omp_set_num_threads(1);
  for (const std::int64_t h : {1, 16})
    expect_steady_steps_allocate_nothing<double>(GetParam(), h, 1);
  omp_set_num_threads(threads);
}

INSTANTIATE_TEST_SUITE_P(AllVariants, TimedSteps, ::testing::ValuesIn(variant_ids()),
                         [](const auto& info) { return info.param; });

// Allocations on a fresh thread while f runs, after a 1 x 1 product and row op (Eigen's kernels,
// not OpenBLAS's) have made the thread's own once-per-thread allocation (its thread-locals).
template <class T, class F>
std::int64_t fresh_thread_allocations(F&& f) {
  std::int64_t allocations = -1;
  std::thread([&] {
    Mat<T> one = Mat<T>::Ones(1, 1), out(1, 1);
    T sum = 0;
    ops::gemm<Tally<T>>(false, false, one, one, out);
    ops::exp_row_sums<Tally<T>>(one, &sum);
    const std::int64_t before = heap::allocations();
    f();
    allocations = heap::allocations() - before;
  }).join();
  return allocations;
}

// The products a measured step skips under the shortcut (ops::gemm_heap_free) take no heap, even
// as the first product of a fresh thread: so the step's heap figures are those of the full step.
template <class T>
void expect_heap_free_products_take_no_heap() {
  // {r, n, k, trans_a, trans_b}: OpenBLAS's large products (att's scores and A V, rf's phi(K)^T V;
  // the smallest at kHeapFreeBlasWork) and small ones (its small-matrix kernels allocate on AVX-512
  // cores: one malloc of 3,200 bytes at 100 x 100 x 100 here), the narrow and the wide shallow
  // kernels (ny's landmark products), Eigen's, and one-row products by each row kernel (the
  // two-block Nyström's newest row at Fig. 4's n = 8192, d = 200, m = 8: w Delta, then (w Delta) V
  // by Eigen's matrix-vector kernel; small and large products with B^T).
  const std::int64_t shapes[][5] = {
      {512, 512, 200, 0, 1}, {512, 200, 512, 0, 0}, {128, 128, 256, 0, 0}, {128, 128, 256, 0, 1},
      {512, 200, 512, 1, 0}, {128, 128, 256, 1, 0}, {100, 100, 100, 0, 0}, {96, 64, 48, 0, 1},
      {1000, 8, 8, 0, 0},    {1000, 8, 8, 0, 1},    {64, 2048, 8, 0, 0},   {4, 120, 192, 0, 1},
      {12, 10, 6, 0, 0},     {1, 8192, 8, 0, 0},    {1, 200, 8192, 0, 0},  {1, 64, 200, 0, 1},
      {1, 8192, 200, 0, 1},  {1, 100, 100, 0, 0}};
  int heap_free = 0, blas = 0, shallow = 0, kernels_of_rows[3] = {};
  for (const auto& s : shapes) {
    const std::int64_t r = s[0], n = s[1], k = s[2];
    const bool trans_a = s[3] != 0, trans_b = s[4] != 0;
    if (!ops::gemm_heap_free<Tally<T>>(trans_a, trans_b, r, n, k)) continue;
    ++heap_free;
    const ops::ProductPath path = ops::path_of<T>(trans_a, trans_b, r, n, k);
    blas += path.blas, shallow += path.shallow != kernels::Shallow::kNone;
    if (r == 1) ++kernels_of_rows[ops::row_kernel<T>(trans_b, n, k)];
    const Mat<T> a = random_stream(trans_a ? k : r, trans_a ? r : k, 5).template cast<T>();
    const Mat<T> b = random_stream(trans_b ? n : k, trans_b ? k : n, 6).template cast<T>();
    Mat<T> c(r, n);
    const std::int64_t allocations =
        fresh_thread_allocations<T>([&] { ops::gemm<Tally<T>>(trans_a, trans_b, a, b, c); });
    EXPECT_EQ(allocations, 0) << r << " x " << n << " x " << k << (trans_a ? " (A^T)" : "")
                              << (trans_b ? " (B^T)" : "");
    const Mat<T> op_a = trans_a ? Mat<T>(a.transpose()) : a;
    EXPECT_TRUE(c.isApprox(trans_b ? Mat<T>(op_a * b.transpose()) : Mat<T>(op_a * b)));
  }
  EXPECT_GE(shallow, 2) << "the narrow and the wide kernels";
  for (int kernel = 0; kernel < 3; ++kernel)
    EXPECT_GE(kernels_of_rows[kernel], 1) << "a one-row product by row kernel " << kernel;
  if (blas::kAvailable) {
    EXPECT_GE(blas, 6);
  }
  EXPECT_LT(heap_free, int(std::size(shapes))) << "Eigen's products run in a measured step";
}

TEST(HeapFreeOps, ProductsTakeNoHeapOnAFreshThread) {
  expect_heap_free_products_take_no_heap<double>();
  expect_heap_free_products_take_no_heap<float>();
}

// One head's products that say so (the head-minor products and the ring's product by its runs, as
// at Fig. 4's n = 8192, d = 200, m = 8; here each run of the ring has over 128 K outputs): a
// measured step skips them (their output stays as it was), and they take no heap on a fresh thread.
TEST(HeapFreeOps, OneHeadProductsTakeNoHeapOnAFreshThread) {
  using T = Tally<double>;
  const std::int64_t n = 2048, d = 200, m = 8, oldest = 700;
  const Mat<double> w = random_stream(n, m, 8), b = random_stream(m, d, 9);
  const Mat<double> q = random_stream(n, d, 10), k = random_stream(1, d, 11);
  const Mat<double> z = random_stream(m, m, 12);
  Mat<double> ring(n, m);  // w's rows in window order: slot oldest first
  ring << w.bottomRows(n - oldest), w.topRows(oldest);
  Mat<double> out(n, d), row(1, n), g(n, m);
  const std::pair<std::function<void()>, std::function<bool()>> products[] = {
      {[&] { ops::heads_ring_gemm_nn<T>(w, b, oldest, out); },
       [&] { return out.isApprox(ring * b); }},
      {[&] { ops::heads_minor_gemm_nt<T>(1, d, n, 1, k.data(), q.data(), row.data()); },
       [&] { return row.isApprox(k * q.transpose()); }},
      {[&] { ops::heads_minor_gemm<T>(n, m, m, 1, w.data(), z.data(), g.data()); },
       [&] { return g.isApprox(w * z); }}};
  for (std::size_t i = 0; i < std::size(products); ++i) {
    const auto& [product, right] = products[i];
    out.setConstant(-1), row.setConstant(-1), g.setConstant(-1);
    ops::skipping() = ops::Skip::kHeapFree;
    product();
    ops::skipping() = ops::Skip::kNone;
    EXPECT_TRUE((out.array() == -1).all() && (row.array() == -1).all() && (g.array() == -1).all())
        << "product " << i << " runs in a measured step";
    EXPECT_EQ(fresh_thread_allocations<double>(product), 0) << "product " << i;
    EXPECT_TRUE(right()) << "product " << i;
  }
}

// The element-wise ops that say so (att's exponentials and scaling, on its n x n scores; the
// continual landmarks' segment means over a ring, here across its wrap).
TEST(HeapFreeOps, RowOpsTakeNoHeapOnAFreshThread) {
  Mat<double> x = random_stream(1024, 1024, 7);
  std::vector<double> sums(1024), mean(1024);
  EXPECT_EQ(fresh_thread_allocations<double>(
                [&] { segment_mean<Tally<double>>(x, 1000, 100, mean.data()); }),
            0);
  EXPECT_NEAR(mean[5], (x.col(5).tail(24).sum() + x.col(5).head(76).sum()) / 100, 1e-12);
  EXPECT_EQ(
      fresh_thread_allocations<double>([&] { ops::exp_row_sums<Tally<double>>(x, sums.data()); }),
      0);
  EXPECT_EQ(
      fresh_thread_allocations<double>([&] { ops::scale_rows<Tally<double>>(x, sums.data()); }), 0);
  EXPECT_GT(sums[0], 0.0);
}

}  // namespace
}  // namespace cosda::test
