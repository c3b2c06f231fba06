#include "sweeps/stream_config.hpp"

#include <fmt/format.h>

#include <cctype>
#include <cmath>
#include <memory>
#include <stdexcept>

#include "io/errors.hpp"
#include "io/npy.hpp"

namespace cosda {
namespace {

bool plain_name(const std::string& s) {
  if (s.empty() || s.size() > 64) return false;
  for (const char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-')) return false;
  return true;
}

}  // namespace

NamedStream parse_stream(TomlTable& t, std::int64_t d) {
  NamedStream s;
  s.name = t.str("name");
  if (!plain_name(s.name))
    throw InputError(
        fmt::format("{}: key 'name' must be 1-64 characters from [A-Za-z0-9_-], "
                    "got '{}'",
                    t.where(), s.name));
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
    case StreamKind::kData: {
      const std::filesystem::path rel = t.str("path");
      const std::filesystem::path path = rel.is_absolute() ? rel : t.file().parent_path() / rel;
      const NpyArray a = read_npy(path);
      require_rank(a, 2, path.string(), "(T x d) of tokens");
      if (std::int64_t(a.shape[1]) != d)
        throw InputError(
            fmt::format("{}: tokens are {} wide but the config's d is {}; make "
                        "them agree",
                        path.string(), a.shape[1], d));
      auto m = std::make_shared<Eigen::MatrixXd>(
          Eigen::Map<const Eigen::Matrix<double, -1, -1, Eigen::RowMajor>>(
              a.data.data(), std::int64_t(a.shape[0]), d));
      s.spec.data = std::move(m);
      break;
    }
    case StreamKind::kGaussian:
      break;
  }
  t.finish();
  return s;
}

std::vector<NamedStream> parse_streams(TomlTable& root, std::int64_t d) {
  std::vector<NamedStream> out;
  for (TomlTable& t : root.tables("stream", true)) {
    out.push_back(parse_stream(t, d));
    for (std::size_t i = 0; i + 1 < out.size(); ++i)
      if (out[i].name == out.back().name)
        throw InputError(fmt::format("{}: stream name '{}' is used twice; names must be unique",
                                     t.where(), out.back().name));
  }
  return out;
}

std::string parse_result_name(TomlTable& root) {
  std::string name = root.str("name");
  if (!plain_name(name))
    throw InputError(
        fmt::format("{}: key 'name' must be 1-64 characters from [A-Za-z0-9_-] (it "
                    "names results/<name>/), got '{}'",
                    root.where(), name));
  return name;
}

std::string num(double x, const std::string& what) {
  if (!std::isfinite(x)) throw std::logic_error("refusing to write a non-finite value for " + what);
  return fmt::format("{:.6g}", x);
}

}  // namespace cosda
