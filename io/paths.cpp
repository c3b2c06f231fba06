#include "io/paths.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <string>

#include "io/errors.hpp"

namespace cosda {
namespace {

std::string kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

// The nearest existing folder on the way to `path` ("." for a bare file name).
std::filesystem::path existing_parent(const std::filesystem::path& path) {
  std::filesystem::path dir = path.parent_path();
  struct stat st {};
  while (!dir.empty() && ::stat(dir.c_str(), &st) != 0) dir = dir.parent_path();
  return dir.empty() ? std::filesystem::path(".") : dir;
}

}  // namespace

void check_output_file(const std::filesystem::path& path, std::string_view field) {
  const std::string lead = std::string(field) + ": '" + path.string() + "' ";
  struct stat st {};
  if (::lstat(path.c_str(), &st) == 0) {
    if (S_ISLNK(st.st_mode))
      throw InputError(lead + "is a symbolic link; give the file it points to or another path");
    if (!S_ISREG(st.st_mode))
      throw InputError(lead + "is " + kind_of(st.st_mode) + "; give the path of a regular file");
    if ((st.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH)) == 0)
      throw InputError(lead + "is read-only; make it writable (chmod u+w) or give another path");
  } else if (path.filename().empty() || path.filename() == "." || path.filename() == "..") {
    throw InputError(lead + "names a folder; give the path of a file");
  }
  const std::filesystem::path dir = existing_parent(path);
  struct stat sd {};
  if (::stat(dir.c_str(), &sd) != 0 || !S_ISDIR(sd.st_mode))
    throw InputError(lead + "lies under '" + dir.string() +
                     "', which is not a directory; give another path");
  if (::access(dir.c_str(), W_OK) != 0)
    throw InputError(lead + "lies in '" + dir.string() +
                     "', which is not writable; give a path in a writable folder");
}

}  // namespace cosda
