// The timed build executes the counted algorithm: at every steady-state step, Plain<T> (what
// cosda-bench times: no instrumentation, heads in parallel, large products through BLAS when
// the build has it) gives bit-identical outputs to Tally<T> (what the counts come from), and
// Plain<double> agrees with scalar-level counting (Exact, the textbook loops) to 1e-12.
// The shapes cross blas::kMinWork, so both the Eigen and the BLAS products are covered.
#include <omp.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "bench/plain_ring.hpp"
#include "models/multi_head.hpp"
#include "tests/test_util.hpp"

namespace cosda::test {
namespace {

struct TimedShape {
  std::int64_t n, d, m, heads;
};

Config config_for(const std::string& id, const TimedShape& s) {
  Config c{.n = s.n, .d = s.d, .m = s.m};
  if (find_variant(id)->landmarks == LandmarkKind::kFixed)
    c.fixed_q = c.fixed_k = random_stream(s.m, s.d, 21);
  return c;
}

template <class T>
void expect_plain_equals_tally(const std::string& id, const TimedShape& s,
                               std::int64_t extra_steps = 0) {
  const Config c = config_for(id, s);
  MultiHead<Plain<T>> plain(id, c, s.heads);
  MultiHead<Tally<T>> tally(id, c, s.heads);
  ASSERT_EQ(plain.batched(), tally.batched());  // the same object steps under both policies
  const MatD x = random_stream(2 * s.n + 3 + extra_steps, s.d, 22);
  std::int64_t compared = 0;
  for (std::int64_t i = 0; i < x.rows(); ++i) {
    const Mat<T> xi = x.row(i).template cast<T>();
    const bool a = plain.step(xi.data(), xi.data(), xi.data());
    const bool b = tally.step(xi.data(), xi.data(), xi.data());
    ASSERT_EQ(a, b);
    if (!a) continue;
    const Mat<T> p = plain.output(), t = tally.output();
    ASSERT_EQ(p.rows(), t.rows());
    for (std::int64_t k = 0; k < p.size(); ++k)
      ASSERT_EQ(p.data()[k], t.data()[k]) << id << " step " << i << " element " << k;
    ++compared;
  }
  EXPECT_EQ(compared, s.n + 4 + extra_steps);
}

class TimingConsistency : public ::testing::TestWithParam<std::string> {};

TEST_P(TimingConsistency, PlainDoubleIsBitIdenticalToTally) {
  for (const TimedShape s :
       {TimedShape{9, 6, 3, 1}, TimedShape{64, 48, 8, 1}, TimedShape{40, 64, 5, 4}})
    expect_plain_equals_tally<double>(GetParam(), s);
}

TEST_P(TimingConsistency, PlainFloatIsBitIdenticalToTally) {
  for (const TimedShape s : {TimedShape{9, 6, 3, 1}, TimedShape{64, 48, 8, 1}})
    expect_plain_equals_tally<float>(GetParam(), s);
}

// Heads in parallel (two OpenMP threads) give the same bits as heads one after another.
TEST_P(TimingConsistency, ParallelHeadsMatchTally) {
  const int before = omp_get_max_threads();
  omp_set_num_threads(2);
  expect_plain_equals_tally<double>(GetParam(), TimedShape{24, 32, 4, 4});
  omp_set_num_threads(before);
}

// With two threads MultiHead's trial steps for one head split the rows of large products (att's
// at n = d = 160) between them (ops::product_threads): every output keeps Tally's bits.
TEST_P(TimingConsistency, SplitProductsMatchTally) {
  const int before = omp_get_max_threads();
  omp_set_num_threads(2);
  ops::split_products() = true;
  EXPECT_EQ(ops::product_threads(160, 160 * 160 * 160), 2);
  ops::split_products() = false;
  EXPECT_EQ(ops::product_threads(160, 160 * 160 * 160), 1);
  expect_plain_equals_tally<double>(GetParam(), TimedShape{160, 160, 8, 1});
  expect_plain_equals_tally<float>(GetParam(), TimedShape{160, 160, 8, 1});
  omp_set_num_threads(before);
}

// A product split by rows among threads gives the unsplit product's bits on every kernel of the
// timed path (BLAS, the shallow kernels, Eigen), in two and three parts, also where a part alone
// would take another kernel than the whole (wide 200 x 1000: parts below kShallowMinOutput).
// Returns whether the product split.
template <class T>
bool expect_split_keeps_bits(bool trans_a, bool trans_b, std::int64_t r, std::int64_t n,
                             std::int64_t k, int threads) {
  const Mat<T> a = (trans_a ? random_stream(k, r, 31) : random_stream(r, k, 31)).cast<T>();
  const Mat<T> b = (trans_b ? random_stream(n, k, 32) : random_stream(k, n, 32)).cast<T>();
  Mat<T> whole(r, n), split(r, n);
  ops::gemm<Plain<T>>(trans_a, trans_b, a, b, whole);
  const int before = omp_get_max_threads();
  omp_set_num_threads(threads);
  ops::split_products() = true;
  const std::int64_t splits = ops::split_count();
  ops::gemm<Plain<T>>(trans_a, trans_b, a, b, split);
  const bool did_split = ops::split_count() > splits;
  ops::split_products() = false;
  omp_set_num_threads(before);
  const auto differ = std::mismatch(whole.data(), whole.data() + whole.size(), split.data());
  EXPECT_EQ(differ.first, whole.data() + whole.size())
      << r << " x " << n << " x " << k << (trans_a ? " A^T" : "") << (trans_b ? " B^T" : "") << ", "
      << threads << " threads, element " << differ.first - whole.data();
  return did_split;
}

TEST(SplitProducts, KeepTheUnsplitBitsOnEveryKernel) {
  struct Shape {
    std::int64_t r, n, k;
    bool trans_a, trans_b;
    bool may_decline = false;  // by columns, or a part alone takes another kernel
  };
  const Shape shapes[] = {
      {160, 160, 160, false, true},
      {160, 160, 160, false, false},
      {160, 160, 160, true, false},
      {333, 517, 129, false, false},
      {1000, 8, 1000, false, true},
      {1000, 1000, 8, false, false},
      {200, 1000, 12, false, false, true},
      {20000, 16, 8, false, false},
      {20000, 16, 8, false, true},
      // m rows: split by columns (ny's Q~ K^T and B V, rf's phi(K)^T V at n = d = 1000)
      {8, 1000, 1000, false, true, true},
      {8, 1000, 1000, false, false, true},
      {8, 1000, 1000, true, false, true},
      {4, 333, 5000, false, false, true},
      // one row: split by outputs (co_re's newest row at n = d = 1000: x K^T, then a V)
      {1, 1000, 1000, false, true},
      {1, 1000, 1000, false, false},
      {1, 700, 800, false, true}};
  for (const Shape& s : shapes)
    for (int threads : {2, 3}) {
      SCOPED_TRACE(testing::Message() << s.r << " x " << s.n << " x " << s.k << ", " << threads);
      // Rows and one row's outputs split; columns only where the parts keep the bits.
      EXPECT_TRUE(expect_split_keeps_bits<float>(s.trans_a, s.trans_b, s.r, s.n, s.k, threads) ||
                  s.may_decline);
      EXPECT_TRUE(expect_split_keeps_bits<double>(s.trans_a, s.trans_b, s.r, s.n, s.k, threads) ||
                  s.may_decline);
      if (HasFailure()) return;
    }
}

// OpenBLAS's Haswell kernels (also Zen's, and any core its version does not know) compute an
// sgemm call's first block of columns in another order than the rest, so 8 x 1000 x 1000 float
// products do not split by columns there and double ones (whose dgemm keeps the bits) do. ctest
// runs this under OPENBLAS_CORETYPE=Haswell (CMakeLists.txt), whatever the machine's own core.
TEST(SplitProducts, ByColumnsOnlyWhereTheBlasKeepsTheBits) {
  if (!blas::kAvailable) GTEST_SKIP() << "needs OpenBLAS (this build found none)";
  const char* core = std::getenv("OPENBLAS_CORETYPE");
  if (core == nullptr || std::string(core) != "Haswell")
    GTEST_SKIP() << "runs in its own ctest entry, under OPENBLAS_CORETYPE=Haswell";
  for (int threads : {2, 3})
    for (const auto& [ta, tb] : {std::pair{false, true}, {false, false}, {true, false}}) {
      EXPECT_FALSE(expect_split_keeps_bits<float>(ta, tb, 8, 1000, 1000, threads));
      EXPECT_TRUE(expect_split_keeps_bits<double>(ta, tb, 8, 1000, 1000, threads));
    }
}

// MultiHead times its first steady-state steps one after another and in parallel and keeps the
// faster way: through those trials and after them, on two threads, every output is Tally's.
TEST_P(TimingConsistency, ThreadChoiceNeverChangesOutputs) {
  const int before = omp_get_max_threads();
  omp_set_num_threads(2);
  expect_plain_equals_tally<float>(GetParam(), TimedShape{12, 32, 4, 8}, 60);
  omp_set_num_threads(before);
}

// One head on two threads splits its products by their size, from its first step: att at
// n = d = 160 splits both window products every step, a small head (n = 12, d = 32) none. One
// thread never splits. The thread choice's first trials split kWindow steady-state steps, then
// time kBlock serial ones: the priming step and those kWindow steps split, the serial block not.
TEST(ThreadChoice, OneHeadSplitsBySizeThenTimesSerialSteps) {
  using MH = MultiHead<Plain<double>>;
  const auto splits_by_step = [](std::int64_t n, std::int64_t d, int threads) {
    Config c;
    c.n = n, c.d = d;
    const std::int64_t ready = 1 + std::int64_t(MH::kWindow + MH::kBlock);
    const Mat<double> x = random_stream(n - 1 + ready, d, 29);
    const int before = omp_get_max_threads();
    omp_set_num_threads(threads);
    MH mh("att", c, 1);
    std::vector<std::int64_t> splits;  // per step that gave an output
    std::int64_t parallel = 0;
    for (std::int64_t t = 0; t < x.rows(); ++t) {
      const std::int64_t s0 = ops::split_count(), p0 = mh.parallel_steps();
      if (mh.step(&x(t, 0), &x(t, 0), &x(t, 0))) splits.push_back(ops::split_count() - s0);
      parallel += mh.parallel_steps() - p0;
    }
    omp_set_num_threads(before);
    EXPECT_EQ(std::ssize(splits), ready);
    EXPECT_EQ(parallel, std::count_if(splits.begin(), splits.end(), [](auto s) { return s > 0; }));
    return splits;
  };
  std::vector<std::int64_t> expected(1 + MH::kWindow, 2);
  expected.resize(1 + MH::kWindow + MH::kBlock, 0);
  EXPECT_EQ(splits_by_step(160, 160, 2), expected);
  const std::vector<std::int64_t> none(1 + MH::kWindow + MH::kBlock, 0);
  EXPECT_EQ(splits_by_step(12, 32, 2), none);
  EXPECT_EQ(splits_by_step(160, 160, 1), none);
}

// att's wide heads (h > 1 heads of more than ops::kSingleQueryMaxWidth features: rings by row,
// a head at a time) on two threads split each head's products by their size (step_split):
// through the thread choice's trials and after them, every output is the Tally twin's.
TEST(ThreadChoice, WideHeadsSplitTheirProductsKeepingTheBits) {
  const int before = omp_get_max_threads();
  omp_set_num_threads(2);
  const std::int64_t splits = ops::split_count();
  expect_plain_equals_tally<double>("att", TimedShape{96, 480, 1, 2},
                                    2 * std::int64_t(MultiHead<Plain<double>>::kTrials));
  EXPECT_GT(ops::split_count(), splits);
  omp_set_num_threads(before);
}

// ny's, rf's and co_re's memory passes (ny: its queries' scaling into window order and its
// segment means; rf: its keys' offsets and its output's scaling; co_re: its retroactive update
// and its output's scaling) split among the threads beside their products (ops::split_pass,
// split_row_product): the outputs keep the one thread's bits, in `expected` splits.
template <class T>
void expect_memory_passes_split(std::string_view id, std::int64_t expected) {
  Config c;
  c.n = 800, c.d = 700, c.m = 8;
  const Mat<T> x = random_stream(c.n + 3, c.d, 31).cast<T>();
  const auto run = [&](int threads, std::int64_t& splits) {
    const int before = omp_get_max_threads();
    omp_set_num_threads(threads);
    MultiHead<Plain<T>> mh(id, c, 1);
    const std::int64_t s0 = ops::split_count();
    for (std::int64_t t = 0; t < x.rows(); ++t) mh.step(&x(t, 0), &x(t, 0), &x(t, 0));
    omp_set_num_threads(before);
    splits = ops::split_count() - s0;
    return Mat<T>(mh.output());
  };
  std::int64_t one = 0, two = 0;
  const Mat<T> serial = run(1, one), split = run(2, two);
  EXPECT_EQ(one, 0);
  EXPECT_EQ(two, expected);
  EXPECT_TRUE((serial.array() == split.array()).all()) << "the split changed bits";
}

TEST(ThreadChoice, MemoryPassesSplitKeepTheBits) {
  // Four steps attend; each splits its four products of 800 x 8 x 700 multiply-adds (ny: B,
  // Delta, Delta V, the last; rf: the keys' and queries' features, phi(K)^T V, the output) and
  // its two memory passes.
  expect_memory_passes_split<double>("ny", 4 * 6);
  expect_memory_passes_split<double>("rf", 4 * 6);
  // co_re: the first output's two window products and its output scaling (one pass of 800
  // rows), then per update (ring slots j = 0, 1, 2) the update of the 799 rows beside j, the
  // newest row's x K^T and a V (one row: by outputs) and the scaling of the 799 rows from the
  // oldest; the rows before j or the oldest (at most 3) are too few to split. Both scalars:
  // the update's parts start on lines of 8 doubles or 16 floats.
  expect_memory_passes_split<double>("co_re", 3 + 3 * 4);
  expect_memory_passes_split<float>("co_re", 3 + 3 * 4);
}

// parallel_steps() (cosda-bench's share of parallel steps) counts the steps taken on several
// threads: none on one thread, half the thread choice's trials on two, none where batched heads
// never split (co_si).
TEST(ThreadChoice, CountsItsParallelSteps) {
  Config c;
  c.n = 12, c.d = 32;
  // Row-major: token t's d elements are row t, contiguous.
  const Mat<double> x = random_stream(c.n + 2 * MultiHead<Plain<double>>::kTrials, c.d, 23);
  const auto parallel_steps = [&](std::string_view id, int threads) {
    const int before = omp_get_max_threads();
    omp_set_num_threads(threads);
    MultiHead<Plain<double>> mh(id, c, 4);
    for (std::int64_t t = 0; t < x.rows(); ++t) mh.step(&x(t, 0), &x(t, 0), &x(t, 0));
    omp_set_num_threads(before);
    return mh.parallel_steps();
  };
  EXPECT_EQ(parallel_steps("att", 1), 0);
  EXPECT_EQ(parallel_steps("att", 2), std::int64_t(MultiHead<Plain<double>>::kTrials));
  EXPECT_EQ(parallel_steps("co_si", 2), 0);
}

// The timed products (Eigen or BLAS) compute what the textbook loops compute.
TEST_P(TimingConsistency, PlainDoubleMatchesScalarLevelCounting) {
  const std::string id = GetParam();
  const TimedShape s{64, 48, 8, 1};
  const Config c = config_for(id, s);
  auto plain = make_variant<Plain<double>>(id, c);
  auto exact = make_variant<Exact>(id, c);
  const MatD x = random_stream(s.n + 2, s.d, 23);
  std::int64_t compared = 0;
  for (std::int64_t i = 0; i < x.rows(); ++i) {
    const Mat<double> xi = x.row(i);
    Mat<Counted> ci(1, s.d);
    for (std::int64_t j = 0; j < s.d; ++j) ci(0, j) = Counted(xi(0, j));
    const bool a = plain->step(xi.data(), xi.data(), xi.data());
    const bool b = exact->step(ci.data(), ci.data(), ci.data());
    ASSERT_EQ(a, b);
    if (!a) continue;
    const auto p = plain->output();
    const auto e = exact->output();
    double diff = 0, norm = 0;
    for (std::int64_t r = 0; r < p.rows(); ++r)
      for (std::int64_t j = 0; j < p.cols(); ++j) {
        diff += std::pow(e(r, j).value() - p(r, j), 2);
        norm += std::pow(e(r, j).value(), 2);
      }
    EXPECT_LE(std::sqrt(diff), 1e-12 * std::sqrt(norm)) << id << " step " << i;
    ++compared;
  }
  EXPECT_EQ(compared, 3);
}

INSTANTIATE_TEST_SUITE_P(AllVariants, TimingConsistency, ::testing::ValuesIn(variant_ids()),
                         [](const auto& info) { return info.param; });

// cosda-bench's plain-Eigen ring (bench/plain_ring.hpp) computes its partner's outputs over
// long streams: many passes of the ring, several heads, each layout co_si chooses (n > d, n = d,
// n < d, short rows, and in float K beyond 1 MiB with n > d, stored a token per column).
template <class T>
void expect_ring_matches_partner(std::int64_t n, std::int64_t d, std::int64_t heads, double tol,
                                 std::int64_t passes = 10) {
  bench::PlainRing<T> ring(n, d, heads);
  const Mat<T> tokens = random_stream(97, d, 31).cast<T>();
  EXPECT_LE(bench::check_against_partner(ring, n, d, heads, tokens, passes * n + 7, tol), tol)
      << "n " << n << " d " << d << " heads " << heads;
}

TEST(TimingPlainRing, MatchesPartnerOnLongStreams) {
  for (const TimedShape s :
       {TimedShape{120, 192, 0, 16}, TimedShape{120, 192, 0, 1}, TimedShape{64, 256, 0, 1},
        TimedShape{100, 100, 0, 1}, TimedShape{300, 40, 0, 1}, TimedShape{8, 8, 0, 1},
        TimedShape{120, 12, 0, 1}}) {
    expect_ring_matches_partner<float>(s.n, s.d, s.heads, 1e-4);
    expect_ring_matches_partner<double>(s.n, s.d, s.heads, 1e-10);
  }
  expect_ring_matches_partner<float>(1100, 240, 1, 1e-4, 2);
}

}  // namespace
}  // namespace cosda::test
