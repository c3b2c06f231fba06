// The verdicts of the papers' claims (report section 10) are computed, never constant: each
// claim cosda computes flips under some perturbation of the evidence it rests on (a factor on
// one variant's counts and memory over part of the grid), or for the printed equations on
// degenerate data where the printed form coincides with what it defines.
#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analysis/verify_sections.hpp"
#include "attention/registry.hpp"

namespace cosda::verify {
namespace {

TEST(Claims, NoComputedVerdictIsConstant) {
  Runs runs;
  const auto base = claim_verdicts(runs);
  std::map<std::string, bool> flipped;
  const auto compare = [&] {
    const auto got = claim_verdicts(runs);
    ASSERT_EQ(got.size(), base.size());
    for (std::size_t i = 0; i < got.size(); ++i)
      if (got[i].second != base[i].second) flipped[base[i].first] = true;
  };
  runs.degenerate = true;
  compare();
  runs.degenerate = false;
  const std::vector<std::function<bool(const Point&)>> scopes = {
      [](const Point&) { return true; },        [](const Point& p) { return p.n <= 100; },
      [](const Point& p) { return p.n > 100; }, [](const Point& p) { return p.n >= 512; },
      [](const Point& p) { return p.d > 256; }, [](const Point& p) { return p.layers == 2; }};
  for (const VariantTraits& v : kVariants)
    for (const double f : {1e-3, 0.5, 1.1, 2.0, 1e3})
      for (const auto& scope : scopes) {
        runs.perturb = [&](const Point& p) { return p.variant == v.id && scope(p) ? f : 1.0; };
        compare();
      }
  int computed = 0;
  for (const auto& [key, holds] : base) {
    if (!holds) continue;  // "not computed": a state of its own
    ++computed;
    EXPECT_TRUE(flipped[key]) << "claim " << key << " keeps its verdict under every perturbation";
  }
  EXPECT_GE(computed, int(base.size()) - 2);
}

// The printed equations miss what they define on random data, and coincide on degenerate data.
TEST(Claims, PrintedEquationsResidualsFollowTheData) {
  for (const char* eq : {"eq24", "eq19", "eq13", "eq4", "eq23", "co eq2"}) {
    EXPECT_GT(printed_residual(eq, false), 1e-3) << eq;
    EXPECT_LT(printed_residual(eq, true), 1e-12) << eq;
  }
}

}  // namespace
}  // namespace cosda::verify
