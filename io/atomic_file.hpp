// Crash-safe file output.
//
// write_file_atomic() writes the bytes to a temporary file in the destination folder, flushes it
// to disk and renames it over the destination. Readers therefore see either the old contents or
// the complete new contents, never a half-written file, even if the process is killed midway.

#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace cosda {

// Replaces the file at `path` with `bytes`.
//
// Missing parent directories are created. The data goes to ".<name>.tmp.<pid>.<n>" next to the
// destination, is fsync()ed and then rename()d into place; the containing directory is fsync()ed
// afterwards on a best-effort basis. The new file gets the default mode (0666 minus the umask).
//
// Only a regular file or a new path is ever replaced: a symbolic link, directory, FIFO, device
// or socket at `path`, and a read-only file, are refused with an InputError naming the path
// (check_output_file()). Throws std::runtime_error with a one-line message naming the path and
// the failing step for I/O failures; in either case the temporary file has been removed and an
// existing file at `path` is untouched.
void write_file_atomic(const std::filesystem::path& path, std::string_view bytes);

// Checks, before any work, that `path` can be written as an output: it is a new path or a
// regular file (not a symbolic link, directory, FIFO, device or socket) that is not read-only,
// and its nearest existing ancestor folder is a writable directory. Throws InputError with one
// line naming the path otherwise; writes nothing.
void check_output_file(const std::filesystem::path& path);

// The same for an output folder: a new path or a writable directory (a symbolic link to one is
// accepted), below a writable existing directory. Writes nothing.
void check_output_dir(const std::filesystem::path& dir);

// Whether both paths exist and name the same file (same st_dev and st_ino after following
// symbolic links), e.g. an output that is also an input under another name.
bool same_file(const std::filesystem::path& a, const std::filesystem::path& b);

// Buffers output in memory and publishes it with write_file_atomic() on commit(). A writer that
// is destroyed without a successful commit() leaves the file system untouched.
class AtomicWriter {
 public:
  explicit AtomicWriter(std::filesystem::path path);
  AtomicWriter(const AtomicWriter&) = delete;
  AtomicWriter& operator=(const AtomicWriter&) = delete;
  ~AtomicWriter() = default;

  // Appends to the buffer. Throws std::logic_error after commit().
  void write(std::string_view bytes);

  // Writes the buffer to the destination. Throws std::runtime_error on I/O failure (the writer
  // stays uncommitted and commit() may be retried) and std::logic_error if already committed.
  void commit();

  bool committed() const noexcept { return committed_; }
  const std::filesystem::path& path() const noexcept { return path_; }
  const std::string& buffer() const noexcept { return buffer_; }

 private:
  std::filesystem::path path_;
  std::string buffer_;
  bool committed_ = false;
};

}  // namespace cosda
