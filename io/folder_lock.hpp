// An advisory lock on a results folder while one command writes it: flock(LOCK_EX) on the folder
// itself, released by the kernel however the process ends (no lock file can go stale). While
// held, the folder's ".lock" file records the holder's pid for other commands' messages.
#pragma once

#include <filesystem>
#include <string>

namespace cosda {

class FolderLock {
 public:
  // Creates `dir` if missing and locks it. Throws InputError ("<command>: ... another run
  // (pid N) is writing DIR; ...") when another process holds it; never waits.
  FolderLock(const std::filesystem::path& dir, const std::string& command);
  FolderLock(const FolderLock&) = delete;
  FolderLock& operator=(const FolderLock&) = delete;
  // Removes ".lock" and unlocks; removes `dir` if the lock created it and it is empty (so a
  // failed command leaves no new folder).
  ~FolderLock();

 private:
  std::filesystem::path pid_file_;
  int fd_ = -1;
  bool created_ = false;
};

}  // namespace cosda
