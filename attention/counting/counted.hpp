// Counted: a double counting its every +, -, *, /, exp, compare, abs and sqrt in thread_counts().
// No conversion back to double (only value()), so an op without an overload here fails to compile
// instead of escaping the count. Copies and construction are free.
#pragma once

#include <Eigen/Core>
#include <cmath>

#include "attention/counting/op_counts.hpp"

namespace cosda {

class Counted {
 public:
  constexpr Counted() = default;
  constexpr explicit Counted(double v) : v_(v) {}

  constexpr double value() const { return v_; }

  friend Counted operator+(Counted a, Counted b) { return tick(&OpCounts::add, a.v_ + b.v_); }
  friend Counted operator-(Counted a, Counted b) { return tick(&OpCounts::add, a.v_ - b.v_); }
  friend Counted operator*(Counted a, Counted b) { return tick(&OpCounts::mul, a.v_ * b.v_); }
  friend Counted operator/(Counted a, Counted b) { return tick(&OpCounts::div, a.v_ / b.v_); }
  friend Counted operator-(Counted a) { return tick(&OpCounts::add, -a.v_); }
  Counted& operator+=(Counted b) { return *this = *this + b; }
  Counted& operator-=(Counted b) { return *this = *this - b; }
  Counted& operator*=(Counted b) { return *this = *this * b; }
  Counted& operator/=(Counted b) { return *this = *this / b; }

  friend bool operator<(Counted a, Counted b) { return compare(a.v_ < b.v_); }
  friend bool operator>(Counted a, Counted b) { return compare(a.v_ > b.v_); }
  friend bool operator<=(Counted a, Counted b) { return compare(a.v_ <= b.v_); }
  friend bool operator>=(Counted a, Counted b) { return compare(a.v_ >= b.v_); }
  friend bool operator==(Counted a, Counted b) { return compare(a.v_ == b.v_); }
  friend bool operator!=(Counted a, Counted b) { return compare(a.v_ != b.v_); }

  friend Counted exp(Counted a) { return tick(&OpCounts::exp, std::exp(a.v_)); }
  friend Counted sqrt(Counted a) { return tick(&OpCounts::other, std::sqrt(a.v_)); }
  friend Counted abs(Counted a) { return tick(&OpCounts::other, std::fabs(a.v_)); }
  friend Counted max(Counted a, Counted b) { return a < b ? b : a; }
  friend bool isfinite(Counted a) { return std::isfinite(a.v_); }  // a check, not arithmetic

 private:
  static Counted tick(std::int64_t OpCounts::*bucket, double v) {
    ++(thread_counts().*bucket);
    return Counted(v);
  }
  static bool compare(bool r) {
    ++thread_counts().other;
    return r;
  }
  double v_ = 0.0;
};

// value(x) for every scalar type kernels use.
inline double value(Counted x) { return x.value(); }
inline double value(double x) { return x; }
inline double value(float x) { return x; }

}  // namespace cosda

namespace Eigen {
template <>
struct NumTraits<cosda::Counted> : NumTraits<double> {
  using Real = cosda::Counted;
  using NonInteger = cosda::Counted;
  using Nested = cosda::Counted;
  using Literal = cosda::Counted;
  enum {
    IsComplex = 0,
    IsInteger = 0,
    IsSigned = 1,
    RequireInitialization = 0,
    ReadCost = 1,
    AddCost = 1,
    MulCost = 1
  };
  static inline cosda::Counted epsilon() { return cosda::Counted(NumTraits<double>::epsilon()); }
  static inline cosda::Counted dummy_precision() {
    return cosda::Counted(NumTraits<double>::dummy_precision());
  }
  static inline cosda::Counted highest() { return cosda::Counted(NumTraits<double>::highest()); }
  static inline cosda::Counted lowest() { return cosda::Counted(NumTraits<double>::lowest()); }
  static inline int digits10() { return NumTraits<double>::digits10(); }
};
}  // namespace Eigen
