// meta.json of a sweep's results folder: where the numbers came from.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sweeps/config.hpp"
#include "sweeps/shard.hpp"

namespace cosda {

// meta.json: schema version, config text, git commit, compiler, library versions, date, shard
// ("K/N"; "1/1": whole). The commit is recorded at build time (no git at run time): "<commit>
// (with uncommitted changes)" when tracked files differed, "unknown" outside git.
std::string meta_json(const SweepConfig& c, int jobs, double seconds, const Shard& shard = {});

// meta.json of any other results folder (cosda accuracy, drift, overflow, verify, models): the
// command, and the fields above from name to date, with the config's text as parsed (`source`:
// its file name as given) and the other files it read (`inputs`: .npy streams, model files).
std::string study_meta_json(std::string_view command, std::string_view name,
                            std::string_view source, std::string_view text,
                            const std::vector<std::string>& inputs, double seconds);

// The commit this binary was built from (cmake/provenance.cmake): 40 hex digits, followed by
// " (with uncommitted changes)" when tracked files differed, or "unknown" outside git.
std::string build_commit();

// Now, as meta.json writes it: "YYYY-MM-DDTHH:MM:SSZ".
std::string utc_now();

// meta.json after `cosda report` drew its folder from `c`: nullopt if `meta` already holds c's
// text (or is no meta.json); else config_file and config_text become c's, and report_git_commit and
// report_date_utc name the report. The rest stays the sweep's: read_sweep_points has checked that c
// sweeps the same points (grid, scalar, formulas), so the text reproduces the whole folder.
std::optional<std::string> reported_meta_json(std::string_view meta, const SweepConfig& c);

// The string value of a top-level key of a meta.json that meta_json() wrote, unescaped; nullopt
// if the key is missing or its value cut short.
std::optional<std::string> meta_string(std::string_view json, std::string_view key);

}  // namespace cosda
