// The configs of cosda accuracy, drift and overflow (configs/{accuracy,drift,overflow}.toml) and
// their [[stream]] sections (analysis/streams.hpp), read strictly into the studies' structs. Keys,
// defaults and ranges: docs/configs.md.
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

// All [[stream]] sections, names unique.
std::vector<NamedStream> parse_streams(TomlTable& root, std::int64_t d);

// Whole configs; InputError naming the file and key for anything wrong or unknown.
AccuracyConfig parse_accuracy_config(const std::filesystem::path& path);
DriftConfig parse_drift_config(const std::filesystem::path& path);
OverflowConfig parse_overflow_config(const std::filesystem::path& path);

}  // namespace cosda
