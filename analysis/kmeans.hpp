// m-means for fixed landmarks (Nyström paper Sec. IV-B): k-means++ from a fixed seed, then Lloyd
// iterations until no assignment changes. Training-time, plain doubles, never counted or timed.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <limits>
#include <random>
#include <stdexcept>

namespace cosda {

// Centres (m x d) of the rows of x (T x d), T >= m.
inline Eigen::MatrixXd m_means(const Eigen::MatrixXd& x, std::int64_t m, std::uint64_t seed = 1,
                               int max_iterations = 300) {
  const std::int64_t t = x.rows(), d = x.cols();
  if (m < 1 || m > t) throw std::invalid_argument("m-means: needs 1 <= m <= number of tokens");
  std::mt19937_64 rng(seed);
  Eigen::MatrixXd c(m, d);
  Eigen::VectorXd dist2 = Eigen::VectorXd::Constant(t, std::numeric_limits<double>::infinity());
  c.row(0) = x.row(std::uniform_int_distribution<std::int64_t>(0, t - 1)(rng));
  for (std::int64_t k = 1; k < m; ++k) {  // k-means++: next centre with prob. ~ distance^2
    for (std::int64_t i = 0; i < t; ++i)
      dist2[i] = std::min(dist2[i], (x.row(i) - c.row(k - 1)).squaredNorm());
    const double total = dist2.sum();
    std::int64_t pick = 0;
    if (total > 0) {
      double u = std::uniform_real_distribution<double>(0.0, total)(rng);
      while (pick < t - 1 && (u -= dist2[pick]) > 0) ++pick;
    } else {
      pick = std::uniform_int_distribution<std::int64_t>(0, t - 1)(rng);
    }
    c.row(k) = x.row(pick);
  }
  std::vector<std::int64_t> assign(static_cast<std::size_t>(t), -1);
  for (int it = 0; it < max_iterations; ++it) {
    bool changed = false;
    for (std::int64_t i = 0; i < t; ++i) {
      std::int64_t best = 0;
      (c.rowwise() - x.row(i)).rowwise().squaredNorm().minCoeff(&best);
      if (assign[i] != best) changed = true, assign[i] = best;
    }
    if (!changed) break;
    Eigen::MatrixXd sum = Eigen::MatrixXd::Zero(m, d);
    Eigen::VectorXd count = Eigen::VectorXd::Zero(m);
    for (std::int64_t i = 0; i < t; ++i) sum.row(assign[i]) += x.row(i), count[assign[i]] += 1;
    for (std::int64_t k = 0; k < m; ++k)
      if (count[k] > 0) c.row(k) = sum.row(k) / count[k];  // an empty cluster keeps its centre
  }
  return c;
}

}  // namespace cosda
