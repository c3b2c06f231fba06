#include "io/folder_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>
#include <string>
#include <system_error>

#include "io/atomic_file.hpp"
#include "io/errors.hpp"

namespace cosda {

namespace fs = std::filesystem;

FolderLock::FolderLock(const fs::path& dir, const std::string& command) : pid_file_(dir / ".lock") {
  std::error_code ec;
  created_ = !fs::exists(dir, ec);
  fs::create_directories(dir, ec);
  if (ec)
    throw InputError(command + ": cannot create " + dir.string() + ": " + ec.message() +
                     "; choose another output folder");
  fd_ = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd_ < 0)
    throw InputError(command + ": cannot open " + dir.string() + ": " +
                     std::generic_category().message(errno));
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    const int error = errno;
    ::close(fd_);
    fd_ = -1;
    if (error != EWOULDBLOCK)
      throw InputError(command + ": cannot lock " + dir.string() + ": " +
                       std::generic_category().message(error));
    std::string pid;
    std::ifstream(pid_file_) >> pid;
    throw InputError(command + ": another cosda run" + (pid.empty() ? "" : " (pid " + pid + ")") +
                     " is writing " + dir.string() +
                     "; wait for it to finish, or stop it and run again");
  }
  try {
    write_file_atomic(pid_file_, std::to_string(::getpid()) + "\n");
  } catch (...) {
    ::close(fd_);
    throw;
  }
}

FolderLock::~FolderLock() {
  if (fd_ < 0) return;
  ::unlink(pid_file_.c_str());
  ::close(fd_);
  if (created_) ::rmdir(pid_file_.parent_path().c_str());  // fails, harmlessly, unless empty
}

}  // namespace cosda
