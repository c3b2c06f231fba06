// Printed forms of paper equations that are wrong as printed: each test implements the
// printed form on random data and shows it misses the quantity the paper defines, and that
// the corrected form (what the kernels implement) hits it. See analysis/corrections.md.
#include "tests/test_util.hpp"

namespace cosda::test {
namespace {

double rel(const MatD& a, const MatD& b) { return (a - b).norm() / b.norm(); }

// rho(Psi, Omega) = exp(Psi Omega^T / sqrt(d))  (Nyström paper, after Eq. 4).
MatD rho(const MatD& psi, const MatD& omega) {
  return ((psi * omega.transpose()) / std::sqrt(double(psi.cols()))).array().exp();
}

TEST(Corrections, NystromEq24ReciprocalsDoNotSlide) {
  const std::int64_t n = 12, d = 6, m = 3;
  const MatD qt = random_stream(m, d, 1), k = random_stream(n + 1, d, 2);
  const MatD k_prev = k.topRows(n), k_now = k.bottomRows(n);  // window slides by one token
  const Eigen::VectorXd phi_prev = rho(qt, k_prev).rowwise().sum();
  const Eigen::VectorXd phi_now = rho(qt, k_now).rowwise().sum();
  const Eigen::VectorXd r_old = rho(qt, k.topRows(1)), r_new = rho(qt, k.bottomRows(1));
  // Printed: phi(Delta)^-1 = phi(Delta)^-1_prev - rho(Qt, k_old)^-1 + rho(Qt, k_new)^-1.
  const Eigen::VectorXd printed =
      phi_prev.cwiseInverse() - r_old.cwiseInverse() + r_new.cwiseInverse();
  EXPECT_GT(rel(printed, phi_now.cwiseInverse()), 0.1);
  // Corrected: slide the sums, then invert.
  const Eigen::VectorXd corrected = (phi_prev - r_old + r_new).cwiseInverse();
  EXPECT_LT(rel(corrected, phi_now.cwiseInverse()), 1e-12);
}

TEST(Corrections, NystromEq19SubtractsTheOldLandmark) {
  const std::int64_t m = 4, d = 5;
  const MatD qt = random_stream(m, d, 3), kt = random_stream(m, d, 4);
  const MatD kt_new = random_stream(1, d, 5);
  MatD kt_now = kt;
  kt_now.row(0) = kt_new;  // landmark 0 replaced
  const MatD qt_mem = qt.bottomRows(m - 1);
  const Eigen::VectorXd phi_hat = rho(qt_mem, kt).rowwise().sum();
  const Eigen::VectorXd want = rho(qt_mem, kt_now).rowwise().sum();
  const Eigen::VectorXd printed = phi_hat - rho(qt_mem, kt_new) + rho(qt_mem, kt_new);
  EXPECT_GT(rel(printed, want), 1e-3);
  const Eigen::VectorXd corrected = phi_hat - rho(qt_mem, kt.topRows(1)) + rho(qt_mem, kt_new);
  EXPECT_LT(rel(corrected, want), 1e-12);
}

TEST(Corrections, NystromEq13SumsOneTokenTooMany) {
  const std::int64_t n = 12, m = 3, d = 4, s = n / m;
  const MatD q = random_stream(n, d, 6);               // rows 1..n in the paper's 1-based indexing
  const MatD want = q.bottomRows(s).colwise().mean();  // the mean of the newest n/m tokens
  // Printed: (m/n) sum_{i = n - n/m}^{n} q_i, 1-based: rows n-n/m .. n, i.e. n/m + 1 rows.
  const MatD printed = (double(m) / n) * q.bottomRows(s + 1).colwise().sum();
  EXPECT_GT(rel(printed, want), 0.05);
  const MatD corrected = (double(m) / n) * q.bottomRows(s).colwise().sum();
  EXPECT_LT(rel(corrected, want), 1e-14);
}

TEST(Corrections, CoTransEq2NeedsTheScaling) {
  const std::int64_t n = 10, d = 16;
  const MatD q = random_stream(n + 1, d, 7, 1.0), k = random_stream(n + 1, d, 8, 1.0);
  // Row sums d of A = exp(QK^T/sqrt(d)) (Eq. 1) for the queries kept between the windows.
  const MatD q_mem = q.middleRows(1, n - 1);
  const Eigen::VectorXd d_prev = rho(q_mem, k.topRows(n)).rowwise().sum();
  const Eigen::VectorXd want = rho(q_mem, k.bottomRows(n)).rowwise().sum();
  const MatD k_old = k.topRows(1), k_new = k.bottomRows(1);
  // Printed Eq. (2): exp(Q_mem k^T), no 1/sqrt(d).
  const Eigen::VectorXd printed = d_prev - MatD((q_mem * k_old.transpose()).array().exp()) +
                                  MatD((q_mem * k_new.transpose()).array().exp());
  EXPECT_GT(rel(printed, want), 0.01);
  const Eigen::VectorXd corrected = d_prev - rho(q_mem, k_old) + rho(q_mem, k_new);
  EXPECT_LT(rel(corrected, want), 1e-12);
}

// Eq. (23)'s newest row is printed as rho(q_new, Kt)_phi, without the Gamma_phi^+ of Eq. (21)
// and of the rows above it; the row Nyström attention defines (Eq. 8) has it.
TEST(Corrections, NystromEq23NewRowNeedsGammaPinv) {
  const std::int64_t n = 12, d = 4, m = 3;
  const MatD q = random_stream(n, d, 11), k = random_stream(n, d, 12), v = random_stream(n, d, 13);
  const MatD qt = reference_segment_means(q, m), kt = reference_segment_means(k, m);
  const MatD want = reference_nystrom(q, k, v, qt, kt, 6, true).bottomRows(1);
  const double r = 1.0 / std::sqrt(double(d));
  const MatD beta = row_softmax_exp(q.bottomRows(1) * kt.transpose() * r);
  const MatD dv = row_softmax_exp(qt * k.transpose() * r) * v;  // phi(Delta)^-1 (.) Delta V
  EXPECT_GT(rel(beta * dv, want), 1e-3);                        // printed
  const MatD g = row_softmax_exp(qt * kt.transpose() * r);
  const MatD gp = g.completeOrthogonalDecomposition().pseudoInverse();
  EXPECT_LT(rel(beta * gp * dv, want), 1e-9);  // with Gamma_phi^+
}

TEST(Corrections, NystromEq4ShapeIsNByN) {
  const std::int64_t n = 7, d = 3;
  const MatD a = rho(random_stream(n, d, 9), random_stream(n, d, 10));
  EXPECT_EQ(a.rows(), n);
  EXPECT_EQ(a.cols(), n);  // printed: n x d
  EXPECT_NE(a.cols(), d);
}

}  // namespace
}  // namespace cosda::test
