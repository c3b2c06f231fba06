// Head-batched kernels (attention/variants/<id>_heads.hpp, the variants of COSDA_BATCHED): one
// object for h heads computes and counts what h single-head objects do, and MultiHead steps it
// under every policy: what is counted is what is timed. Every batched variant runs every test here:
// adding one to COSDA_BATCHED is all it takes (docs/adding-a-variant.md).
#include <cxxabi.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>
#include <string_view>
#include <type_traits>
#include <typeinfo>
#include <vector>

#include "models/multi_head.hpp"
#include "tests/heads_util.hpp"

namespace cosda::test {
namespace {

// make_<id>_heads for any h, one head included (make_batched leaves h = 1 to the variant).
template <class E>
std::unique_ptr<Attention<E>> make_heads(std::string_view id, const Config& c, std::int64_t h) {
#define COSDA_MAKE_HEADS(vid, Class) \
  if (id == #vid) return make_##vid##_heads<E>(c, h);
  COSDA_BATCHED(COSDA_MAKE_HEADS)
#undef COSDA_MAKE_HEADS
  throw std::invalid_argument("no batched kernel for " + std::string(id));
}

// A stream of h heads of variant id: one batched object (make_<id>_heads, for a variant in
// COSDA_BATCHED) against h objects of the variant of width d / h fed their slices (and their
// slices of the fixed landmarks), step by step over many passes of the rings. Outputs (one
// row, or the window's n rows in window order) agree to tol relative to the largest output,
// and every step's counts (the priming step's too) are h times one head's, the same for
// every head.
template <class E>
void expect_heads_equal_per_head(std::string_view id, std::int64_t n, std::int64_t d,
                                 std::int64_t h, double tol, bool shifted = false) {
  using S = typename E::Scalar;
  Config c{.n = n, .d = d, .m = std::min<std::int64_t>(3, n)};
  ASSERT_TRUE(!shifted || find_variant(id)->continual) << id << ": exp_shift is continual's mode";
  if (shifted) c.exp_shift = 0.75;
  const bool fixed = find_variant(id)->landmarks == LandmarkKind::kFixed;
  if (fixed) c.fixed_q = c.fixed_k = random_stream(c.m, d, 7);
  auto batched = make_heads<E>(id, c, h);
  Config hc = c;
  hc.d = d / h;
  std::vector<std::unique_ptr<Attention<E>>> heads;
  for (std::int64_t i = 0; i < h; ++i) {
    if (fixed) hc.fixed_q = hc.fixed_k = c.fixed_q.middleCols(i * hc.d, hc.d);
    heads.push_back(make_variant<E>(id, hc));
  }
  const std::int64_t steps = std::is_same_v<S, Counted> ? 2 * n + 3 : 6 * n + 5;
  const Mat<S> x = filled<S>(steps, 3 * d, 6);
  std::int64_t compared = 0;
  for (std::int64_t t = 0; t < steps; ++t) {
    const S* q = &x(t, 0);
    const OpCounts c0 = thread_counts();
    const bool ready = batched->step(q, q + d, q + 2 * d);
    const OpCounts all = thread_counts() - c0;
    OpCounts one;
    for (std::int64_t i = 0; i < h; ++i) {
      const S* qi = q + i * hc.d;
      const OpCounts c1 = thread_counts();
      ASSERT_EQ(heads[i]->step(qi, qi + d, qi + 2 * d), ready);
      const OpCounts head = thread_counts() - c1;
      if (i == 0) one = head;
      ASSERT_EQ(head, one) << "head " << i << " step " << t;
    }
    OpCounts h_times;
    for (std::int64_t i = 0; i < h; ++i) h_times += one;
    ASSERT_EQ(all, h_times) << "step " << t << ": " << describe(all) << " vs " << describe(one);
    if (!ready) continue;
    const MatCRef<S> out = batched->output();
    const std::int64_t rows = heads[0]->output().rows();
    ASSERT_EQ(out.rows(), rows);
    ASSERT_EQ(out.cols(), d);
    double diff = 0, scale = 0;
    for (std::int64_t i = 0; i < h; ++i)
      for (std::int64_t r = 0; r < rows; ++r)
        for (std::int64_t j = 0; j < hc.d; ++j) {
          const double b = value_of(out(r, i * hc.d + j)), p = value_of(heads[i]->output()(r, j));
          diff = std::max(diff, std::abs(b - p)), scale = std::max(scale, std::abs(p));
        }
    EXPECT_LE(diff, tol * scale) << "step " << t;
    ++compared;
  }
  EXPECT_EQ(compared, steps - n + 1);
}

// The stabilised exponential (Config::exp_shift) is a mode of the continual variants only.
bool has_shift(std::string_view id) { return find_variant(id)->continual; }

struct StreamShape {
  std::int64_t n, d, h;
};
const StreamShape kStreams[] = {{37, 48, 1},  {37, 48, 2}, {37, 48, 3},
                                {37, 48, 16}, {5, 32, 16}, {120, 192, 16}};

std::string shape_name(const StreamShape& s) {
  return "n " + std::to_string(s.n) + " d " + std::to_string(s.d) + " h " + std::to_string(s.h);
}

class BatchedHeads : public ::testing::TestWithParam<std::string_view> {};

TEST_P(BatchedHeads, EqualHeadsRunSeparatelyInDouble) {
  for (const StreamShape s : kStreams) {
    SCOPED_TRACE(shape_name(s));
    expect_heads_equal_per_head<Tally<double>>(GetParam(), s.n, s.d, s.h, 1e-12);
    if (has_shift(GetParam()))
      expect_heads_equal_per_head<Tally<double>>(GetParam(), s.n, s.d, s.h, 1e-12, true);
  }
  for (const StreamShape s : {StreamShape{1, 6, 3}, StreamShape{2, 6, 3}}) {  // tiny windows
    SCOPED_TRACE(shape_name(s));
    expect_heads_equal_per_head<Tally<double>>(GetParam(), s.n, s.d, s.h, 1e-12);
    if (has_shift(GetParam()))
      expect_heads_equal_per_head<Tally<double>>(GetParam(), s.n, s.d, s.h, 1e-12, true);
  }
}

// Float: the Nyström steps multiply by the pseudo-inverse of the landmark kernel, which
// amplifies rounding.
TEST_P(BatchedHeads, EqualHeadsRunSeparatelyInFloat) {
  const double tol = find_variant(GetParam())->family == Family::kNystrom ? 1e-4 : 1e-5;
  for (const StreamShape s : kStreams) {
    SCOPED_TRACE(shape_name(s));
    expect_heads_equal_per_head<Tally<float>>(GetParam(), s.n, s.d, s.h, tol);
    if (has_shift(GetParam()))
      expect_heads_equal_per_head<Tally<float>>(GetParam(), s.n, s.d, s.h, tol, true);
  }
}

// Scalar-level counting through the batched object: every executed operation, h times one
// head's, on shorter streams (Counted is slow).
TEST_P(BatchedHeads, ScalarLevelCountsAreHTimesOneHead) {
  for (const StreamShape s : {StreamShape{9, 12, 1}, StreamShape{9, 12, 4}, StreamShape{7, 32, 16}})
    expect_heads_equal_per_head<Exact>(GetParam(), s.n, s.d, s.h, 1e-12);
  if (has_shift(GetParam())) expect_heads_equal_per_head<Exact>(GetParam(), 9, 12, 3, 1e-12, true);
}

// Under Tally an op counts what it would execute with its arithmetic off as well
// (ops::tally_skip, the steps of analysis/measure.cpp's shortcut): every step of a batched
// object stepped without arithmetic counts what the same step of one stepped in full counts.
TEST_P(BatchedHeads, CountsWithoutArithmeticAreTheFullSteps) {
  using E = Tally<double>;
  for (const StreamShape s : {StreamShape{9, 12, 4}, StreamShape{10, 32, 16}}) {
    SCOPED_TRACE("n " + std::to_string(s.n) + ", h " + std::to_string(s.h));
    Config c{.n = s.n, .d = s.d, .m = 3};
    if (find_variant(GetParam())->landmarks == LandmarkKind::kFixed)
      c.fixed_q = c.fixed_k = random_stream(c.m, c.d, 7);
    auto full = make_heads<E>(GetParam(), c, s.h), bare = make_heads<E>(GetParam(), c, s.h);
    const Mat<double> x = random_stream(3 * s.n + 2, 3 * s.d, 8);
    for (std::int64_t t = 0; t < x.rows(); ++t) {
      const double* q = &x(t, 0);
      const OpCounts c0 = thread_counts();
      const bool ready = full->step(q, q + s.d, q + 2 * s.d);
      const OpCounts c1 = thread_counts();
      ops::skipping() = ops::Skip::kAll;
      const bool bare_ready = bare->step(q, q + s.d, q + 2 * s.d);
      ops::skipping() = ops::Skip::kNone;
      ASSERT_EQ(bare_ready, ready) << "step " << t;
      EXPECT_EQ(thread_counts() - c1, c1 - c0) << "step " << t;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Batched, BatchedHeads, ::testing::ValuesIn(kBatchedIds),
                         [](const auto& info) { return std::string(info.param); });

// Every policy steps the heads of the variants of COSDA_BATCHED in one object; one head,
// two-block models and the other variants keep one object per head.
TEST(MultiHeadBatching, EveryPolicyBatchesTheHeadsOfBatchedVariants) {
  for (const VariantTraits& v : kVariants) {
    SCOPED_TRACE(std::string(v.id));
    Config c{.n = 8, .d = 12, .m = 2};
    if (v.landmarks == LandmarkKind::kFixed) c.fixed_q = c.fixed_k = random_stream(c.m, c.d, 3);
    const bool listed =
        std::find(kBatchedIds.begin(), kBatchedIds.end(), v.id) != kBatchedIds.end();
    EXPECT_EQ(MultiHead<Plain<float>>(v.id, c, 4).batched(), listed);
    EXPECT_EQ(MultiHead<Plain<double>>(v.id, c, 4).batched(), listed);
    EXPECT_EQ(MultiHead<Tally<float>>(v.id, c, 4).batched(), listed);
    EXPECT_EQ(MultiHead<Tally<double>>(v.id, c, 4).batched(), listed);
    EXPECT_EQ(MultiHead<Exact>(v.id, c, 4).batched(), listed);
    EXPECT_FALSE(MultiHead<Plain<double>>(v.id, c, 1).batched());
    EXPECT_FALSE(MultiHead<Plain<double>>(v.id, c, 4, 2).batched());
  }
}

// The class template of an object, its policy left out: "cosda::NyHeads" for NyHeads<E>.
template <class E>
std::string class_of(const Attention<E>& a) {
  int status = 0;
  char* name = abi::__cxa_demangle(typeid(a).name(), nullptr, nullptr, &status);
  std::string s = status == 0 ? name : typeid(a).name();
  std::free(name);
  return s.substr(0, s.find('<'));
}

// The objects `cosda count` measures (MultiHead under Tally, analysis/measure.cpp) are of the
// classes cosda-bench times (MultiHead under Plain, bench/): for every variant, one and sixteen
// heads, one and two blocks.
TEST(MultiHeadBatching, CountedObjectsAreOfTheTimedClasses) {
  for (const VariantTraits& v : kVariants)
    for (const std::int64_t h : {1, 16})
      for (const int layers : {1, 2}) {
        SCOPED_TRACE(std::string(v.id) + " h " + std::to_string(h) + " layers " +
                     std::to_string(layers));
        Config c{.n = 8, .d = 32, .m = 2};
        if (v.landmarks == LandmarkKind::kFixed) c.fixed_q = c.fixed_k = random_stream(c.m, c.d, 3);
        const MultiHead<Tally<double>> counted(v.id, c, h, layers);
        const MultiHead<Plain<float>> timed(v.id, c, h, layers);
        ASSERT_EQ(counted.objects(), timed.objects());
        for (std::int64_t i = 0; i < counted.objects(); ++i)
          EXPECT_EQ(class_of(counted.object(i)), class_of(timed.object(i)));
        EXPECT_EQ(counted.objects(), counted.batched() ? 1 : h);
      }
}

// The registry names the classes built: make_<id> builds COSDA_VARIANTS's class, and every
// variant of COSDA_BATCHED is one class for every h (no twin): make_batched builds that class,
// and MultiHead steps it at one head and at sixteen, counted and timed; in two blocks, the object
// counted is of the type timed.
TEST(MultiHeadBatching, RegistryNamesTheClassesBuilt) {
  struct Named {
    std::string_view id, per_head, batched;
  };
  std::vector<Named> named;
#define COSDA_NAME_VARIANT(vid, Class) named.push_back({#vid, "cosda::" #Class, ""});
  COSDA_VARIANTS(COSDA_NAME_VARIANT)
#undef COSDA_NAME_VARIANT
#define COSDA_NAME_BATCHED(vid, Class)                                                             \
  std::find_if(named.begin(), named.end(), [](const Named& x) { return x.id == #vid; })->batched = \
      "cosda::" #Class;
  COSDA_BATCHED(COSDA_NAME_BATCHED)
#undef COSDA_NAME_BATCHED
  for (const Named& x : named) {
    SCOPED_TRACE(std::string(x.id));
    Config c{.n = 8, .d = 32, .m = 2};
    if (variant(x.id).landmarks == LandmarkKind::kFixed)
      c.fixed_q = c.fixed_k = random_stream(c.m, c.d, 3);
    EXPECT_EQ(class_of(*make_variant<Plain<float>>(x.id, c)), x.per_head);
    if (x.batched.empty()) continue;
    EXPECT_EQ(x.batched, x.per_head);  // no twin
    EXPECT_EQ(class_of(*make_batched<Tally<double>>(x.id, c, 16, 1)), x.per_head);
    for (const std::int64_t h : {1, 16}) {
      EXPECT_EQ(class_of(MultiHead<Tally<double>>(x.id, c, h).object(0)), x.per_head);
      EXPECT_EQ(class_of(MultiHead<Plain<float>>(x.id, c, h).object(0)), x.per_head);
      EXPECT_EQ(class_of(MultiHead<Tally<double>>(x.id, c, h, 2).object(0)),
                class_of(MultiHead<Plain<float>>(x.id, c, h, 2).object(0)));
    }
  }
}

}  // namespace
}  // namespace cosda::test
