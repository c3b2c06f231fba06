#include "sweeps/study_cmd.hpp"

#include <fmt/format.h>

#include <utility>

#include "io/errors.hpp"
#include "io/plot.hpp"
#include "sweeps/args.hpp"

namespace cosda {

std::optional<StudyArgs> parse_study_args(const Argv& argv, const std::string& command,
                                          bool with_figures, const std::string& help) {
  std::vector<FlagSpec> flags{
      {"out", "DIR", "results root; files go to DIR/<name>/ (default results)"},
      {"results", "DIR", "the old name of --out, read for one more release"}};
  if (with_figures) {
    flags.push_back({"no-figures", "", "write the CSV and Markdown files only (no gnuplot)"});
    flags.push_back({"no-plots", "", "the old name of --no-figures, read for one more release"});
  }
  Args a(command, flags, argv);
  if (a.print_help(help)) return std::nullopt;
  if (a.positional().size() != 1)
    throw InputError(
        fmt::format("cosda {0}: expected one CONFIG.toml argument (see cosda {0} "
                    "--help)",
                    command));
  if (a.has("out") && a.has("results"))
    throw InputError("cosda " + command + ": --results is the old name of --out; give --out only");
  for (const auto& [old, now] : {std::pair{"results", "out"}, std::pair{"no-plots", "no-figures"}})
    if (a.has(old))
      fmt::print(stderr, "cosda {}: --{} is deprecated and goes in the next release; use --{}\n",
                 command, old, now);
  const bool figures = with_figures && !a.has("no-figures") && !a.has("no-plots");
  if (figures) require_gnuplot(command, "pass --no-figures");
  const Clock::time_point start = Clock::now();
  return StudyArgs{.config = a.positional()[0],
                   .out = a.get("out").value_or(a.get("results").value_or("results")),
                   .figures = figures,
                   .start = start};
}

void print_study_done(const std::string& command, std::size_t count, const std::string& what,
                      const std::filesystem::path& file, Clock::time_point start) {
  fmt::print("{}: {} {} in {} ({:.0f} s)\n", command, count, what, file.string(),
             seconds_since(start));
}

}  // namespace cosda
