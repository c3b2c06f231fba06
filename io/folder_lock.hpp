// An advisory lock on a results folder while one command writes it.
//
// The lock is flock(LOCK_EX) on the folder itself, so it needs no file that could outlive a
// killed run: the kernel releases it when the process ends, however it ends. While it is held,
// the folder's ".lock" file records the holder's pid for the message another command prints.
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
  // Removes the ".lock" file and releases the lock; removes `dir` too when the lock created it
  // and it is empty (a command that failed leaves no new folder).
  ~FolderLock();

 private:
  std::filesystem::path pid_file_;
  int fd_ = -1;
  bool created_ = false;
};

}  // namespace cosda
