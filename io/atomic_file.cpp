#include "io/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <stdexcept>
#include <string>
#include <system_error>
#include <utility>

#include "io/errors.hpp"
#include "io/output_transaction.hpp"

namespace cosda {
namespace {

namespace fs = std::filesystem;

// Bytes of the destination name kept in the temporary name: the suffix must fit in 255 bytes.
constexpr std::size_t kMaxTempStem = 200;
// How many temporary names to try before giving up (stale files from earlier runs may exist).
constexpr int kMaxTempAttempts = 100;

[[noreturn]] void fail(const fs::path& path, std::string_view step, int error) {
  throw std::runtime_error(one_line("cannot write " + path.string() + ": " + std::string(step) +
                                    ": " + std::generic_category().message(error)));
}

// Owns the temporary file until it has been renamed into place (then `path` is cleared).
struct TempFile {
  int fd = -1;
  fs::path path;

  TempFile() = default;
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  ~TempFile() {
    if (fd >= 0) ::close(fd);
    if (!path.empty()) ::unlink(path.c_str());
  }

  // Creates a fresh temporary file next to `target`; returns errno on failure (0 on success).
  int create(const fs::path& target) {
    static std::atomic<unsigned long> counter{0};
    const std::string stem = target.filename().string().substr(0, kMaxTempStem);
    const std::string prefix = "." + stem + ".tmp." + std::to_string(::getpid()) + ".";
    for (int attempt = 0; attempt < kMaxTempAttempts; ++attempt) {
      fs::path candidate = target.parent_path() / (prefix + std::to_string(counter++));
      const int opened = ::open(candidate.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
      if (opened >= 0) {
        fd = opened;
        path = std::move(candidate);
        return 0;
      }
      if (errno != EEXIST) return errno;
    }
    return EEXIST;
  }

  // Writes everything, retrying short writes and EINTR; returns errno on failure.
  int write_all(std::string_view bytes) const {
    while (!bytes.empty()) {
      const ssize_t n = ::write(fd, bytes.data(), bytes.size());
      if (n < 0) {
        if (errno == EINTR) continue;
        return errno;
      }
      bytes.remove_prefix(static_cast<std::size_t>(n));
    }
    return 0;
  }
};

// What a non-regular file is, for messages.
std::string kind(mode_t mode) {
  if (S_ISLNK(mode)) return "a symbolic link";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISREG(mode)) return "a file";
  return "not a regular file";
}

bool read_only(const fs::path& path, mode_t mode) {
  // The mode bits too: access() grants root everything.
  return (mode & (S_IWUSR | S_IWGRP | S_IWOTH)) == 0 || ::access(path.c_str(), W_OK) != 0;
}

// The nearest existing ancestor must be a writable directory (missing folders are created later).
void check_parent(const fs::path& path) {
  fs::path dir = path.parent_path();
  while (!dir.empty()) {
    struct stat st {};
    if (::stat(dir.c_str(), &st) == 0) {
      if (!S_ISDIR(st.st_mode))
        throw InputError("cannot write " + path.string() + ": " + dir.string() +
                         " is not a directory; choose another output path");
      if (::access(dir.c_str(), W_OK | X_OK) != 0)
        throw InputError("cannot write " + path.string() + ": the folder " + dir.string() +
                         " is not writable; choose another output path");
      return;
    }
    if (errno != ENOENT && errno != ENOTDIR)
      throw InputError("cannot write " + path.string() + ": " + dir.string() + ": " +
                       std::generic_category().message(errno));
    const fs::path up = dir.parent_path();
    if (up == dir) break;
    dir = up;
  }
  if (::access(".", W_OK | X_OK) != 0)
    throw InputError("cannot write " + path.string() +
                     ": the current folder is not writable; choose another output path");
}

}  // namespace

void check_output_file(const fs::path& path) {
  if (!path.has_filename() || path.filename() == "." || path.filename() == "..")
    throw InputError("cannot write " + path.string() + ": it names a folder, not a file");
  struct stat st {};
  if (::lstat(path.c_str(), &st) == 0) {
    if (!S_ISREG(st.st_mode))
      throw InputError("cannot write " + path.string() + ": it is " + kind(st.st_mode) +
                       ", not a regular file; outputs replace only regular files, remove it or "
                       "choose another output path");
    if (read_only(path, st.st_mode))
      throw InputError("cannot write " + path.string() +
                       ": the file is read-only; make it writable or choose another output path");
  } else if (errno != ENOENT && errno != ENOTDIR) {
    throw InputError("cannot write " + path.string() + ": " +
                     std::generic_category().message(errno));
  }
  check_parent(path);
}

void check_output_dir(const fs::path& dir) {
  struct stat st {};
  if (::stat(dir.c_str(), &st) == 0) {
    if (!S_ISDIR(st.st_mode))
      throw InputError("cannot write into " + dir.string() + ": it is " + kind(st.st_mode) +
                       ", not a directory; choose another output folder");
    if (::access(dir.c_str(), W_OK | X_OK) != 0)
      throw InputError("cannot write into " + dir.string() +
                       ": the folder is not writable; choose another output folder");
    return;
  }
  if (errno != ENOENT && errno != ENOTDIR)
    throw InputError("cannot write into " + dir.string() + ": " +
                     std::generic_category().message(errno));
  check_parent(dir);
}

std::optional<std::string> read_file(const fs::path& path, std::string* why) {
  const auto failed = [why](const char* what, int error) {
    if (why != nullptr) *why = what + std::generic_category().message(error);
    return std::nullopt;
  };
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return failed("cannot open file: ", errno);
  std::string text;
  char chunk[1 << 16];
  while (true) {  // a folder opens, then fails to read (EISDIR)
    const ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n == 0) break;
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int error = errno;
      ::close(fd);
      return failed("cannot read file: ", error);
    }
    text.append(chunk, static_cast<std::size_t>(n));
  }
  ::close(fd);
  return text;
}

void sync_path(const fs::path& p, bool dir) {
  const fs::path name = p.empty() ? fs::path(".") : p;
  const int fd = ::open(name.c_str(), (dir ? O_RDONLY | O_DIRECTORY : O_RDONLY) | O_CLOEXEC);
  if (fd < 0) return;
  (void)::fsync(fd);  // best effort: some file systems refuse fsync on folders
  ::close(fd);
}

bool same_file(const fs::path& a, const fs::path& b) {
  struct stat sa {
  }, sb{};
  return ::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0 && sa.st_dev == sb.st_dev &&
         sa.st_ino == sb.st_ino;
}

void write_file_atomic(const fs::path& path, std::string_view bytes) {
  check_output_file(path);
  maybe_inject_failure(path);
  const fs::path parent = path.parent_path();
  if (!parent.empty()) {
    std::error_code ec;
    fs::create_directories(parent, ec);
    if (ec) {
      throw std::runtime_error(one_line("cannot write " + path.string() + ": creating directory " +
                                        parent.string() + ": " + ec.message()));
    }
  }
  TempFile temp;
  if (const int error = temp.create(path)) fail(path, "creating a temporary file", error);
  if (const int error = temp.write_all(bytes)) fail(path, "writing", error);
  if (::fsync(temp.fd) != 0) fail(path, "flushing to disk", errno);
  // The descriptor is released even when close() reports an error, so never retry it.
  if (::close(std::exchange(temp.fd, -1)) != 0) fail(path, "closing", errno);
  if (::rename(temp.path.c_str(), path.c_str()) != 0) fail(path, "renaming into place", errno);
  temp.path.clear();
  sync_path(parent, true);  // the rename has happened: best effort
}

}  // namespace cosda
