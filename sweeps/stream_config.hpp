// Shared pieces of the accuracy, drift and overflow commands: a [[stream]] section of a TOML
// config, the results folder, and number formatting that never lets a NaN into a result file.
//
// A [[stream]] section:
//   name = "gaussian"        label in results and file names ([A-Za-z0-9_-], unique)
//   kind = "gaussian"        gaussian | ar1 | periodic | regime | npy (analysis/streams.hpp)
//   scale = 1.0              multiplies every token: scores grow as scale^2
//   seed = 1                 the stream's seed (the projections use seed + 1)
//   projection = "projected" projected (q, k, v = x Wq, x Wk, x Wv, random orthogonal) | shared
// and, only for its kind: ar_coefficient (ar1); period, periodic_noise (periodic);
// regime_length, regime_mean, regime_scale (regime); path (npy: T x d tokens, relative to the
// config file's folder).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "analysis/streams.hpp"
#include "io/strict_toml.hpp"

namespace cosda {

struct NamedStream {
  std::string name;
  StreamSpec spec;
  Projection projection = Projection::kProjected;
  std::uint64_t projection_seed = 2;
};

// Reads one [[stream]] section (strict: finish() is called). d is the token width.
NamedStream parse_stream(TomlTable& t, std::int64_t d);
// All [[stream]] sections, names unique.
std::vector<NamedStream> parse_streams(TomlTable& root, std::int64_t d);

// The results name: [A-Za-z0-9_-]+ (it becomes results/<name>/).
std::string parse_result_name(TomlTable& root);

// A finite number for a result file; throws std::logic_error naming `what` otherwise, so no
// NaN or infinity is ever written silently.
std::string num(double x, const std::string& what);

}  // namespace cosda
