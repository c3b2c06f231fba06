// The accuracy study over draws of the random features (cosda accuracy's feature_seeds): each
// seed is a different draw, and what the study reports (median over the draws, min-max range)
// is computed from the per-draw errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "analysis/accuracy.hpp"
#include "analysis/accuracy_report.hpp"
#include "analysis/streams.hpp"
#include "attention/attention.hpp"
#include "io/errors.hpp"
#include "sweeps/stream_config.hpp"

namespace cosda {
namespace {

NamedStream gaussian_stream(std::uint64_t seed) {
  NamedStream s;
  s.name = "g";
  s.spec.seed = seed;
  return s;
}

// The middle value of an odd number of values, by sorting (not percentile()).
double middle(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

TEST(FeatureDraws, SeedsAreDifferentDrawsAndOneSeedRepeats) {
  const Qkv x = stream_qkv(gaussian_stream(3), 32 + 24, 16, "test");
  const ApproxSetup setup{.n = 32, .d = 16, .steps = 24};
  std::vector<ApproxCase> cases;
  for (const std::uint64_t seed : {1, 2, 3, 4, 5, 1}) cases.push_back({"corf_si", 16, seed});
  const auto e = approximation_errors(x, setup, cases);
  std::set<double> medians;
  for (std::size_t i = 0; i < 5; ++i) {
    ASSERT_TRUE(e[i].finite());
    EXPECT_GT(e[i].median, 1e-3);  // an approximation: error well above rounding
    medians.insert(e[i].median);
  }
  EXPECT_EQ(medians.size(), 5u) << "two seeds gave the same error: the same draw";
  EXPECT_EQ(e[5].median, e[0].median);  // the same seed is the same draw
  EXPECT_EQ(e[5].max, e[0].max);
}

TEST(FeatureDraws, SummaryIsTheMedianAndRangeOfTheDraws) {
  std::vector<ErrorSummary> draws(5);
  const double medians[] = {0.4, 0.1, 0.9, 0.3, 0.2}, p95s[] = {1.0, 0.5, 2.0, 0.8, 0.6};
  for (std::size_t i = 0; i < 5; ++i) {
    draws[i].steps = 10;
    draws[i].median = medians[i];
    draws[i].p95 = p95s[i];
    draws[i].max = 3 * p95s[i];
  }
  const DrawSummary s = summarize_draws(draws);
  EXPECT_DOUBLE_EQ(s.e.median, 0.3);
  EXPECT_DOUBLE_EQ(s.e.p95, 0.8);
  EXPECT_DOUBLE_EQ(s.e.max, 2.4);
  EXPECT_DOUBLE_EQ(s.median_min, 0.1);
  EXPECT_DOUBLE_EQ(s.median_max, 0.9);
  EXPECT_TRUE(s.e.finite());
  draws[3].nonfinite_token = 17;  // one draw that broke down flags the point
  EXPECT_EQ(summarize_draws(draws).e.nonfinite_token, 17);
}

// A small study: corf_si over three draws at m below and above n, beside co_si and ny.
AccuracyConfig small_study() {
  AccuracyConfig c;
  c.name = "draws";
  c.d = 8;
  c.steps = 12;
  c.calibration = 32;  // at least the largest m: fixed landmarks are m-means of it
  c.pinv_windows = 1;
  c.ns = {16};
  c.ms = {4, 32};
  c.feature_ms = {4, 32};
  c.feature_seeds = {11, 12, 13};
  c.pinv_iterations_study = {6};
  c.variants = {"co_si", "ny", "corf_si"};
  c.streams = {gaussian_stream(5)};
  return c;
}

TEST(FeatureDraws, StudyReportsEveryDrawAndTheirMedian) {
  const AccuracyConfig c = small_study();
  const AccuracyResults r = run_accuracy(c, Clock::now());
  const Qkv x = stream_qkv(c.streams[0], c.calibration + 16 + c.steps, c.d, "test")
                    .middle_rows(c.calibration, 16 + c.steps);
  int features = 0;
  for (const AccuracyRow& row : r.rows) {
    EXPECT_FALSE(row.variant == "ny" && row.m > 16) << "landmarks stay at most n";
    if (row.variant != "corf_si") {
      EXPECT_TRUE(row.seeds.empty());
      continue;
    }
    ++features;
    ASSERT_EQ(row.seeds, (std::vector<std::uint64_t>{11, 12, 13}));
    std::vector<double> medians;
    for (std::size_t i = 0; i < 3; ++i) {
      // Each draw is the run of its own seed alone.
      const auto alone = approximation_errors(x, {.n = 16, .d = c.d, .steps = c.steps},
                                              {{"corf_si", row.m, row.seeds[i]}});
      EXPECT_EQ(row.per_draw[i].median, alone[0].median);
      medians.push_back(alone[0].median);
    }
    EXPECT_EQ(row.e.median, middle(medians));
    EXPECT_EQ(row.median_min, *std::min_element(medians.begin(), medians.end()));
    EXPECT_EQ(row.median_max, *std::max_element(medians.begin(), medians.end()));
    EXPECT_LT(row.median_min, row.median_max);
  }
  EXPECT_EQ(features, 2);  // m = 4 and m = 32 > n
  // accuracy_draws.csv: a header and one line per draw; accuracy.csv names the draws.
  const std::string draws = accuracy_draws_csv(r);
  EXPECT_EQ(std::count(draws.begin(), draws.end(), '\n'), 1 + 2 * 3);
  const std::string csv = accuracy_csv(c, r);
  EXPECT_NE(csv.find("median_rel_err_min,median_rel_err_max"), std::string::npos);
  EXPECT_NE(csv.find(",corf_si,-,1,12,"), std::string::npos) << csv;
  // The landmark cases m > n are named as left out, not dropped silently; features may exceed n.
  const std::string summary = accuracy_summary(c, r, {});
  EXPECT_NE(summary.find("(m > n): m = 32 at n = 16.\n"), std::string::npos) << summary;
}

TEST(FeatureDraws, ConfigKeysAndTheirDefaults) {
  const auto dir = std::filesystem::temp_directory_path() / "cosda_accuracy_draws_test";
  std::filesystem::create_directories(dir);
  const std::string base =
      "name = \"a\"\nd = 4\nn = [8]\nm = [2, 4]\nvariants = [\"corf_si\"]\nsteps = 4\n"
      "calibration = 8\npinv_study_iterations = [6]\n[[stream]]\nname = \"g\"\n";
  auto parse = [&](const std::string& keys) {
    std::ofstream(dir / "c.toml") << keys << base;
    return parse_accuracy_config(dir / "c.toml");
  };
  const AccuracyConfig old = parse("");  // a config from before the keys: one draw, m grid
  EXPECT_EQ(old.feature_seeds, std::vector<std::uint64_t>{Config{}.feature_seed});
  EXPECT_EQ(old.feature_ms, old.ms);
  const AccuracyConfig c = parse("feature_seeds = [1, 2, 3]\nfeature_m = [4, 16]\n");
  EXPECT_EQ(c.feature_seeds, (std::vector<std::uint64_t>{1, 2, 3}));
  EXPECT_EQ(c.feature_ms, (std::vector<std::int64_t>{4, 16}));
  EXPECT_THROW(parse("feature_seeds = [1, 1]\n"), InputError);
  EXPECT_THROW(parse("feature_seeds = [-1]\n"), InputError);
  EXPECT_THROW(parse("feature_m = [0]\n"), InputError);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace cosda
