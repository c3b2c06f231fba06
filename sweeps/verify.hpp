// cosda verify: <out>/report.md and verification.csv, both or none (analysis/verify.hpp). A bad
// config is an InputError naming file and key, with nothing written.
#pragma once

#include <cstddef>
#include <filesystem>

#include "analysis/verify.hpp"

namespace cosda::verify {

struct Options {
  std::filesystem::path config{"configs/verification.toml"};
  std::filesystem::path out_dir{"results/verification"};
  std::filesystem::path corrections{"analysis/corrections.md"};
};

struct Outcome {
  int status = 0;
  std::size_t checks = 0, mismatches = 0;
  int unexplained = 0;  // paper-comparison rows classed unexplained beyond the open questions
  std::filesystem::path report, csv;
};
// Runs the whole verification and writes the two files.
Outcome run(const Options& options);

}  // namespace cosda::verify
