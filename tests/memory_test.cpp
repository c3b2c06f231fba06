// Memory: the logical figures (valley, peak: liveness of what the kernels read and write) and
// the physical heap.
#include "analysis/heap.hpp"
#include "analysis/measure.hpp"
#include "tests/test_util.hpp"

namespace cosda::test {
namespace {

class Memory : public ::testing::TestWithParam<std::string> {};

// A steady-state step of every variant allocates nothing: all buffers are made at
// construction (the continual ones must not, by the brief; the others do not either).
TEST_P(Memory, SteadyStateStepAllocatesNothing) {
  if (!heap::enabled()) GTEST_SKIP() << "heap hooks are off in sanitizer builds";
  for (const Point& p : {Point{GetParam(), 16, 8, 4, 1}, Point{GetParam(), 30, 12, 7, 3},
                         Point{GetParam(), 96, 64, 8, 1}}) {
    const Cost c = measure(p);
    EXPECT_EQ(c.steady_allocations, 0) << p.n << " " << p.d << " " << p.m;
  }
}

// The state the kernels keep is physically there, and what is allocated beyond it is at most
// the live scratch plus bookkeeping.
TEST_P(Memory, LogicalStateIsPhysicallyHeld) {
  if (!heap::enabled()) GTEST_SKIP() << "heap hooks are off in sanitizer builds";
  const Point p{GetParam(), 64, 32, 8, 1};
  const Cost c = measure(p);
  EXPECT_GE(c.heap_retained_bytes, c.valley * std::int64_t(sizeof(double)));
  EXPECT_LE(c.heap_retained_bytes, (c.peak + 64 * 64 + 4096) * std::int64_t(sizeof(double)));
  EXPECT_EQ(c.heap_peak_bytes, c.heap_retained_bytes) << "nothing allocated during a step";
}

// Peak covers the valley and the output.
TEST_P(Memory, PeakCoversStateAndOutput) {
  const Point p{GetParam(), 20, 6, 4, 1};
  const Cost c = measure(p);
  const std::int64_t out = find_variant(p.variant)->single_output ? p.d : p.n * p.d;
  EXPECT_GE(c.peak, c.valley + out);
  EXPECT_GT(c.valley, 0);
  // Single-precision runs hold the same number of elements.
  const Cost f = measure(p, Counting::kTally, Precision::kFloat);
  EXPECT_EQ(f.valley, c.valley);
  EXPECT_EQ(f.peak, c.peak);
  if (heap::enabled()) {
    EXPECT_LT(f.heap_retained_bytes, c.heap_retained_bytes);
  }
}

INSTANTIATE_TEST_SUITE_P(AllVariants, Memory, ::testing::ValuesIn(variant_ids()),
                         [](const auto& info) { return info.param; });

TEST(Heap, HooksSeeEigenAllocations) {
  if (!heap::enabled()) GTEST_SKIP() << "heap hooks are off in sanitizer builds";
  const std::int64_t before = heap::current();
  {
    Mat<double> x(100, 100);
    x.setZero();
    EXPECT_GE(heap::current() - before, 100 * 100 * 8);
  }
  EXPECT_EQ(heap::current(), before);
}

}  // namespace
}  // namespace cosda::test
