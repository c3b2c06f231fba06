// Polynomials in n (sequence length), d (features) and m (landmarks), kept canonical (like terms
// collected, zeros dropped, by descending total degree, then power of n, d, m), so == is exact.
// Double coefficients hold the papers' small integers exactly. str() prints as the papers, e.g.
// "2n^2d + n^2 + nd + n" ("0" for zero); leading() keeps the terms of highest total degree.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <initializer_list>
#include <ostream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace cosda {

// coef * n^n * d^d * m^m.
struct Monomial {
  double coef;
  int n = 0, d = 0, m = 0;
};

class Poly {
 public:
  Poly() = default;
  Poly(std::initializer_list<Monomial> terms) : terms_(terms) { normalize(); }

  double eval(double n, double d, double m) const {
    double sum = 0.0;
    for (const Monomial& t : terms_) {
      sum += t.coef * ipow(n, t.n) * ipow(d, t.d) * ipow(m, t.m);
    }
    return sum;
  }

  std::string str() const {
    if (terms_.empty()) return "0";
    std::string out;
    for (std::size_t i = 0; i < terms_.size(); ++i) {
      const Monomial& t = terms_[i];
      const bool negative = t.coef < 0;
      if (i == 0) {
        if (negative) out += "-";
      } else {
        out += negative ? " - " : " + ";
      }
      const double magnitude = std::fabs(t.coef);
      const bool constant = degree(t) == 0;
      if (constant || magnitude != 1.0) out += format_coef(magnitude);
      append_power(out, 'n', t.n);
      append_power(out, 'd', t.d);
      append_power(out, 'm', t.m);
    }
    return out;
  }

  Poly leading() const {
    Poly out;
    if (terms_.empty()) return out;
    const int top = degree(terms_.front());  // canonical order: highest degree first
    for (const Monomial& t : terms_) {
      if (degree(t) == top) out.terms_.push_back(t);
    }
    return out;
  }

  // Highest total degree of any term; -1 for the zero polynomial.
  int degree() const { return terms_.empty() ? -1 : degree(terms_.front()); }
  bool is_zero() const { return terms_.empty(); }

  Poly operator+(const Poly& other) const {
    Poly out = *this;
    out.terms_.insert(out.terms_.end(), other.terms_.begin(), other.terms_.end());
    out.normalize();
    return out;
  }
  Poly operator-() const { return *this * -1.0; }
  Poly operator-(const Poly& other) const { return *this + (-other); }
  Poly operator*(double factor) const {
    Poly out = *this;
    for (Monomial& t : out.terms_) t.coef *= factor;
    out.normalize();
    return out;
  }
  Poly operator*(const Poly& other) const {
    Poly out;
    for (const Monomial& a : terms_) {
      for (const Monomial& b : other.terms_) {
        out.terms_.push_back({a.coef * b.coef, a.n + b.n, a.d + b.d, a.m + b.m});
      }
    }
    out.normalize();
    return out;
  }
  friend Poly operator*(double factor, const Poly& p) { return p * factor; }

  bool operator==(const Poly& other) const {
    return std::equal(
        terms_.begin(), terms_.end(), other.terms_.begin(), other.terms_.end(),
        [](const Monomial& a, const Monomial& b) { return a.coef == b.coef && same_powers(a, b); });
  }

  const std::vector<Monomial>& terms() const { return terms_; }

 private:
  static int degree(const Monomial& t) { return t.n + t.d + t.m; }
  static bool same_powers(const Monomial& a, const Monomial& b) {
    return a.n == b.n && a.d == b.d && a.m == b.m;
  }
  static auto order_key(const Monomial& t) { return std::make_tuple(degree(t), t.n, t.d, t.m); }

  static double ipow(double base, int exponent) {
    double r = 1.0;
    for (int i = 0; i < exponent; ++i) r *= base;
    return r;
  }

  static std::string format_coef(double c) {
    char buf[32];
    if (c == std::floor(c) && c < 1e15) {
      std::snprintf(buf, sizeof buf, "%.0f", c);
    } else {
      std::snprintf(buf, sizeof buf, "%.12g", c);
    }
    return buf;
  }

  static void append_power(std::string& out, char var, int exponent) {
    if (exponent == 0) return;
    out += var;
    if (exponent != 1) out += "^" + std::to_string(exponent);
  }

  void normalize() {
    std::sort(terms_.begin(), terms_.end(),
              [](const Monomial& a, const Monomial& b) { return order_key(a) > order_key(b); });
    std::vector<Monomial> collected;
    for (const Monomial& t : terms_) {
      if (!collected.empty() && same_powers(collected.back(), t)) {
        collected.back().coef += t.coef;
      } else {
        collected.push_back(t);
      }
    }
    std::erase_if(collected, [](const Monomial& t) { return t.coef == 0.0; });
    terms_ = std::move(collected);
  }

  std::vector<Monomial> terms_;
};

inline std::ostream& operator<<(std::ostream& os, const Poly& p) { return os << p.str(); }

}  // namespace cosda
