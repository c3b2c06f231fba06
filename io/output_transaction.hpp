// All of one command's output files published at once, or none of them. The files are staged in
// ".<name>.stage.<pid>.<n>" beside the target (same file system), checked complete, joined by
// hard links (or copies) of the target's other entries, and swapped with the target in one
// rename (renameat2(RENAME_EXCHANGE); a plain rename for a new target). An error, signal or kill
// before the swap leaves the target as it was; after it, the complete new folder. The next
// transaction on the same target removes the stages of runs that died.
// For tests, COSDA_FAIL_AT=NAME makes writing the output file NAME fail as a full disk would.
#pragma once

#include <filesystem>
#include <functional>
#include <set>
#include <string>
#include <vector>

namespace cosda {

class OutputTransaction {
 public:
  // Checks `target` before any work (check_output_dir(): InputError) and removes its stale stages.
  explicit OutputTransaction(const std::filesystem::path& target);
  OutputTransaction(const OutputTransaction&) = delete;
  OutputTransaction& operator=(const OutputTransaction&) = delete;
  // Removes the stage unless commit() published it.
  ~OutputTransaction();

  // Checks, before any work, that each named file of the target can be replaced (InputError).
  void check_files(const std::vector<std::string>& names) const;

  // The folder that holds the target after commit(), as given.
  const std::filesystem::path& target() const { return shown_; }

  // Runs `write(stage)` to write files into the stage folder (made on first use). Its exceptions
  // are rethrown as the same kind with the stage's path replaced by the target's, as users know it.
  void stage(const std::function<void(const std::filesystem::path& stage)>& write);

  // Checks every staged file (complete, its target entry replaceable), brings over the target's
  // other entries except `drop` (e.g. a finished journal) and publishes the stage as the target.
  // Throws std::runtime_error naming the file and the cause, the target untouched.
  void commit(const std::set<std::string>& drop = {});

 private:
  std::filesystem::path shown_, target_, stage_;
  bool committed_ = false;
};

// Why a finished file is incomplete ("" if not): a .png must end with IEND, a .pdf with %%EOF.
std::string incomplete_reason(const std::filesystem::path& path);

// Throws std::runtime_error ("cannot write PATH: injected failure ...") if COSDA_FAIL_AT names it.
void maybe_inject_failure(const std::filesystem::path& path);

}  // namespace cosda
