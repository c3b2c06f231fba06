// meta.json of a sweep's results folder: where the numbers came from.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/streams.hpp"
#include "sweeps/config.hpp"
#include "sweeps/shard.hpp"

namespace cosda {

// meta.json: schema version, config text, git commit, compiler, library versions, date, shard
// ("K/N"; "1/1": whole). The commit is recorded at build time (no git at run time): "<commit>
// (with uncommitted changes)" when tracked files differed, "unknown" outside git.
std::string meta_json(const SweepConfig& c, int jobs, double seconds, const Shard& shard = {});

// meta.json of a study's folder (cosda accuracy, drift, overflow: figures that differ between
// CPUs in their last digits): the command, and the fields above from name to date, with the
// config's text as parsed (`source`: its file name as given) and the .npy files its streams read.
std::string study_meta_json(std::string_view command, std::string_view name,
                            std::string_view source, std::string_view text,
                            const std::vector<NamedStream>& streams, double seconds);

// The string value of a top-level key of a meta.json that meta_json() wrote, unescaped; nullopt
// if the key is missing or its value cut short.
std::optional<std::string> meta_string(std::string_view json, std::string_view key);

}  // namespace cosda
