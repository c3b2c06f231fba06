// The command line every stream study (cosda accuracy, drift, overflow) shares: one
// CONFIG.toml, --out DIR (--results DIR, its old name, still read) and, for the studies with
// figures, --no-figures (--no-plots, its old name, still read).
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

// Parses the flags of `cosda <command>`; std::nullopt after printing `help` followed by the
// flag list for --help. with_figures: the command takes --no-figures. An old spelling prints
// one deprecation line on stderr.
std::optional<StudyArgs> parse_study_args(const Argv& argv, const std::string& command,
                                          bool with_figures, const std::string& help);

// "<command>: <count> <what> in <file> (<seconds> s)" on stdout.
void print_study_done(const std::string& command, std::size_t count, const std::string& what,
                      const std::filesystem::path& file, Clock::time_point start);

}  // namespace cosda
