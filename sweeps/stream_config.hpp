// The configs of cosda accuracy, drift and overflow (configs/{accuracy,drift,overflow}.toml), read
// strictly into the studies' structs (full reference: docs/configs.md). A [[stream]] section:
//   name = "gaussian"        label in results and file names ([A-Za-z0-9_-], unique)
//   kind = "gaussian"        gaussian | ar1 | periodic | regime | npy (analysis/streams.hpp)
//   scale = 1.0              multiplies every token: scores grow as scale^2
//   seed = 1                 the stream's seed (the projections use seed + 1)
//   projection = "projected" projected (q, k, v = x Wq, x Wk, x Wv, random orthogonal) | shared
// and for its kind only: ar_coefficient (ar1); period, periodic_noise (periodic); regime_length,
// regime_mean, regime_scale (regime); path, or q, k and v (npy: T x d, relative to the config).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "analysis/accuracy_report.hpp"
#include "analysis/drift_report.hpp"
#include "analysis/overflow_report.hpp"
#include "analysis/streams.hpp"
#include "io/strict_toml.hpp"

namespace cosda {

// Reads one [[stream]] section (strict: finish() is called). d is the token width.
NamedStream parse_stream(TomlTable& t, std::int64_t d);
// All [[stream]] sections, names unique.
std::vector<NamedStream> parse_streams(TomlTable& root, std::int64_t d);

// The results name: [A-Za-z0-9_-]+ (it becomes results/<name>/).
std::string parse_result_name(TomlTable& root);

// Whole configs; InputError naming the file and key for anything wrong or unknown.
AccuracyConfig parse_accuracy_config(const std::filesystem::path& path);
DriftConfig parse_drift_config(const std::filesystem::path& path);
OverflowConfig parse_overflow_config(const std::filesystem::path& path);

}  // namespace cosda
