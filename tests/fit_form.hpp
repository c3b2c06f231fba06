// Integer-coefficient fits of closed forms to executed counts, as the exact forms of
// attention/variants/<id>.cpp were derived; tests/exact_test.cpp refits them. A fit is only
// evidence; the frozen forms are each kernel's closed_forms(), via exact::forms().
#pragma once

#include <Eigen/Dense>
#include <cmath>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <vector>

#include "analysis/exact.hpp"
#include "attention/counting/poly.hpp"

namespace cosda::fit {

// n^n d^d m^m s^s.
struct Term {
  int n = 0, d = 0, m = 0, s = 0;
};

struct Sample {
  std::int64_t n, d, m, s, value;
};

// Monomials n^a d^b m^c with a <= max_n, b <= max_d, c <= max_m and a + b + c <= max_degree,
// and s times the monomials of degree <= s_degree (none when s_degree < 0).
inline std::vector<Term> basis(int max_n, int max_d, int max_m, int max_degree, int s_degree) {
  std::vector<Term> out;
  for (int a = 0; a <= max_n; ++a)
    for (int b = 0; b <= max_d; ++b)
      for (int c = 0; c <= max_m; ++c) {
        if (a + b + c <= max_degree) out.push_back({a, b, c, 0});
        if (a + b + c <= s_degree) out.push_back({a, b, c, 1});
      }
  return out;
}

namespace detail {
inline double ipow(double x, int e) {
  double r = 1;
  for (int i = 0; i < e; ++i) r *= x;
  return r;
}
inline std::int64_t ipow_int(std::int64_t x, int e) {
  std::int64_t r = 1;
  for (int i = 0; i < e; ++i) r *= x;
  return r;
}
}  // namespace detail

// Integer coefficients reproducing every sample; nullopt when the rounded least squares misses one.
inline std::optional<exact::Form> fit_form(const std::vector<Term>& terms,
                                           const std::vector<Sample>& samples) {
  if (samples.size() < terms.size()) throw std::invalid_argument("fit_form: too few samples");
  const auto rows = static_cast<Eigen::Index>(samples.size());
  const auto cols = static_cast<Eigen::Index>(terms.size());
  Eigen::MatrixXd a(rows, cols);
  Eigen::VectorXd y(rows);
  for (Eigen::Index i = 0; i < rows; ++i) {
    const Sample& p = samples[static_cast<std::size_t>(i)];
    for (Eigen::Index j = 0; j < cols; ++j) {
      const Term& t = terms[static_cast<std::size_t>(j)];
      a(i, j) = detail::ipow(double(p.n), t.n) * detail::ipow(double(p.d), t.d) *
                detail::ipow(double(p.m), t.m) * detail::ipow(double(p.s), t.s);
    }
    y(i) = double(p.value);
  }
  // Column scaling keeps the least-squares problem well conditioned.
  Eigen::VectorXd scale = a.colwise().norm().transpose();
  for (Eigen::Index j = 0; j < cols; ++j) {
    if (scale(j) == 0) scale(j) = 1;
    a.col(j) /= scale(j);
  }
  const Eigen::VectorXd x = a.colPivHouseholderQr().solve(y).cwiseQuotient(scale);
  std::vector<std::int64_t> coef(static_cast<std::size_t>(cols));
  for (Eigen::Index j = 0; j < cols; ++j) coef[static_cast<std::size_t>(j)] = std::llround(x(j));
  for (const Sample& p : samples) {
    std::int64_t v = 0;
    for (std::size_t j = 0; j < terms.size(); ++j) {
      const Term& t = terms[j];
      v += coef[j] * detail::ipow_int(p.n, t.n) * detail::ipow_int(p.d, t.d) *
           detail::ipow_int(p.m, t.m) * detail::ipow_int(p.s, t.s);
    }
    if (v != p.value) return std::nullopt;
  }
  exact::Form f;
  for (std::size_t j = 0; j < terms.size(); ++j) {
    if (coef[j] == 0) continue;
    const Term& t = terms[j];
    const Poly mono{{double(coef[j]), t.n, t.d, t.m}};
    if (t.s == 0) {
      f.base = f.base + mono;
    } else {
      f.per_s = f.per_s + mono;
    }
  }
  return f;
}

}  // namespace cosda::fit
