// The worked example of docs/adding-a-variant.md: colin_si (tests/linear_variant.hpp), a
// family of one continual variant, built here exactly as a registry variant is built
// (COSDA_DEFINE_VARIANT, and its line appended to COSDA_VARIANTS), counted under Tally and
// Exact, its memory traced, and its output checked against linear attention recomputed over
// the window.
#include "tests/linear_variant.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <random>
#include <string_view>
#include <vector>

#include "attention/counting/liveness.hpp"
#include "attention/registry.hpp"

namespace cosda {

// Step 2 of the walk-through: the factory make_colin_si<E> and CoLinSi<E>, for every policy.
COSDA_DEFINE_VARIANT(colin_si, CoLinSi)

namespace {

// Step 3: the registry's list with the one line X(colin_si, CoLinSi) added, built by the same
// macro as kVariants, and the registry's own checks and relations over it.
#define COSDA_WITH_EXAMPLE(X) COSDA_VARIANTS(X) X(colin_si, CoLinSi)
#define COSDA_EXAMPLE_TRAITS(id, Class) Class<Plain<double>>::kTraits,
constexpr std::array kWithExample{COSDA_WITH_EXAMPLE(COSDA_EXAMPLE_TRAITS)};
#undef COSDA_EXAMPLE_TRAITS
static_assert(kWithExample.size() == kVariants.size() + 1);
static_assert(registry_checks::well_formed(kWithExample),
              "the example keeps ids, styles and kinds unique");

template <class E>
std::unique_ptr<Attention<E>> make_with_example(std::string_view id, const Config& c) {
#define COSDA_EXAMPLE_MAKE(vid, Class) \
  if (id == #vid) return make_##vid<E>(c);
  COSDA_WITH_EXAMPLE(COSDA_EXAMPLE_MAKE)
#undef COSDA_EXAMPLE_MAKE
  return nullptr;
}

std::string_view id_or_none(const VariantTraits* v) { return v != nullptr ? v->id : "none"; }

constexpr const VariantTraits& kLin = CoLinSi<Plain<double>>::kTraits;

TEST(WorkedExample, IsAFamilyOfOneContinualVariant) {
  EXPECT_EQ(sibling(kWithExample, kLin, true), &kWithExample.back());
  EXPECT_EQ(sibling(kWithExample, kLin, false), nullptr) << "no retroactive sibling";
  EXPECT_EQ(recomputed_of(kWithExample, kLin), nullptr) << "no variant re-runs it";
  EXPECT_FALSE(has_two_block_model(kWithExample, kLin));
  // Every registry variant keeps its relations in the longer list.
  for (const VariantTraits& v : kVariants) {
    EXPECT_EQ(has_two_block_model(kWithExample, v), has_two_block_model(v)) << v.id;
    for (const bool single : {false, true})
      EXPECT_EQ(id_or_none(sibling(kWithExample, v, single)), id_or_none(sibling(v, single)))
          << v.id;
  }
  // The factory list with the example builds every id of the longer list.
  const Config c{.n = 6, .d = 4, .m = 2};
  for (const VariantTraits& v : kWithExample) {
    if (v.landmarks == LandmarkKind::kFixed) continue;  // needs landmarks, as everywhere
    EXPECT_NE(make_with_example<Plain<double>>(v.id, c), nullptr) << v.id;
  }
}

// Rows of standard normal tokens: q, k and v of token t are rows 3t, 3t + 1, 3t + 2.
std::vector<double> linear_tokens(std::int64_t count, std::int64_t d, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::vector<double> x(static_cast<std::size_t>(3 * count * d));
  for (double& e : x) e = normal(rng);
  return x;
}

// Linear attention over tokens first..last (inclusive) for the query of token last, written
// directly from Katharopoulos et al. Eq. 4: sum_j phi(q).phi(k_j) v_j / sum_j phi(q).phi(k_j).
std::vector<double> linear_reference(const std::vector<double>& x, std::int64_t d,
                                     std::int64_t first, std::int64_t last) {
  auto phi = [](double e) { return e > 0 ? e + 1 : std::exp(e); };
  auto at = [&](std::int64_t t, int which, std::int64_t i) {
    return x[static_cast<std::size_t>((3 * t + which) * d + i)];
  };
  std::vector<double> num(static_cast<std::size_t>(d), 0.0);
  double den = 0;
  for (std::int64_t j = first; j <= last; ++j) {
    double w = 0;
    for (std::int64_t i = 0; i < d; ++i) w += phi(at(last, 0, i)) * phi(at(j, 1, i));
    den += w;
    for (std::int64_t i = 0; i < d; ++i) num[static_cast<std::size_t>(i)] += w * at(j, 2, i);
  }
  for (double& e : num) e /= den;
  return num;
}

TEST(WorkedExample, OutputIsLinearAttentionOverTheWindow) {
  for (const auto& [n, d] : {std::array<std::int64_t, 2>{1, 3}, {5, 4}, {8, 2}}) {
    const std::int64_t steps = 4 * n + 3;
    const std::vector<double> x = linear_tokens(steps, d, 7);
    auto att = make_with_example<Plain<double>>("colin_si", {.n = n, .d = d});
    for (std::int64_t t = 0; t < steps; ++t) {
      const double* row = &x[static_cast<std::size_t>(3 * t * d)];
      const bool ready = att->step(row, row + d, row + 2 * d);
      ASSERT_EQ(ready, t >= n - 1) << "the first output comes with the n-th token";
      if (!ready) continue;
      const std::vector<double> want = linear_reference(x, d, t - n + 1, t);
      ASSERT_EQ(att->output().rows(), 1);
      for (std::int64_t i = 0; i < d; ++i)
        EXPECT_NEAR(att->output()(0, i), want[static_cast<std::size_t>(i)], 1e-12)
            << "n " << n << " d " << d << " step " << t;
    }
  }
}

double plain_value(double x) { return x; }
double plain_value(Counted x) { return x.value(); }

// Policy E's counts of one steady step (the last of 2n + 1) and its output there.
template <class E>
OpCounts steady_step(std::int64_t n, std::int64_t d, std::vector<double>* out = nullptr) {
  using S = typename E::Scalar;
  const std::vector<double> x = linear_tokens(2 * n + 1, d, 3);
  std::vector<S> xs;
  for (double e : x) xs.push_back(S(e));
  auto att = make_with_example<E>("colin_si", {.n = n, .d = d});
  OpCounts last;
  for (std::int64_t t = 0; t < 2 * n + 1; ++t) {
    const S* row = &xs[static_cast<std::size_t>(3 * t * d)];
    const OpCounts before = thread_counts();
    att->step(row, row + d, row + 2 * d);
    last = thread_counts() - before;
  }
  if (out != nullptr)
    for (std::int64_t i = 0; i < d; ++i) out->push_back(plain_value(att->output()(0, i)));
  return last;
}

TEST(WorkedExample, TallyEqualsScalarLevelCountingAndTheExactForms) {
  const exact::Buckets& form = closed_forms_colin_si().step;
  for (const auto& [n, d] : {std::array<std::int64_t, 2>{1, 1}, {4, 3}, {9, 5}, {16, 8}}) {
    std::vector<double> counted, plain;
    const OpCounts tally = steady_step<Tally<double>>(n, d);
    const OpCounts exact = steady_step<Exact>(n, d, &counted);
    steady_step<Plain<double>>(n, d, &plain);
    EXPECT_EQ(tally, exact) << "n " << n << " d " << d;
    EXPECT_EQ(tally, form.eval(n, d, 1)) << "n " << n << " d " << d;
    for (std::size_t i = 0; i < plain.size(); ++i) EXPECT_NEAR(counted[i], plain[i], 1e-12);
  }
  // Continual: a step's cost does not grow with the window.
  EXPECT_EQ(steady_step<Tally<double>>(4, 6), steady_step<Tally<double>>(64, 6));
}

// The values that cross a step boundary, traced as MultiHead traces a head: the token is
// written at the step's start and the output read at its end.
std::int64_t traced_valley(std::int64_t n, std::int64_t d) {
  const std::vector<double> x = linear_tokens(2 * n + 4, d, 5);
  auto att = make_with_example<Tally<double>>("colin_si", {.n = n, .d = d});
  Liveness l(sizeof(double));
  std::vector<double> token(static_cast<std::size_t>(3 * d));
  const std::int64_t bytes = d * std::int64_t(sizeof(double));
  auto step = [&](std::int64_t t, bool measured) {
    std::copy_n(&x[static_cast<std::size_t>(3 * t * d)], 3 * d, token.begin());
    thread_liveness() = &l;
    l.begin_step(measured);
    l.write(token.data(), 3 * bytes);
    const bool ready = att->step(token.data(), token.data() + d, token.data() + 2 * d);
    l.end_step();
    if (ready) l.read(att->output().data(), bytes);
    thread_liveness() = nullptr;
  };
  for (std::int64_t t = 0; t < n; ++t) step(t, false);
  step(n, true);
  l.mark_pending();
  for (std::int64_t t = n + 1; t < 2 * n + 4; ++t) step(t, false);
  return l.finish().valley;
}

TEST(WorkedExample, ValleyIsTheSumsAndTheRings) {
  for (const auto& [n, d] : {std::array<std::int64_t, 2>{1, 2}, {4, 3}, {10, 4}})
    EXPECT_EQ(traced_valley(n, d), closed_forms_colin_si().valley.eval(n, d, 1))
        << "n " << n << " d " << d;
}

}  // namespace
}  // namespace cosda

#undef COSDA_WITH_EXAMPLE
