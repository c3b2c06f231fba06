// Approximation error of the variants against exact attention, and of the iterative pseudo-inverse
// against the exact one (cosda accuracy). Per step: ||Y - Y_ref||_F / ||Y_ref||_F, Y the output
// for the window (n x d, or 1 x d single-output), Y_ref exact attention of it (newest row if
// single-output) in plain Eigen with max-subtraction, independent of the kernels. Per run:
// median, 95th percentile and maximum over the steady-state steps (after the priming one).
#pragma once

#include <Eigen/Core>
#include <Eigen/QR>
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analysis/calibration.hpp"
#include "analysis/streams.hpp"

namespace cosda {

template <class T>
using MatX = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>;

// ||got - want||_F / ||want||_F; 0 when both are zero, +inf when only want is.
double rel_error(const Eigen::Ref<const Eigen::MatrixXd>& got,
                 const Eigen::Ref<const Eigen::MatrixXd>& want);

// The p-th percentile (0 <= p <= 100) of non-empty v, linear between order statistics (NumPy's).
double percentile(std::vector<double> v, double p);

// Rows of exp(s) normalised to sum 1, with the row maximum subtracted first.
template <class T>
MatX<T> stable_row_softmax(const MatX<T>& s) {
  MatX<T> a = (s.colwise() - s.rowwise().maxCoeff()).array().exp().matrix();
  const Eigen::Matrix<T, Eigen::Dynamic, 1> sums = a.rowwise().sum();
  return sums.cwiseInverse().asDiagonal() * a;
}

// Exact attention s(Q K^T / sqrt(d)) V of one window, in scalar T, with max-subtraction.
template <class T>
MatX<T> exact_attention(const MatX<T>& q, const MatX<T>& k, const MatX<T>& v) {
  const T r = T(1) / std::sqrt(T(q.cols()));
  return stable_row_softmax<T>(MatX<T>(q * k.transpose() * r)) * v;
}

// The Razavi iteration of attention/families/pinv.hpp on plain matrices (iterations >= 0).
template <class T>
MatX<T> razavi_pinv(const MatX<T>& x, int iterations) {
  const std::int64_t m = x.rows();
  const MatX<T> eye = MatX<T>::Identity(m, m);
  MatX<T> z = x.transpose() / x.cwiseAbs().colwise().sum().maxCoeff();
  for (int i = 0; i < iterations; ++i) {
    const MatX<T> xz = x * z;
    z = T(0.25) * z * (T(13) * eye - xz * (T(15) * eye - xz * (T(7) * eye - xz)));
  }
  return z;
}

// Nyström attention of one window (Nyström paper Eq. 8) with the given landmarks, from
// scratch: qt_scaled are landmark queries already divided by sqrt(d), kt landmark keys.
// iterations < 0: the exact pseudo-inverse (complete orthogonal decomposition, in double).
template <class T>
MatX<T> nystrom_attention(const MatX<T>& q, const MatX<T>& k, const MatX<T>& v,
                          const MatX<T>& qt_scaled, const MatX<T>& kt, int iterations) {
  const T r = T(1) / std::sqrt(T(q.cols()));
  const MatX<T> b = stable_row_softmax<T>(MatX<T>(q * kt.transpose() * r));
  const MatX<T> g = stable_row_softmax<T>(MatX<T>(qt_scaled * kt.transpose()));
  const MatX<T> delta = stable_row_softmax<T>(MatX<T>(qt_scaled * k.transpose()));
  MatX<T> gp;
  if (iterations < 0)
    gp = g.template cast<double>()
             .completeOrthogonalDecomposition()
             .pseudoInverse()
             .template cast<T>();
  else
    gp = razavi_pinv<T>(g, iterations);
  return b * (gp * (delta * v));
}

struct ErrorSummary {
  std::int64_t steps = 0;  // steady-state steps compared
  double median = 0, p95 = 0, max = 0;
  std::int64_t nonfinite_token = -1;  // first token whose output was not finite; -1: none
  bool finite() const { return nonfinite_token < 0; }
};
ErrorSummary summarize(const std::vector<double>& errors);

// Per statistic (steps, median, p95, max), the median over the draws, plus the range of their
// medians; non-finite at the earliest such token if any draw is. per_draw must not be empty.
struct DrawSummary {
  ErrorSummary e;
  double median_min = 0, median_max = 0;  // over the draws
};
DrawSummary summarize_draws(const std::vector<ErrorSummary>& per_draw);

// One variant at one m (ignored without landmarks); feature_seed: the features' draw, or default.
struct ApproxCase {
  std::string variant{};
  std::int64_t m = 1;
  std::optional<std::uint64_t> feature_seed{};
};

struct ApproxSetup {
  std::int64_t n = 0, d = 0;
  std::int64_t steps = 0;  // steady-state steps compared (tokens used: n + steps)
  int pinv_iterations = 6;
  bool exact_pinv = false;
  // Fixed landmarks per m (raw q and k, m x d), for ny_fix and cony_*_fix.
  std::map<std::int64_t, std::pair<Eigen::MatrixXd, Eigen::MatrixXd>> fixed{};
};

// Runs every case (Plain<double>, in parallel) in lockstep over the first n + steps tokens of x
// against exact attention of each window; a case turning non-finite stops there, flagged.
std::vector<ErrorSummary> approximation_errors(const Qkv& x, const ApproxSetup& setup,
                                               const std::vector<ApproxCase>& cases);

// Gamma_phi = s(Qt Kt^T / sqrt(d)) for segment-means landmarks of one window.
Eigen::MatrixXd landmark_kernel(const Qkv& window, std::int64_t m);

// Relative Frobenius error of attention/families/pinv.hpp's iteration (Pinv<Plain<double>>) against
// the exact pseudo-inverse of x, one entry per iteration count in `iterations`.
std::vector<double> pinv_errors(const Eigen::MatrixXd& x, const std::vector<int>& iterations);

// 2-norm condition number sigma_max / sigma_min (+inf for a singular matrix).
double condition_number(const Eigen::MatrixXd& x);

}  // namespace cosda
