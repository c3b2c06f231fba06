// The shortcut of measure() (analysis/measure.hpp, Shortcut::kOn): under Tally the warm-up and
// the landmark cycle's repeated plain steps skip their arithmetic, the other measured steps that of
// the products that take no heap, the warm-up is traced by its writes alone and the look-ahead
// settles what it touches. Every figure it reports,
// counts, logical memory, touched bytes and heap, must be the one of the run that executes
// every step in full (Shortcut::kOff), on every variant, one block and two, one head and
// several, and landmark counts that do and do not divide the window.
#include <string>
#include <vector>

#include "analysis/heap.hpp"
#include "analysis/measure.hpp"
#include "attention/registry.hpp"
#include "tests/test_util.hpp"

namespace cosda::test {
namespace {

struct Case {
  Point point;
  Precision precision = Precision::kDouble;
};

std::vector<Case> shortcut_grid() {
  // n, d, m: n mod m = 1, 1, 0, 1, 0 (m = n), 0 (m = 1), 2.
  const std::int64_t shapes[][3] = {{7, 4, 2}, {10, 4, 3}, {12, 6, 4}, {16, 6, 5},
                                    {9, 4, 9}, {8, 2, 1},  {14, 4, 4}};
  // Landmark segments long enough that the cycle leaves replays unmeasured (m = 1: one segment of
  // n; n mod m != 0; more segments), for every continual-landmark variant.
  const std::int64_t long_segments[][3] = {{24, 6, 1}, {40, 4, 3}, {256, 8, 4}};
  std::vector<Case> g;
  const auto heads_and_blocks = [&](const std::string& id, const std::int64_t(&s)[3]) {
    for (const std::int64_t heads : {1, 2})
      for (const std::int64_t layers : {1, 2}) {
        const Point p{
            .variant = id, .n = s[0], .d = s[1], .m = s[2], .heads = heads, .layers = layers};
        if (skip_reason(p).empty()) g.push_back({p, Precision::kDouble});
      }
  };
  for (const auto& id : variant_ids()) {
    for (const auto& s : shapes) heads_and_blocks(id, s);
    if (find_variant(id)->landmarks == LandmarkKind::kContinual)
      for (const auto& s : long_segments) heads_and_blocks(id, s);
  }
  // Measured steps skip the products that take no heap (att's OpenBLAS products at n = 256,
  // d = 64, exactly ops::kHeapFreeBlasWork; ny's narrow shallow ones at n = 64, d = 96) and run
  // the others (att's at Table III's shape, ny's Eigen products, which take heap there).
  const std::int64_t heap_free_shapes[][3] = {{256, 64, 4}, {64, 96, 4}, {120, 192, 4}};
  for (const char* id : {"att", "ny"})
    for (const auto& s : heap_free_shapes)
      for (const std::int64_t layers : {1, 2})
        g.push_back({Point{.variant = id, .n = s[0], .d = s[1], .m = s[2], .layers = layers}});
  // The float build and the stabilised mode, on the continual-landmark cycles, and Table III's
  // shape, where products take heap in the steps that run them.
  for (const char* id : {"cony_si_cont", "cony_re_cont"}) {
    for (const std::int64_t layers : {1, 2}) {
      const Point p{.variant = id, .n = 120, .d = 192, .m = 4, .layers = layers};
      if (skip_reason(p).empty()) g.push_back({p});
    }
    g.push_back({Point{.variant = id, .n = 11, .d = 4, .m = 3, .layers = 2}, Precision::kFloat});
    g.push_back(
        {Point{.variant = id, .n = 11, .d = 4, .m = 3, .stabilised = true}, Precision::kDouble});
  }
  return g;
}

class MeasureShortcut : public ::testing::TestWithParam<Case> {};

// Runs measure() and counts the heap allocations it makes (all of them: the state, the
// warm-up, the steps and the figures).
Cost measure_counting_allocations(const Case& c, Shortcut shortcut, std::int64_t& allocations) {
  const std::int64_t before = heap::allocations();
  Cost cost = measure(c.point, Counting::kTally, c.precision, Touched::kRecord, shortcut);
  allocations = heap::allocations() - before;
  return cost;
}

// The counts, valley and peaks of got are those of want.
void expect_same_counts_and_memory(const Cost& got, const Cost& want) {
  EXPECT_EQ(got.cycle_total, want.cycle_total)
      << describe(got.cycle_total) << " vs " << describe(want.cycle_total);
  EXPECT_EQ(got.plain_step, want.plain_step);
  EXPECT_EQ(got.update_step, want.update_step);
  EXPECT_EQ(got.cycle_steps, want.cycle_steps);
  EXPECT_EQ(got.update_steps, want.update_steps);
  EXPECT_EQ(got.plain_steps, want.plain_steps);
  EXPECT_EQ(got.valley, want.valley);
  EXPECT_EQ(got.peak, want.peak);
  EXPECT_EQ(got.plain_peak, want.plain_peak);
  EXPECT_EQ(got.update_peak, want.update_peak);
}

TEST_P(MeasureShortcut, ReportsWhatEveryStepInFullReports) {
  std::int64_t full_allocations = 0, fast_allocations = 0;
  // A first run makes what a process allocates once (thread-local recorders, OpenBLAS).
  measure_counting_allocations(GetParam(), Shortcut::kOff, full_allocations);
  const Cost full = measure_counting_allocations(GetParam(), Shortcut::kOff, full_allocations);
  const Cost fast = measure_counting_allocations(GetParam(), Shortcut::kOn, fast_allocations);
  expect_same_counts_and_memory(fast, full);
  EXPECT_EQ(fast.plain_bytes, full.plain_bytes);
  EXPECT_EQ(fast.update_bytes, full.update_bytes);
  EXPECT_EQ(fast.cycle_bytes, full.cycle_bytes);
  EXPECT_GT(full.peak, 0);
  EXPECT_GT(full.cycle_bytes, 0);
  // Without the bytes recorded, as sweeps run, a settling stretch's replays add a two-block
  // model's second-block counts without running it (models/two_block.hpp): the same figures.
  const Cost unrecorded = measure(GetParam().point, Counting::kTally, GetParam().precision);
  expect_same_counts_and_memory(unrecorded, full);
  if (heap::enabled()) {
    // The same buffers: the measured steps' allocations reported alike, and a step's heap
    // peak as far above the state as in full. Where steps allocate nothing (the small shapes)
    // the shortcut's whole run makes no allocation the full run does not; it may make fewer,
    // for its warm-up runs without arithmetic: a warm-up product's blocking workspace, which
    // Eigen sizes from the caches, takes heap on some machines (cony_re_cont's first window at
    // Table III: 184 KB on a Xeon of family 6 model 106, within the stack on Zen 4). Where the
    // steps' products take heap (Table III's two blocks: one allocation a step) the steps
    // without arithmetic make none.
    // The state's bytes themselves differ between any two runs in one process (malloc's
    // usable size of a chunk depends on where it is carved; two full runs differ by 16-128
    // bytes here), so they are not compared.
    EXPECT_EQ(fast.steady_allocations, full.steady_allocations);
    if (full.steady_allocations == 0) {
      EXPECT_LE(fast_allocations, full_allocations);
    }
    EXPECT_EQ(fast.heap_peak_bytes - fast.heap_retained_bytes,
              full.heap_peak_bytes - full.heap_retained_bytes);
  }
}

INSTANTIATE_TEST_SUITE_P(AllVariants, MeasureShortcut, ::testing::ValuesIn(shortcut_grid()),
                         [](const auto& info) {
                           const Point& p = info.param.point;
                           return shape_name(p.variant, {p.n, p.d, p.m}) + "_h" +
                                  std::to_string(p.heads) + "_l" + std::to_string(p.layers) +
                                  (info.param.precision == Precision::kFloat ? "_float" : "") +
                                  (p.stabilised ? "_stabilised" : "");
                         });

// Exact counts every operation it executes, so it ignores the shortcut: both runs are full.
TEST(ShortcutUnderExact, EveryStepRunsInFull) {
  const Point p{.variant = "cony_si_cont", .n = 10, .d = 4, .m = 3, .layers = 2};
  const Cost tally = measure(p, Counting::kTally);
  const Cost exact =
      measure(p, Counting::kExact, Precision::kDouble, Touched::kSkip, Shortcut::kOn);
  EXPECT_EQ(exact.cycle_total, tally.cycle_total);
  EXPECT_EQ(exact.valley, tally.valley);
  EXPECT_EQ(exact.peak, tally.peak);
}

}  // namespace
}  // namespace cosda::test
