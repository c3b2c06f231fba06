// The printed equations the kernels implement differently (analysis/corrections.md), evaluated on
// data: how far each printed form lands from the quantity the paper defines. On degenerate data
// (leaving = entering token, zero tokens, d = 1, n = d, one landmark) each printed form coincides
// with the definition, so the claims' verdicts follow the residual, not a constant.
#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>
#include <string>

#include "analysis/verify_sections.hpp"

namespace cosda::verify {
namespace {

using MatD = Eigen::MatrixXd;
using Vec = Eigen::VectorXd;

MatD gaussian(std::int64_t rows, std::int64_t cols, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0.0, 0.5);
  MatD x(rows, cols);
  for (std::int64_t i = 0; i < x.size(); ++i) x.data()[i] = normal(rng);
  return x;
}
// rho(Psi, Omega) = exp(Psi Omega^T / sqrt(d))  (Nyström paper, after Eq. 4).
MatD rho(const MatD& psi, const MatD& omega, bool scaled = true) {
  const double s = scaled ? std::sqrt(double(psi.cols())) : 1.0;
  return ((psi * omega.transpose()) / s).array().exp();
}
double rel(const MatD& got, const MatD& want) {
  return (got - want).norm() / std::max(want.norm(), 1e-300);
}

}  // namespace

double printed_residual(const std::string& eq, bool degenerate) {
  if (eq == "eq24") {  // phi(Delta)^-1 slid on reciprocals, against the reciprocal of the sums
    const std::int64_t n = 12, d = 6, m = 3;
    const MatD qt = gaussian(m, d, 1);
    MatD k = gaussian(n + 1, d, 2);
    if (degenerate) k.row(n) = k.row(0);  // the entering token equals the leaving one
    const Vec prev = rho(qt, k.topRows(n)).rowwise().sum();
    const Vec now = rho(qt, k.bottomRows(n)).rowwise().sum();
    const Vec r_old = rho(qt, k.topRows(1)), r_new = rho(qt, k.bottomRows(1));
    return rel(prev.cwiseInverse() - r_old.cwiseInverse() + r_new.cwiseInverse(),
               now.cwiseInverse());
  }
  if (eq == "eq19") {  // phi(Gamma) after landmark 0 is replaced
    const std::int64_t m = 4, d = 5;
    const MatD qt = gaussian(m, d, 3), kt = gaussian(m, d, 4);
    const MatD kt_new = degenerate ? MatD(kt.topRows(1)) : gaussian(1, d, 5);
    MatD kt_now = kt;
    kt_now.row(0) = kt_new;
    const MatD qt_mem = qt.bottomRows(m - 1);
    const Vec printed = rho(qt_mem, kt).rowwise().sum() - rho(qt_mem, kt_new) + rho(qt_mem, kt_new);
    return rel(printed, rho(qt_mem, kt_now).rowwise().sum());
  }
  if (eq == "eq13") {  // (m/n) sum over n/m + 1 tokens, against the mean of the newest n/m
    const std::int64_t n = 12, m = 3, d = 4, s = n / m;
    const MatD q = degenerate ? MatD::Zero(n, d) : gaussian(n, d, 6);
    const MatD printed = (double(m) / double(n)) * q.bottomRows(s + 1).colwise().sum();
    return rel(printed, q.bottomRows(s).colwise().mean());
  }
  if (eq == "co eq2") {  // CoTrans Eq. (2) without 1/sqrt(d), against Eq. (1)'s row sums
    const std::int64_t n = 10, d = degenerate ? 1 : 16;
    const MatD q = gaussian(n + 1, d, 7), k = gaussian(n + 1, d, 8);
    const MatD q_mem = q.middleRows(1, n - 1);
    const Vec printed = rho(q_mem, k.topRows(n)).rowwise().sum() -
                        Vec(rho(q_mem, k.topRows(1), false)) +
                        Vec(rho(q_mem, k.bottomRows(1), false));
    return rel(printed, rho(q_mem, k.bottomRows(n)).rowwise().sum());
  }
  if (eq == "eq4") {  // A = rho(Q, K) printed n x d: its columns against d
    const std::int64_t n = 7, d = degenerate ? 7 : 3;
    const MatD a = rho(gaussian(n, d, 9), gaussian(n, d, 10));
    return std::fabs(double(a.cols() - d)) / double(d);
  }
  if (eq == "eq23") {  // the new row of Eq. (23), rho(q_new, Kt)_phi without Gamma_phi^+
    const std::int64_t n = 12, d = 4, m = degenerate ? 1 : 3;
    const MatD qt = gaussian(m, d, 11), kt = gaussian(m, d, 12), k = gaussian(n, d, 13);
    const MatD v = gaussian(n, d, 14), q = gaussian(1, d, 15);
    const auto normalized = [](MatD x) {
      const Vec sums = x.rowwise().sum();
      for (std::int64_t i = 0; i < x.rows(); ++i) x.row(i) /= sums(i);
      return x;
    };
    const MatD beta = normalized(rho(q, kt));
    const MatD g = normalized(rho(qt, kt)).completeOrthogonalDecomposition().pseudoInverse();
    const MatD dv = normalized(rho(qt, k)) * v;  // phi(Delta)^-1 (.) Delta V
    return rel(beta * dv, beta * g * dv);
  }
  throw std::logic_error("printed_residual: no equation " + eq);
}

}  // namespace cosda::verify
