#include "analysis/accuracy.hpp"

#include <Eigen/SVD>
#include <algorithm>
#include <limits>
#include <memory>
#include <stdexcept>

#include "attention/families/landmarks.hpp"
#include "attention/families/pinv.hpp"
#include "attention/registry.hpp"

namespace cosda {

double rel_error(const Eigen::Ref<const Eigen::MatrixXd>& got,
                 const Eigen::Ref<const Eigen::MatrixXd>& want) {
  const double num = (got - want).norm(), den = want.norm();
  if (den == 0) return num == 0 ? 0.0 : std::numeric_limits<double>::infinity();
  return num / den;
}

double percentile(std::vector<double> v, double p) {
  if (v.empty()) throw std::invalid_argument("percentile of an empty set");
  std::sort(v.begin(), v.end());
  const double pos = p / 100.0 * double(v.size() - 1);
  const std::size_t lo = std::size_t(std::floor(pos));
  const std::size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (pos - double(lo)) * (v[hi] - v[lo]);
}

ErrorSummary summarize(const std::vector<double>& errors) {
  ErrorSummary s;
  s.steps = std::int64_t(errors.size());
  if (errors.empty()) return s;
  s.median = percentile(errors, 50);
  s.p95 = percentile(errors, 95);
  s.max = *std::max_element(errors.begin(), errors.end());
  return s;
}

DrawSummary summarize_draws(const std::vector<ErrorSummary>& per_draw) {
  if (per_draw.empty()) throw std::invalid_argument("summarize_draws: no draw");
  DrawSummary out;
  std::vector<double> steps, median, p95, max;
  for (const ErrorSummary& s : per_draw) {
    if (!s.finite() && (out.e.finite() || s.nonfinite_token < out.e.nonfinite_token))
      out.e.nonfinite_token = s.nonfinite_token;
    steps.push_back(double(s.steps));
    median.push_back(s.median);
    p95.push_back(s.p95);
    max.push_back(s.max);
  }
  out.e.steps = std::int64_t(std::llround(percentile(steps, 50)));
  out.e.median = percentile(median, 50);
  out.e.p95 = percentile(p95, 50);
  out.e.max = percentile(max, 50);
  out.median_min = *std::min_element(median.begin(), median.end());
  out.median_max = *std::max_element(median.begin(), median.end());
  return out;
}

std::vector<ErrorSummary> approximation_errors(const Qkv& x, const ApproxSetup& setup,
                                               const std::vector<ApproxCase>& cases) {
  const std::int64_t n = setup.n, d = setup.d, total = n + setup.steps;
  if (x.rows() < total || x.q.cols() != d)
    throw std::invalid_argument("accuracy: the stream is shorter than n + steps or not d wide");
  const std::size_t count = cases.size();
  std::vector<std::unique_ptr<Attention<Plain<double>>>> runs(count);
  std::vector<bool> single(count);
  for (std::size_t i = 0; i < count; ++i) {
    const VariantTraits* t = &variant(cases[i].variant);
    Config c{.n = n,
             .d = d,
             .m = t->landmarks == LandmarkKind::kNone ? 1 : cases[i].m,
             .pinv_iterations = setup.pinv_iterations,
             .exact_pinv = setup.exact_pinv};
    if (cases[i].feature_seed) c.feature_seed = *cases[i].feature_seed;
    if (t->landmarks == LandmarkKind::kFixed) {
      const auto it = setup.fixed.find(c.m);
      if (it == setup.fixed.end())
        throw std::invalid_argument("accuracy: no fixed landmarks for m = " + std::to_string(c.m));
      c.fixed_q = it->second.first;
      c.fixed_k = it->second.second;
    }
    runs[i] = make_variant<Plain<double>>(cases[i].variant, c);
    single[i] = t->single_output;
  }
  std::vector<std::vector<double>> errors(count);
  std::vector<std::int64_t> bad(count, -1);
  using Row = Eigen::Matrix<double, 1, Eigen::Dynamic>;
  std::vector<Row> q, k, v;  // contiguous token rows
  for (std::int64_t t = 0; t < total; ++t) {
    q.emplace_back(x.q.row(t));
    k.emplace_back(x.k.row(t));
    v.emplace_back(x.v.row(t));
  }
  for (std::int64_t t = 0; t < total; ++t) {
    MatX<double> want;
    if (t >= n) {
      const std::int64_t first = t - n + 1;
      want = exact_attention<double>(x.q.middleRows(first, n), x.k.middleRows(first, n),
                                     x.v.middleRows(first, n));
    }
#pragma omp parallel for schedule(dynamic)
    for (std::size_t i = 0; i < count; ++i) {
      if (bad[i] >= 0) continue;
      const bool ready = runs[i]->step(q[t].data(), k[t].data(), v[t].data());
      if (!ready) continue;
      const auto y = runs[i]->output();
      if (!y.allFinite()) {
        bad[i] = t;
        continue;
      }
      if (t < n) continue;  // the priming output is not a steady-state step
      const Eigen::MatrixXd got = y;
      errors[i].push_back(single[i] ? rel_error(got, want.bottomRows(1)) : rel_error(got, want));
    }
  }
  std::vector<ErrorSummary> out(count);
  for (std::size_t i = 0; i < count; ++i) {
    out[i] = summarize(errors[i]);
    out[i].nonfinite_token = bad[i];
  }
  return out;
}

Eigen::MatrixXd landmark_kernel(const Qkv& window, std::int64_t m) {
  const double r = 1.0 / std::sqrt(double(window.q.cols()));
  const Eigen::MatrixXd qt = segment_means(window.q, m) * r, kt = segment_means(window.k, m);
  return stable_row_softmax<double>(qt * kt.transpose());
}

std::vector<double> pinv_errors(const Eigen::MatrixXd& x, const std::vector<int>& iterations) {
  const std::int64_t m = x.rows();
  const Eigen::MatrixXd exact = x.completeOrthogonalDecomposition().pseudoInverse();
  const Mat<double> xr = x;
  std::vector<double> out;
  for (const int it : iterations) {
    Pinv<Plain<double>> p(m, it, false);
    Mat<double> z(m, m);
    p.compute(xr, z);
    out.push_back(rel_error(Eigen::MatrixXd(z), exact));
  }
  return out;
}

double condition_number(const Eigen::MatrixXd& x) {
  const Eigen::VectorXd s = Eigen::JacobiSVD<Eigen::MatrixXd>(x).singularValues();
  const double lo = s[s.size() - 1];
  return lo == 0 ? std::numeric_limits<double>::infinity() : s[0] / lo;
}

}  // namespace cosda
