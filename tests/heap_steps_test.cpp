// The timed path allocates nothing: a steady-state step of every variant, as cosda-bench runs
// it (MultiHead<Plain<T>>: batched heads where the variant has them, heads in parallel on
// every thread OpenMP gives), makes no malloc-family call on any thread. Runs in the Release
// tree (cosda_heap_tests), where the heap hooks are on.
#include <omp.h>

#include "analysis/heap.hpp"
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
  MultiHead<Plain<T>> mh(id, c, h, layers);
  // Priming, the thread choice's trials, then a landmark cycle (n steps) measured.
  const std::int64_t warm = 2 * c.n + 2 * std::int64_t(MultiHead<Plain<T>>::kTrials) + 3;
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

}  // namespace
}  // namespace cosda::test
