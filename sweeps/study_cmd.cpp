#include "sweeps/study_cmd.hpp"

#include <fmt/format.h>

#include "io/errors.hpp"
#include "sweeps/args.hpp"

namespace cosda {

std::optional<StudyArgs> parse_study_args(const Argv& argv, const std::string& command,
                                          bool with_plots, const std::string& help) {
  std::vector<FlagSpec> flags{{"results", "DIR", "folder for results/<name>/ (default results)"}};
  if (with_plots)
    flags.push_back({"no-plots", "", "write the CSV and markdown files only (no gnuplot)"});
  Args a(command, flags, argv);
  if (a.help()) {
    fmt::print("{}{}", help, a.usage());
    return std::nullopt;
  }
  if (a.positional().size() != 1)
    throw InputError(
        fmt::format("cosda {0}: expected one CONFIG.toml argument (see cosda {0} "
                    "--help)",
                    command));
  const Clock::time_point start = Clock::now();
  return StudyArgs{.config = a.positional()[0],
                   .results = a.get("results").value_or("results"),
                   .plots = with_plots && !a.has("no-plots"),
                   .start = start};
}

void print_study_done(const std::string& command, std::size_t count, const std::string& what,
                      const std::filesystem::path& file, Clock::time_point start) {
  fmt::print("{}: {} {} in {} ({:.0f} s)\n", command, count, what, file.string(),
             seconds_since(start));
}

}  // namespace cosda
