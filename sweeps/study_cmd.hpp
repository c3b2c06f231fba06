// The command line of cosda accuracy, drift and overflow: CONFIG.toml, --out DIR and, with
// figures, --no-figures (the old names --results and --no-plots still read).
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "analysis/study_output.hpp"
#include "sweeps/commands.hpp"

namespace cosda {

struct StudyArgs {
  std::filesystem::path config;
  std::filesystem::path out;  // the folder that gets <out>/<name>/
  bool figures = false;
  Clock::time_point start;
};

// Parses `cosda <command>`'s flags (with_figures: --no-figures too); nullopt after printing help
// and the flags for --help. An old name prints one deprecation line on stderr.
std::optional<StudyArgs> parse_study_args(const Argv& argv, const std::string& command,
                                          bool with_figures, const std::string& help);

// "<command>: <count> <what> in <file> (<seconds> s)" on stdout.
void print_study_done(const std::string& command, std::size_t count, const std::string& what,
                      const std::filesystem::path& file, Clock::time_point start);

}  // namespace cosda
