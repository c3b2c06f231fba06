#include "analysis/streams.hpp"

#include <fmt/format.h>

#include <Eigen/QR>
#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <utility>

#include "io/errors.hpp"

namespace cosda {
namespace {

constexpr std::array<std::pair<std::string_view, StreamKind>, 5> kStreamKinds{{
    {"gaussian", StreamKind::kGaussian},
    {"ar1", StreamKind::kAr1},
    {"periodic", StreamKind::kPeriodic},
    {"regime", StreamKind::kRegime},
    {"npy", StreamKind::kData},
}};
constexpr std::array<std::pair<std::string_view, Projection>, 2> kProjections{{
    {"shared", Projection::kShared},
    {"projected", Projection::kProjected},
}};

// A Haar-distributed orthogonal matrix: QR of a Gaussian one, R's diagonal signs folded into Q.
Eigen::MatrixXd random_orthogonal(std::int64_t d, std::mt19937_64& rng) {
  std::normal_distribution<double> normal(0.0, 1.0);
  Eigen::MatrixXd g(d, d);
  for (std::int64_t i = 0; i < g.size(); ++i) g.data()[i] = normal(rng);
  Eigen::HouseholderQR<Eigen::MatrixXd> qr(g);
  Eigen::MatrixXd q = qr.householderQ();
  const Eigen::MatrixXd r = qr.matrixQR().triangularView<Eigen::Upper>();
  for (std::int64_t j = 0; j < d; ++j)
    if (r(j, j) < 0) q.col(j) *= -1.0;
  return q;
}

}  // namespace

const StreamKind* stream_kind(std::string_view name) {
  for (const auto& [n, k] : kStreamKinds)
    if (n == name) return &k;
  return nullptr;
}
std::string_view stream_kind_name(StreamKind k) {
  for (const auto& [n, kk] : kStreamKinds)
    if (kk == k) return n;
  return "?";
}
const Projection* projection_kind(std::string_view name) {
  for (const auto& [n, p] : kProjections)
    if (n == name) return &p;
  return nullptr;
}
std::string_view projection_name(Projection p) {
  for (const auto& [n, pp] : kProjections)
    if (pp == p) return n;
  return "?";
}

void validate(const StreamSpec& s, std::int64_t d) {
  auto need = [](bool ok, const char* what) {
    if (!ok) throw std::invalid_argument(what);
  };
  need(d >= 1, "stream: d must be at least 1");
  need(std::isfinite(s.scale) && s.scale > 0, "stream: scale must be a positive number");
  need(std::abs(s.ar_coefficient) < 1, "stream: ar_coefficient must lie in (-1, 1)");
  need(s.period >= 2, "stream: period must be at least 2");
  need(s.periodic_noise >= 0 && s.periodic_noise <= 1, "stream: periodic_noise must lie in [0, 1]");
  need(s.regime_length >= 1, "stream: regime_length must be at least 1");
  need(std::isfinite(s.regime_mean) && s.regime_mean >= 0, "stream: regime_mean must be >= 0");
  need(std::isfinite(s.regime_scale) && s.regime_scale >= 1, "stream: regime_scale must be >= 1");
  if (s.kind == StreamKind::kData) {
    need(s.data != nullptr, "stream: an npy stream needs its data");
    need(s.data->cols() == d, "stream: npy data width differs from d");
  }
}

TokenStream::TokenStream(const StreamSpec& spec, std::int64_t d)
    : spec_(spec), d_(d), rng_(spec.seed), state_(d), phase_(d), mean_(d) {
  validate(spec_, d_);
  if (spec_.kind == StreamKind::kPeriodic) {
    std::uniform_real_distribution<double> uniform(0.0, 2 * std::numbers::pi);
    for (std::int64_t j = 0; j < d_; ++j) phase_[j] = uniform(rng_);
  }
  if (spec_.kind == StreamKind::kAr1)
    for (std::int64_t j = 0; j < d_; ++j) state_[j] = normal_(rng_);
}

void TokenStream::next(double* x) {
  const std::int64_t t = t_++;
  switch (spec_.kind) {
    case StreamKind::kGaussian:
      for (std::int64_t j = 0; j < d_; ++j) x[j] = normal_(rng_);
      break;
    case StreamKind::kAr1: {
      const double a = spec_.ar_coefficient, b = std::sqrt(1 - a * a);
      if (t > 0)  // the first token is the stationary draw made at construction
        for (std::int64_t j = 0; j < d_; ++j) state_[j] = a * state_[j] + b * normal_(rng_);
      for (std::int64_t j = 0; j < d_; ++j) x[j] = state_[j];
      break;
    }
    case StreamKind::kPeriodic: {
      const double eta = spec_.periodic_noise, amp = std::sqrt(2 * (1 - eta * eta));
      const double w = 2 * std::numbers::pi * double(t) / double(spec_.period);
      for (std::int64_t j = 0; j < d_; ++j)
        x[j] = amp * std::sin(double(1 + j % 3) * w + phase_[j]) + eta * normal_(rng_);
      break;
    }
    case StreamKind::kRegime: {
      if (regime_left_ == 0) {
        std::geometric_distribution<std::int64_t> extra(1.0 / double(spec_.regime_length));
        regime_left_ = 1 + extra(rng_);
        for (std::int64_t j = 0; j < d_; ++j) mean_[j] = spec_.regime_mean * normal_(rng_);
        const double l = std::log(spec_.regime_scale);
        regime_s_ = std::exp(std::uniform_real_distribution<double>(-l, l)(rng_));
      }
      --regime_left_;
      for (std::int64_t j = 0; j < d_; ++j) x[j] = mean_[j] + regime_s_ * normal_(rng_);
      break;
    }
    case StreamKind::kData:
      if (t >= spec_.data->rows())
        throw std::invalid_argument("stream: the npy data has " +
                                    std::to_string(spec_.data->rows()) +
                                    " tokens; the run needs more (give a longer file or fewer "
                                    "steps)");
      for (std::int64_t j = 0; j < d_; ++j) x[j] = (*spec_.data)(t, j);
      break;
  }
  for (std::int64_t j = 0; j < d_; ++j) x[j] *= spec_.scale;
}

Eigen::MatrixXd generate(const StreamSpec& spec, std::int64_t rows, std::int64_t d) {
  TokenStream s(spec, d);
  Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> x(rows, d);
  for (std::int64_t t = 0; t < rows; ++t) s.next(x.row(t).data());
  return x;
}

Projector::Projector(Projection p, std::int64_t d, std::uint64_t seed) : kind_(p), d_(d) {
  if (kind_ == Projection::kProjected) {
    std::mt19937_64 rng(seed);
    wq_ = random_orthogonal(d, rng);
    wk_ = random_orthogonal(d, rng);
    wv_ = random_orthogonal(d, rng);
  }
}

void Projector::apply(const double* x, double* q, double* k, double* v) const {
  if (kind_ == Projection::kShared) {
    std::copy(x, x + d_, q);
    std::copy(x, x + d_, k);
    std::copy(x, x + d_, v);
    return;
  }
  const Eigen::Map<const Eigen::RowVectorXd> xr(x, d_);
  Eigen::Map<Eigen::RowVectorXd>(q, d_) = xr * wq_;
  Eigen::Map<Eigen::RowVectorXd>(k, d_) = xr * wk_;
  Eigen::Map<Eigen::RowVectorXd>(v, d_) = xr * wv_;
}

Qkv project(const Projector& p, const Eigen::MatrixXd& x) {
  if (p.kind() == Projection::kShared) return {x, x, x};
  Qkv out{Eigen::MatrixXd(x.rows(), x.cols()), Eigen::MatrixXd(x.rows(), x.cols()),
          Eigen::MatrixXd(x.rows(), x.cols())};
  for (std::int64_t t = 0; t < x.rows(); ++t) {
    const Eigen::RowVectorXd xr = x.row(t);
    Eigen::RowVectorXd q(x.cols()), k(x.cols()), v(x.cols());
    p.apply(xr.data(), q.data(), k.data(), v.data());
    out.q.row(t) = q;
    out.k.row(t) = k;
    out.v.row(t) = v;
  }
  return out;
}

Qkv stream_qkv(const NamedStream& s, std::int64_t rows, std::int64_t d, const std::string& need) {
  if (s.qkv) {
    if (s.qkv->rows() < rows)
      throw InputError(
          fmt::format("stream '{}': its q, k and v hold {} rows, fewer than needed "
                      "({} = {} tokens)",
                      s.name, s.qkv->rows(), need, rows));
    return s.qkv->middle_rows(0, rows);
  }
  Eigen::MatrixXd x;
  try {
    x = generate(s.spec, rows, d);
  } catch (const std::invalid_argument& e) {
    throw InputError(fmt::format("stream '{}': {} ({} = {} tokens)", s.name, e.what(), need, rows));
  }
  return project(Projector(s.projection, d, s.projection_seed), x);
}

}  // namespace cosda
