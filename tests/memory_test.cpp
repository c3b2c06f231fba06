// Memory: the logical figures (valley, peak: liveness of what the kernels read and write) and
// the physical heap.
#include <algorithm>
#include <array>

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

// cony_si_cont's valley and plain-step peak counted buffer by buffer (docs/counting.md, "What a
// continual state keeps"), at two shapes: the new landmark query comes from a running sum of
// the segment's scaled queries (d), not from a ring of the last ceil(n/m) queries.
TEST(MemoryByBuffer, ContinualLandmarkState) {
  using Shape3 = std::array<std::int64_t, 3>;
  for (const auto& [n, d, m] : {Shape3{24, 8, 3}, Shape3{50, 12, 4}}) {
    const Cost c = measure(Point{.variant = "cony_si_cont", .n = n, .d = d, .m = m});
    const std::int64_t rings = 2 * n * d;      // K and V of the window, every row read again
    const std::int64_t query_sum = d;          // the current segment's scaled queries, summed
    const std::int64_t landmarks = 2 * m * d;  // Qt (scaled) and Kt
    const std::int64_t delta = m * d + m;      // Delta V and phi(Delta)
    const std::int64_t gamma = 2 * m * m + m;  // Gamma, Gamma_phi^+ and phi(Gamma)
    const std::int64_t unread = m + 1;         // the next replaced landmark's Gamma row, phi entry
    EXPECT_EQ(c.valley, rings + query_sum + landmarks + delta + gamma - unread)
        << "n " << n << " d " << d << " m " << m;
    // Beside the valley a plain step holds at most the arriving token's q, k and v (3d, read
    // by its first ops), or later two m-vectors at once (scores and their scaled copy, the
    // landmark row and the reciprocals of phi(Delta)); at these shapes 3d is the larger.
    EXPECT_EQ(c.plain_peak - c.valley, std::max(3 * d, 2 * m)) << "n " << n << " d " << d;
  }
}

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
