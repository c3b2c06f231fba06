#include "analysis/numerics.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <stdexcept>

#include "analysis/kmeans.hpp"
#include "attention/families/random_features.hpp"
#include "attention/registry.hpp"

namespace cosda {
namespace {

Qkv scaled(const Qkv& x, double a) { return {x.q * a, x.k * a, x.v * a}; }

// Fixed landmarks for a Config: m-means of the calibration queries and keys (one set if q == k).
void set_fixed_landmarks(Config& c, const Qkv& calibration) {
  c.fixed_q = m_means(calibration.q, c.m);
  if (calibration.k == calibration.q)
    c.fixed_k = c.fixed_q;
  else
    c.fixed_k = m_means(calibration.k, c.m);
}

// Random-feature attention of a window in scalar R with the family's features for (d, m,
// feature_seed), queries' exponents shifted by their maximum, keys' by the window's: no overflow.
template <class R>
MatX<R> random_feature_attention(const MatX<R>& q, const MatX<R>& k, const MatX<R>& v,
                                 const Config& c) {
  const double d = double(c.d);
  const MatX<R> w =
      (draw_random_features(c.d, c.m, c.feature_seed) / std::sqrt(std::sqrt(d))).cast<R>();
  MatX<R> eq = q * w.transpose(), ek = k * w.transpose();
  eq.colwise() -= eq.rowwise().maxCoeff();
  ek.colwise() -= k.rowwise().squaredNorm() * R(0.5 / std::sqrt(d));
  ek.array() -= ek.maxCoeff();
  const MatX<R> pq = eq.array().exp(), pk = ek.array().exp();
  const Eigen::Matrix<R, Eigen::Dynamic, 1> den = pq * pk.colwise().sum().transpose();
  return den.cwiseInverse().asDiagonal() * (pq * (pk.transpose() * v));
}

// From-scratch recomputation in scalar R, with max-subtraction, of the variant's output for the
// window (oldest first): exact attention, or Nyström or random-feature attention with the
// variant's last landmarks or its features. Newest row only for single-output variants.
template <class R, class T>
MatX<R> recompute(const VariantTraits& t, const Attention<Plain<T>>& var, const Eigen::MatrixXd& qw,
                  const Eigen::MatrixXd& kw, const Eigen::MatrixXd& vw, const Config& c) {
  // A conversion when R is float, a copy when R is double.
  // NOLINTNEXTLINE(performance-unnecessary-copy-initialization)
  const MatX<R> q = qw.cast<R>(), k = kw.cast<R>(), v = vw.cast<R>();
  MatX<R> out;
  if (t.landmarks == LandmarkKind::kNone) {
    out = exact_attention<R>(q, k, v);
  } else if (t.landmarks == LandmarkKind::kRandomFeatures) {
    out = random_feature_attention<R>(q, k, v, c);
  } else if (t.landmarks == LandmarkKind::kFixed) {  // the given landmarks, queries scaled
    const MatX<R> lq = (c.fixed_q / std::sqrt(double(c.d))).cast<R>(), lk = c.fixed_k.cast<R>();
    out = nystrom_attention<R>(q, k, v, lq, lk, c.pinv_iterations);
  } else {
    const MatX<R> lq = var.landmarks_q_scaled()->template cast<R>();
    const MatX<R> lk = var.landmarks_k()->template cast<R>();
    out = nystrom_attention<R>(q, k, v, lq, lk, c.pinv_iterations);
  }
  return t.single_output ? MatX<R>(out.bottomRows(1)) : out;
}

template <class T>
RunCheck check_run_as(const std::string& id, const Config& c, const Qkv& x) {
  const VariantTraits& t = variant(id);
  auto var = make_variant<Plain<T>>(id, c);
  // The tokens as the variant sees them, rounded to T.
  const Eigen::MatrixXd q = x.q.cast<T>().template cast<double>();
  const Eigen::MatrixXd k = x.k.cast<T>().template cast<double>();
  const Eigen::MatrixXd v = x.v.cast<T>().template cast<double>();
  using Row = Eigen::Matrix<T, 1, Eigen::Dynamic>;
  RunCheck r;
  for (std::int64_t i = 0; i < x.rows(); ++i) {
    const Row qi = q.row(i).cast<T>(), ki = k.row(i).cast<T>(), vi = v.row(i).cast<T>();
    if (!var->step(qi.data(), ki.data(), vi.data())) continue;
    if (!var->output().allFinite()) {
      r.nonfinite_token = i;
      return r;
    }
    const std::int64_t first = i - c.n + 1;
    const MatX<double> want = recompute<double>(
        t, *var, q.middleRows(first, c.n), k.middleRows(first, c.n), v.middleRows(first, c.n), c);
    r.max_error = std::max(r.max_error,
                           rel_error(Eigen::MatrixXd(var->output().template cast<double>()), want));
  }
  return r;
}

template <class T>
DriftResult drift_as(const DriftSpec& spec, const StreamSpec& stream, Projection projection,
                     std::uint64_t projection_seed) {
  const VariantTraits& t = variant(spec.variant);
  const std::int64_t n = spec.n, d = spec.d;
  TokenStream gen(stream, d);
  const Projector proj(projection, d, projection_seed);
  Eigen::MatrixXd xc(spec.calibration, d);
  Eigen::RowVectorXd x(d), q(d), k(d), v(d);
  for (std::int64_t i = 0; i < spec.calibration; ++i) {
    gen.next(x.data());
    xc.row(i) = x;
  }
  const Qkv calib = project(proj, xc);
  Config c{.n = n,
           .d = d,
           .m = t.landmarks == LandmarkKind::kNone ? 1 : spec.m,
           .pinv_iterations = spec.pinv_iterations};
  if (t.landmarks == LandmarkKind::kFixed) set_fixed_landmarks(c, calib);
  DriftResult out;
  if (spec.stabilised) {
    out.shift = calibrate_shift(spec.variant, c, calib);
    c.exp_shift = out.shift;
  }
  auto var = make_variant<Plain<T>>(spec.variant, c);
  // The last n tokens as the variant saw them (rounded to T), for the recomputations.
  Eigen::MatrixXd ring_q(n, d), ring_k(n, d), ring_v(n, d);
  Eigen::Matrix<T, 1, Eigen::Dynamic> qs(d), ks(d), vs(d);
  const std::vector<std::int64_t> checks = checkpoint_steps(spec.steps, spec.checkpoints);
  std::size_t next = 0;
  for (std::int64_t token = 0; token < n + spec.steps && next < checks.size(); ++token) {
    gen.next(x.data());
    proj.apply(x.data(), q.data(), k.data(), v.data());
    qs = q.cast<T>();
    ks = k.cast<T>();
    vs = v.cast<T>();
    const std::int64_t slot = token % n;
    ring_q.row(slot) = qs.template cast<double>();
    ring_k.row(slot) = ks.template cast<double>();
    ring_v.row(slot) = vs.template cast<double>();
    if (!var->step(qs.data(), ks.data(), vs.data())) continue;
    const std::int64_t step = token - (n - 1);  // 0: the priming output
    if (!var->output().allFinite()) {
      out.nonfinite_step = step;
      break;
    }
    if (step != checks[next]) continue;
    ++next;
    Eigen::MatrixXd qw(n, d), kw(n, d), vw(n, d);  // window order, oldest first
    for (std::int64_t i = 0; i < n; ++i) {
      const std::int64_t r = (token - n + 1 + i) % n;
      qw.row(i) = ring_q.row(r), kw.row(i) = ring_k.row(r), vw.row(i) = ring_v.row(r);
    }
    const Eigen::MatrixXd ref_t = recompute<T>(t, *var, qw, kw, vw, c).template cast<double>();
    const Eigen::MatrixXd ref_d = recompute<double>(t, *var, qw, kw, vw, c);
    const Eigen::MatrixXd got = var->output().template cast<double>();
    out.points.push_back(
        {step, rel_error(got, ref_t), rel_error(got, ref_d), rel_error(ref_t, ref_d)});
  }
  return out;
}

}  // namespace

double score_scale(const Qkv& x, std::int64_t n) {
  const std::int64_t rows = x.rows();
  const double r = 1.0 / std::sqrt(double(x.q.cols()));
  double best = 0;
  for (std::int64_t i = 0; i < rows; ++i) {
    const std::int64_t first = std::max<std::int64_t>(0, i - n + 1);
    const std::int64_t last = std::min(rows - 1, i + n - 1);
    const Eigen::VectorXd s = x.k.middleRows(first, last - first + 1) * x.q.row(i).transpose();
    best = std::max(best, s.cwiseAbs().maxCoeff() * r);
  }
  return best;
}

RunCheck check_run(const std::string& variant, const Config& c, const Qkv& x, Precision precision) {
  return precision == Precision::kFloat ? check_run_as<float>(variant, c, x)
                                        : check_run_as<double>(variant, c, x);
}

OverflowResult overflow_threshold(const OverflowSpec& spec, const Qkv& base) {
  const VariantTraits& t = variant(spec.variant);
  if (base.rows() != spec.calibration + spec.n + spec.steps)
    throw std::invalid_argument("overflow: base tokens must be calibration + n + steps rows");
  const Qkv calib = base.middle_rows(0, spec.calibration);
  const Qkv eval = base.middle_rows(spec.calibration, spec.n + spec.steps);
  const double sigma1 = score_scale(eval, spec.n);
  struct Probe {
    RunCheck check;
    double shift = 0;
  };
  std::map<double, Probe> probes;
  auto probe = [&](double sigma) -> const Probe& {
    if (const auto it = probes.find(sigma); it != probes.end()) return it->second;
    const double a = std::sqrt(sigma / sigma1);
    Config c{.n = spec.n, .d = spec.d, .m = t.landmarks == LandmarkKind::kNone ? 1 : spec.m};
    const Qkv cal = scaled(calib, a);
    if (t.landmarks == LandmarkKind::kFixed) set_fixed_landmarks(c, cal);
    Probe p;
    if (spec.stabilised) c.exp_shift = p.shift = calibrate_shift(spec.variant, c, cal);
    p.check = check_run(spec.variant, c, scaled(eval, a), spec.precision);
    return probes.emplace(sigma, p).first->second;
  };
  auto search = [&](auto bad) {
    Threshold th;
    double lo = 0, hi = 0;
    for (double sigma = spec.sigma_min; sigma <= spec.sigma_max; sigma *= spec.grid_ratio) {
      if (bad(probe(sigma))) {
        hi = sigma;
        break;
      }
      lo = sigma;
    }
    th.last_ok = lo;
    if (hi == 0) return th;
    th.found = true;
    for (int i = 0; lo > 0 && i < spec.bisections && hi / lo > 1 + 1e-9; ++i) {
      const double mid = std::sqrt(lo * hi);
      (bad(probe(mid)) ? hi : lo) = mid;
    }
    th.last_ok = lo;
    th.first_bad = hi;
    th.token = probe(hi).check.nonfinite_token;
    th.shift = probe(hi).shift;
    return th;
  };
  OverflowResult out;
  out.nonfinite = search([](const Probe& p) { return p.check.nonfinite_token >= 0; });
  out.inaccurate = search([&](const Probe& p) {
    return p.check.nonfinite_token >= 0 || p.check.max_error > spec.tolerance;
  });
  return out;
}

std::vector<std::int64_t> checkpoint_steps(std::int64_t steps, std::int64_t about) {
  std::set<std::int64_t> s{steps};
  const std::int64_t half = std::max<std::int64_t>(1, about / 2);
  for (std::int64_t i = 0; i < half; ++i) {
    s.insert(
        std::max<std::int64_t>(1, std::llround(std::pow(double(steps), double(i) / double(half)))));
    s.insert(std::max<std::int64_t>(1, (i + 1) * steps / half));
  }
  return {s.begin(), s.end()};
}

DriftResult run_drift(const DriftSpec& spec, const StreamSpec& stream, Projection projection,
                      std::uint64_t projection_seed) {
  return spec.precision == Precision::kFloat
             ? drift_as<float>(spec, stream, projection, projection_seed)
             : drift_as<double>(spec, stream, projection, projection_seed);
}

}  // namespace cosda
