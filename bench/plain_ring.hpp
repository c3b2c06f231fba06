// The plain-Eigen peer of the single-output continual step (cosda-bench's `ring` cases): K and V
// as n x d row-major rings, a = exp(K q / sqrt(d)), out = V^T a / sum(a), with no seam, counting
// or layout choices; h heads are h rings of width d / h, one after another on one thread.
#pragma once

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "io/errors.hpp"
#include "models/multi_head.hpp"

namespace cosda::bench {

template <class T>
class PlainRing {
 public:
  using Ring = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  using Vec = Eigen::Matrix<T, Eigen::Dynamic, 1>;

  PlainRing(std::int64_t n, std::int64_t d, std::int64_t heads)
      : n_(n), dh_(d / heads), scale_(T(1.0 / std::sqrt(double(dh_)))), out_(d) {
    for (std::int64_t i = 0; i < heads; ++i) {
      k_.emplace_back(Ring::Zero(n, dh_));
      v_.emplace_back(Ring::Zero(n, dh_));
    }
    a_.resize(n);
  }

  // Token (q, k, v), d values each; true once the window is full and output() is this step's.
  bool step(const T* q, const T* k, const T* v) {
    const std::int64_t slot = seen_ % n_;
    for (std::size_t i = 0; i < k_.size(); ++i) {
      const std::int64_t at = std::int64_t(i) * dh_;
      k_[i].row(slot) = Eigen::Map<const Vec>(k + at, dh_).transpose();
      v_[i].row(slot) = Eigen::Map<const Vec>(v + at, dh_).transpose();
    }
    if (++seen_ < n_) return false;
    for (std::size_t i = 0; i < k_.size(); ++i) {
      const std::int64_t at = std::int64_t(i) * dh_;
      a_.noalias() = k_[i] * Eigen::Map<const Vec>(q + at, dh_);
      a_ = (a_ * scale_).array().exp();
      out_.segment(at, dh_).noalias() = v_[i].transpose() * a_;
      out_.segment(at, dh_) /= a_.sum();
    }
    return true;
  }
  const Vec& output() const { return out_; }

 private:
  std::int64_t n_, dh_, seen_ = 0;
  T scale_;
  std::vector<Ring> k_, v_;
  Vec a_, out_;
};

// The registry's single-output continual softmax variant without landmarks (CoTrans Eq. 7),
// the step PlainRing computes.
inline const VariantTraits& ring_partner() {
  for (const auto& v : kVariants)
    if (v.family == Family::kSoftmax && v.continual && v.single_output &&
        v.landmarks == LandmarkKind::kNone)
      return v;
  throw std::logic_error("the registry needs a single-output continual softmax variant");
}

// Feeds `steps` token rows (q = k = v) to ring and a fresh ring_partner() MultiHead; returns the
// largest output difference relative to the largest output, throwing at the step it exceeds tol.
template <class T>
double check_against_partner(PlainRing<T>& ring, std::int64_t n, std::int64_t d, std::int64_t heads,
                             const Mat<T>& tokens, std::int64_t steps, double tol) {
  MultiHead<Plain<T>> partner(ring_partner().id, Config{.n = n, .d = d}, heads);
  double worst = 0;
  for (std::int64_t i = 0; i < steps; ++i) {
    const T* x = &tokens(i % tokens.rows(), 0);
    const bool a = ring.step(x, x, x), b = partner.step(x, x, x);
    if (a != b) throw std::runtime_error("plain ring and partner disagree on readiness");
    if (!a) continue;
    const MatCRef<T> p = partner.output();
    double diff = 0, scale = 0;
    for (std::int64_t j = 0; j < d; ++j) {
      diff = std::max(diff, double(std::abs(p(0, j) - ring.output()(j))));
      scale = std::max(scale, double(std::abs(p(0, j))));
    }
    worst = std::max(worst, diff / std::max(scale, 1e-30));
    if (!(worst <= tol))
      throw std::runtime_error("plain ring differs from " + std::string(ring_partner().id) +
                               " at step " + std::to_string(i) + ": relative " +
                               std::to_string(worst));
  }
  return worst;
}

}  // namespace cosda::bench
