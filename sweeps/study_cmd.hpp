// The command line every stream study (cosda accuracy, drift, overflow) shares: one
// CONFIG.toml, --results DIR and, for the studies with figures, --no-plots.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "analysis/study_output.hpp"
#include "sweeps/commands.hpp"

namespace cosda {

struct StudyArgs {
  std::filesystem::path config;
  std::filesystem::path results;  // the folder that gets results/<name>/
  bool plots = false;
  Clock::time_point start;
};

// Parses the flags of `cosda <command>`; std::nullopt after printing `help` followed by the
// flag list for --help. with_plots: the command takes --no-plots.
std::optional<StudyArgs> parse_study_args(const Argv& argv, const std::string& command,
                                          bool with_plots, const std::string& help);

// "<command>: <count> <what> in <file> (<seconds> s)" on stdout.
void print_study_done(const std::string& command, std::size_t count, const std::string& what,
                      const std::filesystem::path& file, Clock::time_point start);

}  // namespace cosda
