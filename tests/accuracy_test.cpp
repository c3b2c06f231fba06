// Accuracy and numerics machinery: stream generators, the error metric, the approximation-error
// runner, the pseudo-inverse study, overflow detection, the drift runner, and the stabilised
// mode (Config::exp_shift): same outputs, higher overflow threshold, one counted subtraction
// per exponential.
#include "analysis/accuracy.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>

#include "analysis/kmeans.hpp"
#include "analysis/measure.hpp"
#include "analysis/numerics.hpp"
#include "analysis/streams.hpp"
#include "attention/registry.hpp"
#include "io/errors.hpp"
#include "io/strict_toml.hpp"
#include "sweeps/stream_config.hpp"

namespace cosda {
namespace {

using Eigen::MatrixXd;

std::vector<std::string> continual_ids() {
  std::vector<std::string> out;
  for (const auto& v : kVariants)
    if (v.continual) out.emplace_back(v.id);
  return out;
}

// The continual variants whose exponentials are exp(s) as the papers write them: the
// stabilised mode subtracts C from every exponent. The random-feature family bounds its query
// features in both modes and shifts each key's features by one factor exp(-C) instead.
std::vector<std::string> softmax_exponent_ids() {
  std::vector<std::string> out;
  for (const auto& v : kVariants)
    if (v.continual && v.family != Family::kRandomFeatures) out.emplace_back(v.id);
  return out;
}

StreamSpec spec_of(StreamKind k, std::uint64_t seed = 7) {
  StreamSpec s;
  s.kind = k;
  s.seed = seed;
  return s;
}

// ---------------------------------------------------------------------------------------------
// Streams.

TEST(Streams, SameSeedSameTokensOtherSeedOtherTokens) {
  for (const StreamKind k :
       {StreamKind::kGaussian, StreamKind::kAr1, StreamKind::kPeriodic, StreamKind::kRegime}) {
    const MatrixXd a = generate(spec_of(k, 7), 300, 5), b = generate(spec_of(k, 7), 300, 5);
    const MatrixXd c = generate(spec_of(k, 8), 300, 5);
    EXPECT_TRUE(a == b) << stream_kind_name(k);
    EXPECT_GT((a - c).norm(), 1.0) << stream_kind_name(k);
    EXPECT_TRUE(a.allFinite());
  }
}

TEST(Streams, ScaleMultipliesEveryToken) {
  StreamSpec s = spec_of(StreamKind::kRegime);
  const MatrixXd one = generate(s, 200, 4);
  s.scale = 2.5;
  EXPECT_LT((generate(s, 200, 4) - 2.5 * one).norm(), 1e-12 * one.norm());
}

TEST(Streams, UnitVarianceBeforeScale) {
  for (const StreamKind k : {StreamKind::kGaussian, StreamKind::kAr1, StreamKind::kPeriodic}) {
    StreamSpec s = spec_of(k);
    s.ar_coefficient = 0.9;  // short memory, so 40000 tokens estimate the variance well
    const MatrixXd x = generate(s, 40000, 6);
    const double var = (x.rowwise() - x.colwise().mean()).squaredNorm() / double(x.size());
    EXPECT_NEAR(var, 1.0, 0.06) << stream_kind_name(k);
  }
}

TEST(Streams, Ar1HasItsLagOneCorrelation) {
  StreamSpec s = spec_of(StreamKind::kAr1);
  s.ar_coefficient = 0.95;
  const MatrixXd x = generate(s, 60000, 3);
  const double num = (x.topRows(x.rows() - 1).array() * x.bottomRows(x.rows() - 1).array()).sum();
  EXPECT_NEAR(num / x.topRows(x.rows() - 1).squaredNorm(), 0.95, 0.01);
}

TEST(Streams, PeriodicRepeatsWithoutNoise) {
  StreamSpec s = spec_of(StreamKind::kPeriodic);
  s.period = 20;
  s.periodic_noise = 0;
  const MatrixXd x = generate(s, 100, 4);
  EXPECT_LT((x.middleRows(20, 60) - x.middleRows(0, 60)).norm(), 1e-9);
  EXPECT_GT((x.middleRows(7, 60) - x.middleRows(0, 60)).norm(), 1.0);
}

TEST(Streams, RegimesChangeMeanAndScale) {
  StreamSpec s = spec_of(StreamKind::kRegime);
  s.regime_length = 400;
  s.regime_mean = 3.0;
  const MatrixXd x = generate(s, 8000, 4);
  // Block means of 100 tokens vary far more than i.i.d. noise of that block size would let
  // them (standard deviation about 0.3 here at the largest regime scale).
  Eigen::VectorXd means(80);
  for (int b = 0; b < 80; ++b) means[b] = x.middleRows(100 * b, 100).col(0).mean();
  const double spread = std::sqrt((means.array() - means.mean()).square().mean());
  EXPECT_GT(spread, 1.0);
}

TEST(Streams, DataStreamReplaysRowsThenRefuses) {
  StreamSpec s = spec_of(StreamKind::kData);
  auto data = std::make_shared<MatrixXd>(MatrixXd::Random(5, 3));
  s.data = data;
  TokenStream t(s, 3);
  Eigen::RowVectorXd x(3);
  for (int i = 0; i < 5; ++i) {
    t.next(x.data());
    EXPECT_TRUE(x == data->row(i));
  }
  EXPECT_THROW(t.next(x.data()), std::invalid_argument);
}

TEST(Streams, ProjectionsAreOrthogonal) {
  const Projector p(Projection::kProjected, 8, 3);
  const MatrixXd x = generate(spec_of(StreamKind::kGaussian), 20, 8);
  const Qkv y = project(p, x);
  for (int i = 0; i < 20; ++i) {
    EXPECT_NEAR(y.q.row(i).norm(), x.row(i).norm(), 1e-12);
    EXPECT_NEAR(y.k.row(i).norm(), x.row(i).norm(), 1e-12);
  }
  EXPECT_GT((y.q - y.k).norm(), 1.0);
  const Qkv shared = project(Projector(Projection::kShared, 8, 3), x);
  EXPECT_TRUE(shared.q == x && shared.k == x && shared.v == x);
}

// ---------------------------------------------------------------------------------------------
// Metric and runner.

TEST(Metric, RelativeFrobeniusErrorOnKnownCases) {
  const MatrixXd a = MatrixXd::Random(4, 3);
  EXPECT_EQ(rel_error(a, a), 0.0);
  EXPECT_NEAR(rel_error(2 * a, a), 1.0, 1e-15);
  EXPECT_NEAR(rel_error(MatrixXd::Zero(4, 3), a), 1.0, 1e-15);
  MatrixXd b = MatrixXd::Zero(2, 2), c = MatrixXd::Zero(2, 2);
  b(0, 0) = 3, c(0, 0) = 3, c(1, 1) = 4;  // error 4 against norm 5
  EXPECT_NEAR(rel_error(b, c), 0.8, 1e-15);
}

TEST(Metric, PercentilesInterpolateLikeNumpy) {
  const std::vector<double> v{5, 1, 4, 2, 3};
  EXPECT_DOUBLE_EQ(percentile(v, 50), 3.0);
  EXPECT_DOUBLE_EQ(percentile(v, 95), 4.8);  // numpy.percentile([1..5], 95)
  EXPECT_DOUBLE_EQ(percentile(v, 0), 1.0);
  EXPECT_DOUBLE_EQ(percentile(v, 100), 5.0);
}

TEST(Metric, ReferenceAttentionIsStableAndExact) {
  // Rows of one-hot scores far beyond exp's range: max-subtraction keeps them exact.
  MatrixXd q = MatrixXd::Zero(2, 4), k = MatrixXd::Zero(2, 4), v(2, 4);
  q(0, 0) = k(0, 0) = 60;  // q0.k0/sqrt(4) = 1800
  q(1, 1) = k(1, 1) = 60;
  v << 1, 2, 3, 4, 5, 6, 7, 8;
  const MatrixXd y = exact_attention<double>(q, k, v);
  EXPECT_TRUE(y.allFinite());
  EXPECT_LT((y - v).norm(), 1e-12);
}

Qkv gaussian_qkv(std::int64_t rows, std::int64_t d, std::uint64_t seed, double scale = 1.0,
                 Projection p = Projection::kProjected) {
  StreamSpec s = spec_of(StreamKind::kGaussian, seed);
  s.scale = scale;
  return project(Projector(p, d, seed + 1), generate(s, rows, d));
}

TEST(Runner, ExactVariantsHaveRoundingLevelError) {
  const Qkv x = gaussian_qkv(16 + 40, 6, 3);
  const ApproxSetup setup{.n = 16, .d = 6, .steps = 40};
  const auto r = approximation_errors(x, setup, {{"att", 0}, {"co_re", 0}, {"co_si", 0}});
  for (const auto& e : r) {
    EXPECT_EQ(e.steps, 40);
    EXPECT_TRUE(e.finite());
    EXPECT_LT(e.max, 1e-13);
  }
}

TEST(Runner, NystromWithEveryTokenALandmarkAndExactPinvIsExact) {
  const Qkv x = gaussian_qkv(12 + 30, 5, 4);
  ApproxSetup setup{.n = 12, .d = 5, .steps = 30, .exact_pinv = true};
  const auto exact = approximation_errors(x, setup, {{"ny", 12}});
  EXPECT_LT(exact[0].max, 1e-9);
  // With fewer landmarks the same runner sees the approximation.
  const auto approx = approximation_errors(x, setup, {{"ny", 3}});
  EXPECT_GT(approx[0].median, 1e-3);
}

TEST(Runner, FlagsNonFiniteOutputs) {
  // Shared q = k: the diagonal score |x|^2/sqrt(d) is far beyond exp's double range.
  const Qkv x = gaussian_qkv(8 + 10, 4, 5, 40.0, Projection::kShared);
  const auto r =
      approximation_errors(x, ApproxSetup{.n = 8, .d = 4, .steps = 10}, {{"co_re", 0}, {"att", 0}});
  for (const auto& e : r) {
    EXPECT_FALSE(e.finite());
    EXPECT_EQ(e.nonfinite_token, 7) << "the priming output is the first";
  }
}

TEST(Pinv, StudyErrorShrinksToTheExactPseudoInverse) {
  const Qkv x = gaussian_qkv(32, 8, 6);
  const MatrixXd g = landmark_kernel(x, 8);
  EXPECT_NEAR(g.rowwise().sum().maxCoeff(), 1.0, 1e-12);
  const std::vector<double> e = pinv_errors(g, {0, 2, 6, 30});
  EXPECT_GT(e[0], 0.1);  // Z_0 = X^T/||X||_1 is far from the inverse
  EXPECT_LT(e[2], e[1]);
  EXPECT_LT(e[3], 1e-8);
  EXPECT_GE(condition_number(g), 1.0);
}

// ---------------------------------------------------------------------------------------------
// Overflow detection.

TEST(Overflow, DetectsTheFirstNonFiniteToken) {
  const Qkv small = gaussian_qkv(40, 4, 9, 1.0, Projection::kShared);
  Qkv big = small;
  big.q.row(30) *= 100;  // one huge token: its scores overflow exp()
  big.k.row(30) *= 100;
  big.v.row(30) *= 100;
  const Config c{.n = 8, .d = 4, .m = 2};
  // These exponentiate q_30 . k_30 (or a landmark holding x_30) in token 30's own output.
  for (const std::string id : {"att", "co_re", "co_si", "ny"}) {
    EXPECT_EQ(check_run(id, c, small, Precision::kDouble).nonfinite_token, -1) << id;
    EXPECT_EQ(check_run(id, c, big, Precision::kDouble).nonfinite_token, 30) << id;
  }
  // Continual landmarks take x_30 in only when its segment completes, within n steps.
  EXPECT_EQ(check_run("cony_re_cont", c, small, Precision::kDouble).nonfinite_token, -1);
  const std::int64_t t = check_run("cony_re_cont", c, big, Precision::kDouble).nonfinite_token;
  EXPECT_GE(t, 30);
  EXPECT_LT(t, 30 + 8);
}

TEST(Overflow, ThresholdOfExactAttentionIsWhereExpOverflows) {
  // Shared q = k: every row's largest score is its diagonal, so att's output turns non-finite
  // once a row sum of n exponentials exceeds the largest finite value: between
  // ln(max) - ln(n) and ln(max) in score units.
  for (const Precision p : {Precision::kDouble, Precision::kFloat}) {
    const double top = p == Precision::kDouble ? std::log(std::numeric_limits<double>::max())
                                               : std::log(std::numeric_limits<float>::max());
    OverflowSpec spec{
        .variant = "att", .precision = p, .n = 16, .d = 8, .calibration = 16, .steps = 32};
    const Qkv base = gaussian_qkv(16 + 16 + 32, 8, 10, 1.0, Projection::kShared);
    const Threshold r = overflow_threshold(spec, base).nonfinite;
    ASSERT_TRUE(r.found);
    // A V sums n terms exp(s) v_j: the values' size lowers the threshold by ln max |v_ij|.
    const Qkv eval = base.middle_rows(16, 16 + 32);
    const double a = std::sqrt(r.first_bad / score_scale(eval, 16));
    const double vmax = a * eval.v.cwiseAbs().maxCoeff();
    EXPECT_GT(r.first_bad, top - std::log(16.0) - std::log(std::max(1.0, vmax)) - 0.5);
    EXPECT_LT(r.first_bad, top * 1.0001);
    EXPECT_LT(r.first_bad / r.last_ok, 1 + 1e-6);
  }
}

TEST(Overflow, CancellationShowsAsErrorBeforeAnyInf) {
  // Projected q, k: a query's dominant key can leave the window while the query stays, and
  // co_re then subtracts the exponential that dominates its sum. att recomputes every step.
  const std::int64_t n = 16, d = 8;
  Qkv x = gaussian_qkv(n + 200, d, 14);
  const double a = std::sqrt(50.0 / score_scale(x, n));  // scores up to 50: exp(50) is finite
  x = {x.q * a, x.k * a, x.v * a};
  const Config c{.n = n, .d = d};
  const RunCheck att = check_run("att", c, x, Precision::kFloat);
  const RunCheck co_re = check_run("co_re", c, x, Precision::kFloat);
  EXPECT_EQ(att.nonfinite_token, -1);
  EXPECT_LT(att.max_error, 1e-4);
  EXPECT_EQ(co_re.nonfinite_token, -1);
  EXPECT_GT(co_re.max_error, 1e-2);
}

TEST(Overflow, DriftRunnerStopsAtTheStepThatOverflows) {
  StreamSpec s = spec_of(StreamKind::kGaussian, 3);
  s.scale = 12.0;  // shared q = k, d = 4: diagonal scores about 144 * 4 / 2 = 288
  DriftSpec spec{.variant = "co_re",
                 .precision = Precision::kFloat,
                 .n = 8,
                 .d = 4,
                 .steps = 100,
                 .calibration = 16,
                 .checkpoints = 10};
  const DriftResult r = run_drift(spec, s, Projection::kShared, 4);
  EXPECT_EQ(r.nonfinite_step, 0) << "the priming output already overflows in float";
}

// ---------------------------------------------------------------------------------------------
// Stabilised mode.

TEST(Stabilised, CalibratedShiftOnAKnownStream) {
  // Every token the same x: every score is |x|^2/sqrt(d), for the landmark kernels too
  // (segment means of equal tokens are x), so C equals it.
  const std::int64_t n = 6, d = 4;
  MatrixXd x = MatrixXd::Zero(20, d);
  x.col(0).setConstant(3.0);  // |x|^2 / sqrt(d) = 9 / 2
  const Qkv q{x, x, x};
  Config c{.n = n, .d = d, .m = 2};
  for (const std::string id : {"co_si", "co_re", "cony_re_cont"})
    EXPECT_DOUBLE_EQ(calibrate_shift(id, c, q), 4.5) << id;
  c.fixed_q = c.fixed_k = MatrixXd::Zero(2, d);  // landmark scores 0, token scores 0 too
  EXPECT_DOUBLE_EQ(calibrate_shift("cony_si_fix", c, q), 0.0);
}

TEST(Stabilised, OutputsEqualThePlainModeEveryStep) {
  const std::int64_t n = 10, d = 6, m = 3;
  const Qkv x = gaussian_qkv(4 * n, d, 12);
  Config c{.n = n, .d = d, .m = m};
  c.fixed_q = m_means(x.q, m);
  c.fixed_k = m_means(x.k, m);
  for (const std::string& id : continual_ids())
    for (const double shift : {-7.5, 3.25, 40.0}) {
      Config s = c;
      s.exp_shift = shift;
      auto plain = make_variant<Plain<double>>(id, c);
      auto stab = make_variant<Plain<double>>(id, s);
      auto plain_f = make_variant<Plain<float>>(id, c);
      auto stab_f = make_variant<Plain<float>>(id, s);
      double worst = 0, worst_f = 0;
      for (std::int64_t t = 0; t < x.rows(); ++t) {
        const Eigen::RowVectorXd q = x.q.row(t), k = x.k.row(t), v = x.v.row(t);
        const Eigen::RowVectorXf qf = q.cast<float>(), kf = k.cast<float>(), vf = v.cast<float>();
        const bool a = plain->step(q.data(), k.data(), v.data());
        ASSERT_EQ(a, stab->step(q.data(), k.data(), v.data()));
        plain_f->step(qf.data(), kf.data(), vf.data());
        stab_f->step(qf.data(), kf.data(), vf.data());
        if (!a) continue;
        worst = std::max(worst, rel_error(stab->output(), plain->output()));
        worst_f = std::max(
            worst_f, rel_error(stab_f->output().cast<double>(), plain_f->output().cast<double>()));
      }
      EXPECT_LT(worst, 1e-11) << id << " shift " << shift;
      EXPECT_LT(worst_f, 2e-4) << id << " shift " << shift << " (float)";
    }
}

TEST(Stabilised, ExtendsTheOverflowThreshold) {
  // Nearly parallel tokens (1% noise around one direction): every score is close to the
  // largest, so exp() overflows near ln(max) without the shift, while the calibrated shift
  // keeps every exponent near 0 until the 2% spread of the scores itself exceeds exp's range.
  const std::int64_t n = 16, d = 8, m = 4, calib = 32, steps = 32;
  MatrixXd x = 0.01 * generate(spec_of(StreamKind::kGaussian, 13), calib + n + steps, d);
  x.rowwise() += Eigen::RowVectorXd::Ones(d);
  const Qkv base{x, x, x};
  for (const std::string& id : softmax_exponent_ids())
    for (const Precision p : {Precision::kFloat, Precision::kDouble}) {
      OverflowSpec spec{.variant = id,
                        .precision = p,
                        .n = n,
                        .d = d,
                        .m = m,
                        .calibration = calib,
                        .steps = steps,
                        .sigma_max = 1e6};
      const OverflowResult plain = overflow_threshold(spec, base);
      spec.stabilised = true;
      const OverflowResult stab = overflow_threshold(spec, base);
      const std::string what = id + (p == Precision::kFloat ? " float" : " double");
      ASSERT_TRUE(plain.nonfinite.found) << what;
      EXPECT_LT(plain.nonfinite.first_bad, 1000) << what;
      EXPECT_GT(stab.nonfinite.first_bad, 10 * plain.nonfinite.first_bad) << what;
      EXPECT_GT(stab.inaccurate.first_bad, 5 * plain.nonfinite.first_bad) << what;
    }
}

TEST(Stabilised, CostsOneCountedSubtractionPerExponential) {
  for (const std::string& id : softmax_exponent_ids()) {
    const Point plain{.variant = id, .n = 9, .d = 4, .m = 3};
    Point stab = plain;
    stab.stabilised = true;
    const Cost off = measure(plain), on = measure(stab);
    const Cost on_exact = measure(stab, Counting::kExact);
    EXPECT_EQ(on.cycle_total, on_exact.cycle_total) << id << ": Tally == Exact with the mode on";
    EXPECT_EQ(on.cycle_total.add - off.cycle_total.add, off.cycle_total.exp) << id;
    EXPECT_EQ(on.cycle_total.exp, off.cycle_total.exp) << id;
    EXPECT_EQ(on.cycle_total.mul, off.cycle_total.mul) << id;
    EXPECT_EQ(on.cycle_total.div, off.cycle_total.div) << id;
    EXPECT_EQ(on.cycle_total.other, off.cycle_total.other) << id;
  }
}

TEST(Stabilised, RandomFeaturesShiftEachKeyOnceCounted) {
  for (const auto& v : kVariants) {
    if (!v.continual || v.family != Family::kRandomFeatures) continue;
    const Point plain{.variant = std::string(v.id), .n = 9, .d = 4, .m = 3};
    Point stab = plain;
    stab.stabilised = true;
    const Cost off = measure(plain), on = measure(stab);
    EXPECT_EQ(on.cycle_total, measure(stab, Counting::kExact).cycle_total) << v.id;
    // One subtraction for the newest key's exponent per step, nothing else.
    EXPECT_EQ(on.cycle_total.add - off.cycle_total.add, on.cycle_steps) << v.id;
    EXPECT_EQ(on.cycle_total.exp, off.cycle_total.exp) << v.id;
    EXPECT_EQ(on.cycle_total.mul, off.cycle_total.mul) << v.id;
  }
}

TEST(Stabilised, OnlyTheContinualVariantsAcceptIt) {
  Config c{.n = 4, .d = 2, .m = 2};
  c.fixed_q = c.fixed_k = MatrixXd::Ones(2, 2);
  c.exp_shift = 1.0;
  for (const auto& v : kVariants) {
    if (v.continual)
      EXPECT_NO_THROW(make_variant<Plain<double>>(v.id, c)) << v.id;
    else
      EXPECT_THROW(make_variant<Plain<double>>(v.id, c), std::invalid_argument) << v.id;
  }
  EXPECT_FALSE(skip_reason(Point{.variant = "att", .n = 4, .d = 2, .stabilised = true}).empty());
}

// ---------------------------------------------------------------------------------------------
// Drift runner.

TEST(Drift, CheckpointsCoverTheRunInOrder) {
  const auto c = checkpoint_steps(1000000, 120);
  EXPECT_EQ(c.front(), 1);
  EXPECT_EQ(c.back(), 1000000);
  EXPECT_TRUE(std::is_sorted(c.begin(), c.end()));
  EXPECT_GT(c.size(), 100u);
  EXPECT_EQ(std::adjacent_find(c.begin(), c.end()), c.end());
}

TEST(Drift, DoubleRunsMatchTheirRecomputation) {
  for (const std::string& id : continual_ids()) {
    DriftSpec spec{
        .variant = id, .n = 8, .d = 4, .m = 2, .steps = 3000, .calibration = 64, .checkpoints = 20};
    const DriftResult r = run_drift(spec, spec_of(StreamKind::kAr1), Projection::kProjected, 5);
    ASSERT_EQ(r.nonfinite_step, -1) << id;
    ASSERT_FALSE(r.points.empty());
    EXPECT_EQ(r.points.back().step, 3000);
    for (const DriftPoint& p : r.points) {
      EXPECT_LT(p.vs_scratch, 1e-9) << id << " step " << p.step;
    }
  }
}

// A float run is checked against two recomputations: in float (its own rounding) and in
// double. The float recomputation must differ from the double one (else it did not run in
// float) by no more than float rounding, and the run stays within both.
TEST(Drift, FloatRecomputationIsFloatNotDouble) {
  for (const std::string& id : continual_ids()) {
    DriftSpec spec{.variant = id,
                   .precision = Precision::kFloat,
                   .n = 8,
                   .d = 4,
                   .m = 2,
                   .steps = 500,
                   .calibration = 64,
                   .checkpoints = 10};
    const DriftResult r = run_drift(spec, spec_of(StreamKind::kAr1), Projection::kProjected, 5);
    ASSERT_EQ(r.nonfinite_step, -1) << id;
    ASSERT_FALSE(r.points.empty()) << id;
    for (const DriftPoint& p : r.points) {
      EXPECT_GT(p.scratch_vs_double, 0.0) << id << " step " << p.step;
      EXPECT_LT(p.scratch_vs_double, 1e-4) << id << " step " << p.step;
      EXPECT_LT(p.vs_double, 1e-3) << id << " step " << p.step;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Config sections.

TEST(StreamConfig, UnknownAndMisplacedKeysAreRejected) {
  const auto dir = std::filesystem::temp_directory_path() / "cosda_accuracy_test";
  std::filesystem::create_directories(dir);
  auto parse = [&](const std::string& text) {
    const auto path = dir / "c.toml";
    std::ofstream(path) << text;
    TomlTable t = TomlTable::parse_file(path, "configs/accuracy.toml");
    return parse_streams(t, 4);
  };
  EXPECT_EQ(parse("[[stream]]\nname = \"a\"\nkind = \"ar1\"\nar_coefficient = 0.9\n")
                .front()
                .spec.ar_coefficient,
            0.9);
  EXPECT_THROW(parse("[[stream]]\nname = \"a\"\nkind = \"gaussian\"\nperiod = 5\n"), InputError);
  EXPECT_THROW(parse("[[stream]]\nname = \"a\"\nscael = 2.0\n"), InputError);
  EXPECT_THROW(parse("[[stream]]\nname = \"a\"\nscale = \"big\"\n"), InputError);
  EXPECT_THROW(parse("[[stream]]\nname = \"a\"\n[[stream]]\nname = \"a\"\n"), InputError);
  EXPECT_THROW(parse("[[stream]]\nname = \"a b\"\n"), InputError);
  try {
    parse("[[stream]]\nname = \"a\"\nscael = 2.0\n");
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("scael"), std::string::npos) << e.what();
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace cosda
