// meta.json of a sweep's results folder: where the numbers came from.
#pragma once

#include <string>

#include "sweeps/config.hpp"
#include "sweeps/shard.hpp"

namespace cosda {

// meta.json: schema version, config text, git commit, compiler, library versions, date, and
// the shard ("K/N", "1/1" for a whole sweep). The git commit is the source checkout this
// executable was built from, recorded at build time ("<commit> (with uncommitted changes)"
// when tracked files differed from it, "unknown" outside git); no git runs at run time.
std::string meta_json(const SweepConfig& c, int jobs, double seconds, const Shard& shard = {});

}  // namespace cosda
