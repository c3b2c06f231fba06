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
// If `path` is a symbolic link, the link itself is replaced.
//
// Throws std::runtime_error with a one-line message naming the path and the failing step; in
// that case the temporary file has been removed and an existing file at `path` is untouched.
void write_file_atomic(const std::filesystem::path& path, std::string_view bytes);

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
