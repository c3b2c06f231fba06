// All of one command's output files published at once, or none of them.
//
// An OutputTransaction stages a command's files in a temporary folder beside its target folder
// (".<name>.stage.<pid>.<n>", on the same file system), checks every staged file (a PNG complete
// to its IEND chunk, a PDF to its %%EOF trailer), hard-links (or copies) the target's other
// entries into the stage, and then swaps the stage and the target in one rename
// (renameat2(RENAME_EXCHANGE) on Linux; a plain rename when the target does not exist yet).
// An error, a signal or a kill before the swap leaves the target as it was; a kill after it
// leaves the complete new folder. Stages of runs that died are removed by the next transaction
// on the same target.
//
// Fault injection for the tests: with COSDA_FAIL_AT=NAME in the environment, writing the output
// file named NAME (write_file_atomic, render_png) fails as a full disk would.
#pragma once

#include <filesystem>
#include <functional>
#include <set>
#include <string>
#include <vector>

namespace cosda {

class OutputTransaction {
 public:
  // Checks, before any work, that `target` can be written as an output folder (a new path or a
  // writable directory below a writable directory; InputError otherwise) and removes stale
  // stages of `target`. Creates nothing yet.
  explicit OutputTransaction(const std::filesystem::path& target);
  OutputTransaction(const OutputTransaction&) = delete;
  OutputTransaction& operator=(const OutputTransaction&) = delete;
  // Removes the stage unless commit() published it.
  ~OutputTransaction();

  // Checks, before any work, that each named file of the target can be replaced: absent, or a
  // regular file that is not read-only (check_output_file(); InputError otherwise).
  void check_files(const std::vector<std::string>& names) const;

  // The folder that holds the target after commit(), as given.
  const std::filesystem::path& target() const { return shown_; }

  // Runs `write(stage)`, which writes the command's files into the stage folder (created on the
  // first call). An exception from it is rethrown, of the same kind (InputError or
  // std::runtime_error), with the stage's path in its message replaced by the target's, so that
  // the one-line error names the file as the user knows it.
  void stage(const std::function<void(const std::filesystem::path& stage)>& write);

  // Checks every staged file (complete for its kind, and the target's entry of the same name
  // replaceable: check_files()), brings over the target's other entries except those named in
  // `drop` (e.g. a journal the command has finished with), and publishes the stage as the
  // target. Throws std::runtime_error naming the file and the cause, the target untouched.
  void commit(const std::set<std::string>& drop = {});

 private:
  std::filesystem::path shown_, target_, stage_;
  bool committed_ = false;
};

// Whether the finished file at `path` is complete for its kind: a .png ends with its IEND
// chunk, a .pdf with a %%EOF trailer; other files are taken as complete. Returns "" when it is,
// else the reason.
std::string incomplete_reason(const std::filesystem::path& path);

// Throws std::runtime_error("cannot write PATH: injected failure (COSDA_FAIL_AT)") when the
// environment's COSDA_FAIL_AT names this file.
void maybe_inject_failure(const std::filesystem::path& path);

}  // namespace cosda
