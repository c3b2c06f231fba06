// Shared test fixtures: seeded token streams and plain-Eigen reference attention written
// independently of the kernels (no ops seam, no rings, whole window recomputed).
#pragma once

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <random>
#include <string>
#include <vector>

#include "attention/families/landmarks.hpp"
#include "attention/registry.hpp"

namespace cosda::test {

using MatD = Eigen::MatrixXd;

inline MatD random_stream(std::int64_t rows, std::int64_t d, std::uint64_t seed,
                          double scale = 0.5) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  MatD x(rows, d);
  for (std::int64_t i = 0; i < x.size(); ++i) x.data()[i] = scale * normal(rng);
  return x;
}

// s(QK^T/sqrt(d)) V.
inline MatD reference_attention(const MatD& q, const MatD& k, const MatD& v) {
  MatD a = ((q * k.transpose()) / std::sqrt(double(q.cols()))).array().exp();
  const Eigen::VectorXd rs = a.rowwise().sum();
  return rs.cwiseInverse().asDiagonal() * (a * v);
}

// Razavi iteration as Nyströmformer writes it, on plain matrices.
inline MatD reference_iterative_pinv(const MatD& x, int iterations) {
  const std::int64_t m = x.rows();
  const MatD eye = MatD::Identity(m, m);
  MatD z = x.transpose() / x.colwise().sum().maxCoeff();
  for (int i = 0; i < iterations; ++i) {
    const MatD xz = x * z;
    z = 0.25 * z * (13 * eye - xz * (15 * eye - xz * (7 * eye - xz)));
  }
  return z;
}

inline MatD row_softmax_exp(const MatD& s) {
  MatD a = s.array().exp();
  const Eigen::VectorXd rs = a.rowwise().sum();
  return rs.cwiseInverse().asDiagonal() * a;
}

// s(Q Kt^T/sqrt d) s(Qt Kt^T/sqrt d)^+ s(Qt K^T/sqrt d) V, landmarks qt (raw) and kt.
inline MatD reference_nystrom(const MatD& q, const MatD& k, const MatD& v, const MatD& qt,
                              const MatD& kt, int iterations, bool exact) {
  const double r = 1.0 / std::sqrt(double(q.cols()));
  const MatD b = row_softmax_exp(q * kt.transpose() * r);
  const MatD g = row_softmax_exp(qt * kt.transpose() * r);
  const MatD delta = row_softmax_exp(qt * k.transpose() * r);
  const MatD gp = exact ? MatD(g.completeOrthogonalDecomposition().pseudoInverse())
                        : reference_iterative_pinv(g, iterations);
  return b * gp * (delta * v);
}

// Random-feature attention as the Performer writes it, every factor kept: phi(x) =
// exp(-|x|^2/2) / sqrt(m) exp(W x) with x = q / d^(1/4) (and k), W (m x d) unscaled features;
// out_i = phi(q_i) (phi(K)^T V) / (phi(q_i) . phi(K)^T 1).
inline MatD reference_random_features(const MatD& q, const MatD& k, const MatD& v, const MatD& w) {
  const double s = 1.0 / std::sqrt(std::sqrt(double(q.cols())));
  auto phi = [&](const MatD& x) {
    const MatD xs = x * s;
    MatD u = (xs * w.transpose()).array().exp();
    for (std::int64_t i = 0; i < u.rows(); ++i)
      u.row(i) *= std::exp(-0.5 * xs.row(i).squaredNorm()) / std::sqrt(double(w.rows()));
    return u;
  };
  const MatD pq = phi(q), pk = phi(k);
  const Eigen::VectorXd den = pq * pk.colwise().sum().transpose();
  return den.cwiseInverse().asDiagonal() * (pq * (pk.transpose() * v));
}

// Segment means of the rows of x (Sec. IV-C sizes).
inline MatD reference_segment_means(const MatD& x, std::int64_t m) {
  MatD out(m, x.cols());
  std::int64_t first = 0, i = 0;
  for (std::int64_t s : segment_sizes(x.rows(), m)) {
    out.row(i++) = x.middleRows(first, s).colwise().mean();
    first += s;
  }
  return out;
}

inline std::string describe(const OpCounts& c) {
  return "{mul " + std::to_string(c.mul) + ", add " + std::to_string(c.add) + ", div " +
         std::to_string(c.div) + ", exp " + std::to_string(c.exp) + ", other " +
         std::to_string(c.other) + "}";
}

// A seam op run once under Counted execution and once under Tally: the count Tally adds must
// equal what execution records, and be non-zero.
template <class F>
void expect_same_count(F&& op, const std::string& what) {
  OpCounts before = thread_counts();
  op(Exact{});
  const OpCounts exact = thread_counts() - before;
  before = thread_counts();
  op(Tally<double>{});
  const OpCounts tally = thread_counts() - before;
  EXPECT_EQ(exact, tally) << what << ": exact " << describe(exact) << " vs tally "
                          << describe(tally);
  EXPECT_GT(exact.flops(), 0) << what;
}

struct Shape {
  std::int64_t n, d, m;
};
inline std::string shape_name(const std::string& id, const Shape& s) {
  return id + "_n" + std::to_string(s.n) + "_d" + std::to_string(s.d) + "_m" + std::to_string(s.m);
}

inline std::vector<std::string> variant_ids() {
  std::vector<std::string> ids;
  for (const auto& v : kVariants) ids.emplace_back(v.id);
  return ids;
}

}  // namespace cosda::test
