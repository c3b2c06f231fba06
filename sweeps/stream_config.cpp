#include "sweeps/stream_config.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <limits>
#include <memory>

#include "attention/registry.hpp"
#include "io/errors.hpp"
#include "io/npy.hpp"
#include "sweeps/journal.hpp"

namespace cosda {
namespace {

bool plain_name(const std::string& s) {
  if (s.empty() || s.size() > 64) return false;
  for (const char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-')) return false;
  return true;
}

// The variants' ids, all or only the continual ones (drift follows running sums).
std::vector<std::string> variant_ids(bool only_continual) {
  std::vector<std::string> ids;
  for (const auto& v : kVariants)
    if (v.continual || !only_continual) ids.emplace_back(v.id);
  return ids;
}

const std::vector<std::string> kScalars{"float", "double"};

// A T x d matrix of a [[stream]] file key, its path relative to the config's folder; the file
// and a fingerprint of the values read go to `inputs`.
Eigen::MatrixXd npy_matrix(TomlTable& t, const std::string& key, std::int64_t d,
                           std::vector<std::string>& inputs) {
  const std::filesystem::path rel = t.str(key);
  const std::filesystem::path path = rel.is_absolute() ? rel : t.file().parent_path() / rel;
  if (!std::filesystem::exists(path))
    t.fail(key, fmt::format("names no such file {}; give a .npy path relative to the config's "
                            "folder, or an absolute one",
                            path.string()));
  const NpyArray a = read_npy(path);
  require_rank(a, 2, path.string(), "(T x d) of tokens");
  if (std::int64_t(a.shape[1]) != d)
    throw InputError(
        fmt::format("{}: tokens are {} wide but the config's d is {} (the width of all heads); "
                    "make them agree",
                    path.string(), a.shape[1], d));
  const std::string_view bytes(reinterpret_cast<const char*>(a.data.data()),
                               a.data.size() * sizeof(double));
  inputs.push_back(fmt::format("{} ({} x {}, values fnv1a64 {:016x})", path.string(), a.shape[0],
                               a.shape[1], fnv1a(bytes)));
  return Eigen::Map<const Eigen::Matrix<double, -1, -1, Eigen::RowMajor>>(
      a.data.data(), std::int64_t(a.shape[0]), d);
}

// kind = "npy": path (tokens, projected or shared as `projection` says), or q, k and v
// (queries, keys and values of one length, used as given).
void read_npy_stream(TomlTable& t, std::int64_t d, NamedStream& s) {
  if (!t.has("q") && !t.has("k") && !t.has("v")) {
    s.spec.data = std::make_shared<Eigen::MatrixXd>(npy_matrix(t, "path", d, s.inputs));
    return;
  }
  if (t.has("path") || !t.has("q") || !t.has("k") || !t.has("v"))
    t.fail(t.has("path") ? "path" : "q",
           "of a kind = \"npy\" stream: give path (tokens) or all three of q, k and v (files "
           "of one shape, T x d), not both");
  for (const char* key : {"scale", "projection", "seed"})  // the token stream's, not q/k/v's
    if (t.has(key))
      t.fail(key, "does not apply to q, k and v files, which are used as given; drop it");
  auto qkv = std::make_shared<Qkv>();
  qkv->q = npy_matrix(t, "q", d, s.inputs);
  qkv->k = npy_matrix(t, "k", d, s.inputs);
  qkv->v = npy_matrix(t, "v", d, s.inputs);
  if (qkv->k.rows() != qkv->q.rows() || qkv->v.rows() != qkv->q.rows())
    t.fail("q", fmt::format("has {} rows, k {} and v {}; give one length", qkv->q.rows(),
                            qkv->k.rows(), qkv->v.rows()));
  s.qkv = std::move(qkv);
}

// Reads one [[stream]] section (strict: finish() is called). d is the token width.
NamedStream parse_stream(TomlTable& t, std::int64_t d) {
  NamedStream s;
  s.name = t.str("name");
  if (!plain_name(s.name))
    t.fail("name", "must be 1-64 characters from [A-Za-z0-9_-], got '" + s.name + "'");
  const std::string kind =
      t.choice("kind", {"gaussian", "ar1", "periodic", "regime", "npy"}, "gaussian");
  s.spec.kind = *stream_kind(kind);
  s.spec.scale = t.number("scale", 1e-6, 1e6, 1.0);
  s.spec.seed = std::uint64_t(t.integer("seed", 0, std::int64_t(1) << 62, 1));
  s.projection = *projection_kind(t.choice("projection", {"projected", "shared"}, "projected"));
  s.projection_seed = s.spec.seed + 1;
  switch (s.spec.kind) {
    case StreamKind::kAr1:
      s.spec.ar_coefficient = t.number("ar_coefficient", -0.999999, 0.999999, 0.99);
      break;
    case StreamKind::kPeriodic:
      s.spec.period = t.integer("period", 2, 1 << 30, 37);
      s.spec.periodic_noise = t.number("periodic_noise", 0, 1, 0.1);
      break;
    case StreamKind::kRegime:
      s.spec.regime_length = t.integer("regime_length", 1, 1 << 30, 200);
      s.spec.regime_mean = t.number("regime_mean", 0, 1e6, 1.0);
      s.spec.regime_scale = t.number("regime_scale", 1, 1e6, 3.0);
      break;
    case StreamKind::kData:
      read_npy_stream(t, d, s);
      break;
    case StreamKind::kGaussian:
      break;
  }
  t.finish();
  return s;
}

// The results name: [A-Za-z0-9_-]+ (it becomes results/<name>/).
std::string parse_result_name(TomlTable& root) {
  std::string name = root.str("name");
  if (!plain_name(name))
    root.fail("name",
              "must be 1-64 characters from [A-Za-z0-9_-] (it names results/<name>/), "
              "got '" +
                  name + "'");
  return name;
}

}  // namespace

std::vector<NamedStream> parse_streams(TomlTable& root, std::int64_t d) {
  std::vector<NamedStream> out;
  for (TomlTable& t : root.tables("stream", true)) {
    out.push_back(parse_stream(t, d));
    for (std::size_t i = 0; i + 1 < out.size(); ++i)
      if (out[i].name == out.back().name)
        t.fail("name", "'" + out.back().name + "' is used by two streams; names must be unique");
  }
  return out;
}

AccuracyConfig parse_accuracy_config(const std::filesystem::path& path) {
  TomlTable t = TomlTable::parse_file(path, "configs/accuracy.toml");
  AccuracyConfig c;
  c.name = parse_result_name(t);
  c.text = t.text();
  c.d = t.integer("d", 1, 4096);
  c.ns = t.integers("n", 2, 1 << 14);
  c.ms = t.integers("m", 1, 1 << 14);
  c.feature_ms = t.integers("feature_m", 1, 1 << 14, c.ms);
  for (const std::int64_t seed :
       t.integers("feature_seeds", 0, std::numeric_limits<std::int64_t>::max(),
                  std::vector<std::int64_t>{std::int64_t(Config{}.feature_seed)}))
    c.feature_seeds.push_back(std::uint64_t(seed));
  c.variants = t.choices("variants", variant_ids(false));
  c.steps = t.integer("steps", 1, 1 << 24);
  c.calibration = t.integer("calibration", 1, 1 << 24);
  c.pinv_iterations = int(t.integer("pinv_iterations", 0, 100, 6));
  c.exact_pinv = t.boolean("exact_pinv", false);
  c.pinv_iterations_study = t.integers("pinv_study_iterations", 0, 100);
  c.pinv_windows = t.integer("pinv_study_windows", 1, 1000, 2);
  c.streams = parse_streams(t, c.d);
  t.finish();
  const std::int64_t max_m = *std::max_element(c.ms.begin(), c.ms.end());
  if (max_m > c.calibration)
    t.fail("calibration", fmt::format("({}) must be at least the largest m ({}): fixed "
                                      "landmarks are m-means of the calibration tokens",
                                      c.calibration, max_m));
  return c;
}

DriftConfig parse_drift_config(const std::filesystem::path& path) {
  TomlTable t = TomlTable::parse_file(path, "configs/drift.toml");
  DriftConfig c;
  c.name = parse_result_name(t);
  c.text = t.text();
  c.n = t.integer("n", 1, 1 << 14);
  c.d = t.integer("d", 1, 4096);
  c.m = t.integer("m", 1, 1 << 14);
  c.steps = t.integer("steps", 1, std::int64_t(1) << 40);
  c.calibration = t.integer("calibration", 1, 1 << 24);
  c.checkpoints = t.integer("checkpoints", 2, 100000, 120);
  c.pinv_iterations = int(t.integer("pinv_iterations", 0, 100, 6));
  c.variants = t.choices("variants", variant_ids(true));
  c.scalars = t.choices("scalars", kScalars, kScalars);
  c.modes = t.choices("modes", {"plain", "stabilised"}, std::vector<std::string>{"plain"});
  c.streams = parse_streams(t, c.d);
  t.finish();
  if (c.m > c.n) t.fail("m", fmt::format("({}) must be at most n ({})", c.m, c.n));
  if (c.calibration < std::max(c.n, c.m))
    t.fail("calibration", fmt::format("({}) must be at least n ({}): the stabilised mode's "
                                      "shift is calibrated over whole windows",
                                      c.calibration, c.n));
  return c;
}

OverflowConfig parse_overflow_config(const std::filesystem::path& path) {
  TomlTable t = TomlTable::parse_file(path, "configs/overflow.toml");
  OverflowConfig c;
  c.name = parse_result_name(t);
  c.text = t.text();
  c.n = t.integer("n", 1, 1 << 14);
  c.d = t.integer("d", 1, 4096);
  c.m = t.integer("m", 1, 1 << 14);
  c.calibration = t.integer("calibration", 1, 1 << 24);
  c.steps = t.integer("steps", 1, 1 << 24);
  c.sigma_min = t.number("sigma_min", 1e-6, 1e30, 1.0);
  c.sigma_max = t.number("sigma_max", 1e-6, 1e30, 1e6);
  c.tolerance = t.number("tolerance", 1e-12, 1e6, 1e-2);
  c.variants = t.choices("variants", variant_ids(false));
  c.scalars = t.choices("scalars", kScalars, kScalars);
  c.modes =
      t.choices("modes", {"plain", "stabilised"}, std::vector<std::string>{"plain", "stabilised"});
  c.streams = parse_streams(t, c.d);
  t.finish();
  if (c.sigma_max <= c.sigma_min)
    t.fail("sigma_max", fmt::format("({}) must exceed sigma_min ({})", c.sigma_max, c.sigma_min));
  if (c.m > c.n || c.m > c.calibration)
    t.fail("m", fmt::format("({}) must be at most n ({}) and calibration ({})", c.m, c.n,
                            c.calibration));
  if (c.calibration < c.n)
    t.fail("calibration", fmt::format("({}) must be at least n ({})", c.calibration, c.n));
  return c;
}

}  // namespace cosda
