// Every variant against its non-continual counterpart on long streams: at every step from
// steady state on (at least 3n steps), every output row, relative Frobenius error per step.
#include <cstdio>
#include <map>
#include <mutex>

#include "models/multi_head.hpp"
#include "tests/test_util.hpp"

namespace cosda::test {
namespace {

struct ErrorLog {  // the largest error seen per variant and scalar, printed at exit
  std::map<std::string, double> worst;
  ~ErrorLog() {
    std::printf("largest relative equivalence error per variant:\n");
    for (const auto& [k, v] : worst) std::printf("  %-22s %.3e\n", k.c_str(), v);
  }
  void note(const std::string& k, double e) { worst[k] = std::max(worst[k], e); }
};
ErrorLog& errors() {
  static ErrorLog log;
  return log;
}

double rel_error(const MatD& got, const MatD& want) {
  return (got - want).norm() / std::max(want.norm(), 1e-300);
}

struct StreamRun {
  double worst = 0;
  std::int64_t steps = 0, update_steps = 0, segment_checks = 0;
};

// Runs a stream of 4n tokens (distinct q, k, v) through the variant and compares each steady
// output with the reference for its window.
template <class E>
StreamRun run_against_reference(const std::string& id, const Shape& s, bool exact_pinv) {
  using T = typename E::Scalar;
  const VariantTraits& t = *find_variant(id);
  const std::int64_t steps = 4 * s.n;
  const MatD q = random_stream(steps, s.d, 1), k = random_stream(steps, s.d, 2),
             v = random_stream(steps, s.d, 3);
  Config c{.n = s.n, .d = s.d, .m = s.m, .exact_pinv = exact_pinv};
  const MatD fixed = random_stream(s.m, s.d, 4);
  if (t.landmarks == LandmarkKind::kFixed) c.fixed_q = c.fixed_k = fixed;
  auto variant = make_variant<E>(id, c);
  StreamRun run;
  for (std::int64_t i = 0; i < steps; ++i) {
    const auto cast = [&](const MatD& x) { return Mat<T>(x.row(i).template cast<T>()); };
    const Mat<T> qi = cast(q), ki = cast(k), vi = cast(v);
    if (!variant->step(qi.data(), ki.data(), vi.data())) {
      EXPECT_LT(i, s.n - 1) << "not ready after n tokens";
      continue;
    }
    EXPECT_GE(i, s.n - 1) << "ready before n tokens";
    const std::int64_t first = i - s.n + 1;
    // The reference sees the same (possibly float-rounded) inputs.
    const MatD qw = q.middleRows(first, s.n).template cast<T>().template cast<double>(),
               kw = k.middleRows(first, s.n).template cast<T>().template cast<double>(),
               vw = v.middleRows(first, s.n).template cast<T>().template cast<double>();
    MatD want;
    switch (t.landmarks) {
      case LandmarkKind::kNone:
        want = reference_attention(qw, kw, vw);
        break;
      case LandmarkKind::kSegmentMeans:
        want = reference_nystrom(qw, kw, vw, reference_segment_means(qw, s.m),
                                 reference_segment_means(kw, s.m), 6, exact_pinv);
        break;
      case LandmarkKind::kFixed:
        want = reference_nystrom(qw, kw, vw, fixed.template cast<T>().template cast<double>(),
                                 fixed.template cast<T>().template cast<double>(), 6, exact_pinv);
        break;
      case LandmarkKind::kRandomFeatures:
        want =
            reference_random_features(qw, kw, vw, draw_random_features(s.d, s.m, c.feature_seed));
        break;
      case LandmarkKind::kContinual: {
        // ny with the landmark set the continual state holds at this step (queries unscaled).
        const double root_d = std::sqrt(double(s.d));
        want = reference_nystrom(qw, kw, vw,
                                 variant->landmarks_q_scaled()->template cast<double>() * root_d,
                                 variant->landmarks_k()->template cast<double>(), 6, exact_pinv);
        if (variant->updated_landmarks()) ++run.update_steps;
        if (s.n % s.m == 0 && variant->updated_landmarks()) {
          // Landmarks are then the segment means of the current window: equal to ny proper.
          const MatD seg = reference_nystrom(qw, kw, vw, reference_segment_means(qw, s.m),
                                             reference_segment_means(kw, s.m), 6, exact_pinv);
          EXPECT_LT(rel_error(want, seg), (std::is_same_v<T, float> ? 1e-4 : 1e-9));
          ++run.segment_checks;
        }
        break;
      }
    }
    if (t.single_output) want = MatD(want.bottomRows(1));
    const MatD got = variant->output().template cast<double>();
    EXPECT_EQ(got.rows(), want.rows());
    const double e = rel_error(got, want);
    run.worst = std::max(run.worst, e);
    ++run.steps;
  }
  return run;
}

struct Case {
  std::string id;
  Shape s;
};

void PrintTo(const Case& c, std::ostream* os) { *os << shape_name(c.id, c.s); }

class Equivalence : public ::testing::TestWithParam<Case> {};

TEST_P(Equivalence, DoubleMatchesReferenceEveryStep) {
  const auto& [id, s] = GetParam();
  const StreamRun r = run_against_reference<Plain<double>>(id, s, false);
  EXPECT_EQ(r.steps, 3 * s.n + 1);
  EXPECT_LT(r.worst, 1e-9);
  errors().note(id + " double", r.worst);
  if (find_variant(id)->landmarks == LandmarkKind::kContinual) {
    EXPECT_EQ(r.update_steps, 3 * s.m) << "m landmark updates per n steps";
    if (s.n % s.m == 0) {
      EXPECT_GT(r.segment_checks, 0);
    }
  }
}

TEST_P(Equivalence, FloatMatchesReferenceEveryStep) {
  const auto& [id, s] = GetParam();
  const StreamRun r = run_against_reference<Plain<float>>(id, s, false);
  EXPECT_LT(r.worst, 1e-4);
  errors().note(id + " float", r.worst);
}

// The variants with a pseudo-inverse (Nyström landmarks) only: cases_with_pinv().
class EquivalencePinv : public Equivalence {};

TEST_P(EquivalencePinv, ExactPseudoInverseMatchesReference) {
  const auto& [id, s] = GetParam();
  const StreamRun r = run_against_reference<Plain<double>>(id, s, true);
  EXPECT_LT(r.worst, 1e-8);
}

std::vector<Case> cases() {
  const std::vector<Shape> shapes = {
      {8, 4, 2},   {10, 6, 3},  // n mod m = 1
      {12, 5, 5},               // n mod m = 2
      {7, 3, 1},                // m = 1
      {6, 4, 6},                // m = n
      {1, 3, 1},                // the smallest window
      {32, 16, 4}, {45, 8, 7},  // n mod m = 3
      {6, 10, 3},               // d > n (co_si keeps its rings untransposed)
      {20, 20, 4},              // n = d (co_si: K a token per column, V a token per row)
  };
  std::vector<Case> out;
  for (const auto& id : variant_ids())
    for (const auto& s : shapes) out.push_back({id, s});
  return out;
}

INSTANTIATE_TEST_SUITE_P(AllVariants, Equivalence, ::testing::ValuesIn(cases()),
                         [](const auto& info) { return shape_name(info.param.id, info.param.s); });

std::vector<Case> cases_with_pinv() {
  std::vector<Case> out;
  for (const Case& c : cases()) {
    const LandmarkKind kind = find_variant(c.id)->landmarks;
    if (kind != LandmarkKind::kNone && kind != LandmarkKind::kRandomFeatures) out.push_back(c);
  }
  return out;
}

INSTANTIATE_TEST_SUITE_P(NystromVariants, EquivalencePinv, ::testing::ValuesIn(cases_with_pinv()),
                         [](const auto& info) { return shape_name(info.param.id, info.param.s); });

// Two-block models: the first block's n outputs (all recomputed by the reference) feed the
// second block; the stream's output equals the reference chain at every steady step.
TEST_P(Equivalence, TwoBlockModelMatchesReferenceChain) {
  const auto& [id, s] = GetParam();
  const VariantTraits& t = *find_variant(id);
  if (!has_two_block_model(t)) GTEST_SKIP() << id << " has no two-block model";
  Config c{.n = s.n, .d = s.d, .m = s.m};
  const MatD fixed = random_stream(s.m, s.d, 4);
  if (t.landmarks == LandmarkKind::kFixed) c.fixed_q = c.fixed_k = fixed;
  auto model = make_model<Plain<double>>(id, c, 2);
  const MatD x = random_stream(4 * s.n, s.d, 12);
  double worst = 0;
  for (std::int64_t i = 0; i < x.rows(); ++i) {
    const Mat<double> xi = x.row(i);
    if (!model->step(xi.data(), xi.data(), xi.data())) continue;
    const MatD w = x.middleRows(i - s.n + 1, s.n);
    auto block = [&](const MatD& in, bool first) -> MatD {
      switch (t.landmarks) {
        case LandmarkKind::kNone:
          return reference_attention(in, in, in);
        case LandmarkKind::kFixed:
          return reference_nystrom(in, in, in, fixed, fixed, 6, false);
        case LandmarkKind::kRandomFeatures:
          return reference_random_features(in, in, in,
                                           draw_random_features(s.d, s.m, c.feature_seed));
        case LandmarkKind::kContinual:
          if (first)  // the landmark set the first block holds, queries unscaled
            return reference_nystrom(in, in, in,
                                     *model->landmarks_q_scaled() * std::sqrt(double(s.d)),
                                     *model->landmarks_k(), 6, false);
          [[fallthrough]];
        case LandmarkKind::kSegmentMeans:
          return reference_nystrom(in, in, in, reference_segment_means(in, s.m),
                                   reference_segment_means(in, s.m), 6, false);
      }
      return {};
    };
    MatD want = block(block(w, true), false);
    if (t.continual) want = MatD(want.bottomRows(1));
    ASSERT_EQ(model->output().rows(), want.rows());
    worst = std::max(worst, rel_error(model->output(), want));
  }
  EXPECT_LT(worst, 1e-9);
  errors().note(id + " two-block double", worst);
}

// ny with m = n: each landmark is one token, and with the exact pseudo-inverse
// s(QK^T) s(QK^T)^+ s(QK^T) = s(QK^T) (a Moore-Penrose identity), so ny equals att.
TEST(NyLimits, EqualsAttWhenEveryTokenIsALandmark) {
  for (const Shape s : {Shape{5, 4, 5}, Shape{9, 3, 9}, Shape{16, 8, 16}}) {
    Config c{.n = s.n, .d = s.d, .m = s.m, .exact_pinv = true};
    Ny<Plain<double>> ny(c);
    Att<Plain<double>> att(c);
    const MatD x = random_stream(3 * s.n, s.d, 7);
    for (std::int64_t i = 0; i < x.rows(); ++i) {
      const Mat<double> xi = x.row(i);
      const bool a = ny.step(xi.data(), xi.data(), xi.data());
      const bool b = att.step(xi.data(), xi.data(), xi.data());
      ASSERT_EQ(a, b);
      if (a) {
        EXPECT_LT(rel_error(ny.output(), att.output()), 1e-9) << "step " << i;
      }
    }
  }
}

// The Razavi iteration converges to the exact pseudo-inverse on softmax matrices.
TEST(Pinv, IterativeConvergesToExactOnSoftmaxMatrices) {
  for (std::int64_t m : {2, 4, 8, 16}) {
    const MatD x = random_stream(m, 8, 11 + m);
    const MatD g = row_softmax_exp(x * x.transpose() / std::sqrt(8.0));
    const MatD exact = g.completeOrthogonalDecomposition().pseudoInverse();
    Pinv<Plain<double>> iter(m, 40, false);
    Mat<double> z(m, m);
    iter.compute(g, z);
    EXPECT_LT(rel_error(z, exact), 1e-9) << "m = " << m;
    double previous = 1e300;
    for (int it : {2, 4, 8, 16}) {  // the error shrinks with the iteration count
      Pinv<Plain<double>> p(m, it, false);
      p.compute(g, z);
      const double e = rel_error(z, exact);
      EXPECT_LE(e, previous * 1.0000001) << "m = " << m << ", iterations " << it;
      previous = e;
    }
  }
}

// Multi-head: h heads of width d/h equal h independent single-head runs, concatenated.
TEST(MultiHead, EqualsHeadsRunSeparately) {
  for (const auto& id : variant_ids()) {
    const std::int64_t n = 9, d = 12, m = 3, h = 3;
    Config c{.n = n, .d = d, .m = m};
    const MatD fixed = random_stream(m, d, 5);
    if (find_variant(id)->landmarks == LandmarkKind::kFixed) c.fixed_q = c.fixed_k = fixed;
    MultiHead<Plain<double>> mh(id, c, h);
    const MatD x = random_stream(3 * n, d, 8);
    for (std::int64_t i = 0; i < x.rows(); ++i) {
      const Mat<double> xi = x.row(i);
      if (!mh.step(xi.data(), xi.data(), xi.data())) continue;
      for (std::int64_t j = 0; j < h; ++j) {
        Config hc = c;
        hc.d = d / h;
        if (c.fixed_q.size()) hc.fixed_q = hc.fixed_k = fixed.middleCols(j * hc.d, hc.d);
        auto single = make_variant<Plain<double>>(id, hc);
        for (std::int64_t r = 0; r <= i; ++r) {
          const Mat<double> xr = x.row(r).segment(j * hc.d, hc.d);
          single->step(xr.data(), xr.data(), xr.data());
        }
        EXPECT_LT(rel_error(mh.output().middleCols(j * hc.d, hc.d), single->output()), 1e-12)
            << id << " head " << j << " step " << i;
      }
    }
  }
}

}  // namespace
}  // namespace cosda::test
