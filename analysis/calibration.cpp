#include "analysis/calibration.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "attention/families/landmarks.hpp"
#include "attention/families/random_features.hpp"
#include "attention/registry.hpp"

namespace cosda {

Eigen::MatrixXd segment_means(const Eigen::MatrixXd& x, std::int64_t m) {
  Eigen::MatrixXd out(m, x.cols());
  std::int64_t first = 0, i = 0;
  for (const std::int64_t s : segment_sizes(x.rows(), m)) {
    out.row(i++) = x.middleRows(first, s).colwise().mean();
    first += s;
  }
  return out;
}

double calibrate_shift(const std::string& variant, const Config& c, const Qkv& calibration,
                       std::int64_t stride) {
  const auto [lo, hi] = row_max_range(variant, c, calibration, stride);
  return 0.5 * (lo + hi);
}

std::pair<double, double> row_max_range(const std::string& variant, const Config& c,
                                        const Qkv& calibration, std::int64_t stride) {
  const VariantTraits& t = cosda::variant(variant);
  const std::int64_t n = c.n, rows = calibration.rows();
  if (rows < n) throw std::invalid_argument("calibrate_shift: needs at least n tokens");
  if (stride < 1) throw std::invalid_argument("calibrate_shift: stride must be at least 1");
  const double r = 1.0 / std::sqrt(double(c.d));
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  auto note = [&](const Eigen::MatrixXd& s) {
    const Eigen::VectorXd mx = s.rowwise().maxCoeff();
    lo = std::min(lo, mx.minCoeff());
    hi = std::max(hi, mx.maxCoeff());
  };
  for (std::int64_t last = n - 1; last < rows; last += stride) {
    const Eigen::MatrixXd qs = calibration.q.middleRows(last - n + 1, n) * r;
    const Eigen::MatrixXd k = calibration.k.middleRows(last - n + 1, n);
    // Single-output variants exponentiate the newest query's row only.
    const Eigen::MatrixXd queries = t.single_output ? Eigen::MatrixXd(qs.bottomRows(1)) : qs;
    if (t.landmarks == LandmarkKind::kNone) {
      note(queries * k.transpose());
      continue;
    }
    if (t.landmarks == LandmarkKind::kRandomFeatures) {  // the keys' exponents (queries: <= 0)
      const Eigen::MatrixXd w = draw_random_features(c.d, c.m, c.feature_seed) * std::sqrt(r);
      Eigen::MatrixXd e = k * w.transpose();
      e.colwise() -= k.rowwise().squaredNorm() * (0.5 * r);
      note(e);
      continue;
    }
    Eigen::MatrixXd qt, kt;
    if (t.landmarks == LandmarkKind::kFixed) {
      qt = c.fixed_q * r;
      kt = c.fixed_k;
    } else {
      qt = segment_means(qs, c.m);
      kt = segment_means(k, c.m);
    }
    note(queries * kt.transpose());  // B (Eq. 10)
    note(qt * kt.transpose());       // Gamma (Eq. 11)
    note(qt * k.transpose());        // Delta (Eq. 12)
  }
  return {lo, hi};
}

double calibrated_exp_shift(const std::string& id, const Config& c, std::int64_t heads,
                            const Qkv& x) {
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  const std::int64_t dh = c.d / heads;
  for (std::int64_t h = 0; h < heads; ++h) {
    Config hc = c;
    hc.d = dh;
    if (c.fixed_q.size() > 0) hc.fixed_q = hc.fixed_k = c.fixed_q.middleCols(h * dh, dh);
    const Qkv xh{x.q.middleCols(h * dh, dh), x.k.middleCols(h * dh, dh),
                 x.v.middleCols(h * dh, dh)};
    const auto [l, u] = row_max_range(id, hc, xh, std::max<std::int64_t>(1, c.n / 8));
    lo = std::min(lo, l);
    hi = std::max(hi, u);
  }
  return 0.5 * (lo + hi);
}

}  // namespace cosda
