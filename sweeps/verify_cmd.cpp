// cosda verify: the published cost formulas and printed cost numbers of both papers against
// executed counts and memory, and cosda's exact forms against execution (analysis/verify.hpp).
#include <fmt/format.h>

#include <filesystem>
#include <system_error>

#include "analysis/study_output.hpp"
#include "io/atomic_file.hpp"
#include "io/errors.hpp"
#include "io/output_transaction.hpp"
#include "sweeps/args.hpp"
#include "sweeps/commands.hpp"
#include "sweeps/config_kinds.hpp"
#include "sweeps/meta.hpp"
#include "sweeps/verify.hpp"

namespace cosda {

verify::Outcome verify::run(const Options& o) {
  // Both files published together or neither; the folder and the names checked first.
  OutputTransaction tx(o.out_dir);
  tx.check_files({"report.md", "verification.csv", "meta.json"});
  const Clock::time_point start = Clock::now();
  const Grid grid = read_config_as("verification", o.config, read_grid);
  const Report report = build_report(grid, o.config, o.corrections);
  std::error_code ec;  // the corrections file, where there is one to quote
  std::vector<std::string> quoted;
  if (std::filesystem::is_regular_file(o.corrections, ec)) quoted.push_back(o.corrections.string());
  Outcome out{report.status,
              report.checks,
              report.mismatches,
              report.unexplained,
              tx.target() / "report.md",
              tx.target() / "verification.csv"};
  tx.stage([&](const std::filesystem::path& dir) {
    write_file_atomic(dir / "verification.csv", report.csv);
    write_file_atomic(dir / "report.md", report.markdown);
    write_file_atomic(dir / "meta.json",
                      study_meta_json("verify", "verification", o.config.string(), grid.text,
                                      quoted, seconds_since(start)));
  });
  tx.commit();
  return out;
}

int cmd_verify(const Argv& argv) {
  Args a(
      "verify",
      {{"config", "FILE", "grids (default configs/verification.toml)"},
       {"out", "DIR", "output folder (default results/verification)"},
       {"corrections", "FILE", "equation corrections to quote (default analysis/corrections.md)"}},
      argv);
  if (a.print_help(
          "usage: cosda verify [--config FILE] [--out DIR] [--corrections FILE]\n"
          "Holds every published cost formula and printed cost number of both papers against\n"
          "executed counts, and cosda's exact forms against execution. Writes DIR/report.md,\n"
          "DIR/verification.csv and DIR/meta.json (commit, CPU). Exit status 0 iff the exact\n"
          "forms match execution at every point and every paper comparison classed unexplained\n"
          "is a listed open question, 1 otherwise."))
    return 0;
  a.reject_positional("cosda verify --help");
  verify::Options o;
  if (auto v = a.get("config")) o.config = *v;
  if (auto v = a.get("out")) o.out_dir = *v;
  std::error_code ec;
  if (auto v = a.get("corrections")) {
    o.corrections = *v;
    if (!std::filesystem::is_regular_file(o.corrections, ec))
      throw InputError("cosda verify: flag --corrections: '" + *v +
                       "' is not a file; give an existing corrections file, or leave the flag "
                       "out for analysis/corrections.md");
  }
  // The default, from outside the checkout: the report states it absent, and so does a note.
  const bool absent = !a.has("corrections") && !std::filesystem::is_regular_file(o.corrections, ec);
  const verify::Outcome out = verify::run(o);
  if (absent)
    fmt::print(stderr,
               "cosda verify: note: {} is not in {}, so the report states it absent (section "
               "9); run from the checkout or pass --corrections FILE to quote it\n",
               o.corrections.string(), std::filesystem::current_path(ec).string());
  fmt::print(
      "{}: {} points, exact forms {} ({} mismatches); {} unexplained rows beyond the open "
      "questions; wrote {} and {}\n",
      out.status == 0 ? "pass" : "FAIL", out.checks,
      out.mismatches == 0 ? "equal execution" : "DIFFER from execution", out.mismatches,
      out.unexplained, out.report.string(), out.csv.string());
  return out.status;
}

}  // namespace cosda
