// meta.json of a sweep's results folder: where the numbers came from.
#pragma once

#include <string>

#include "sweeps/config.hpp"
#include "sweeps/shard.hpp"

namespace cosda {

// meta.json: schema version, config text, git commit, compiler, library versions, date, shard
// ("K/N"; "1/1": whole). The commit is recorded at build time (no git at run time): "<commit>
// (with uncommitted changes)" when tracked files differed, "unknown" outside git.
std::string meta_json(const SweepConfig& c, int jobs, double seconds, const Shard& shard = {});

}  // namespace cosda
