// Crash-safe file output: readers see the old contents or the complete new contents, never a
// half-written file, even if the process is killed midway.

#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace cosda {

// Replaces the file at `path` with `bytes`, creating missing parent folders: the data goes to
// ".<name>.tmp.<pid>.<n>" beside it, is fsync()ed and rename()d into place, then the folder is
// fsync()ed (best effort). Mode: 0666 minus the umask. What check_output_file() refuses is an
// InputError; an I/O failure throws std::runtime_error naming the path and the failing step.
// On any error the temporary file is gone and an existing file at `path` is untouched.
void write_file_atomic(const std::filesystem::path& path, std::string_view bytes);

// Checks, before any work, that `path` is new or a writable regular file (not a symbolic link,
// folder, FIFO, device or socket) below a writable existing folder; else throws InputError
// naming the path. Writes nothing.
void check_output_file(const std::filesystem::path& path);

// The same for a folder: a writable directory (or a link to one), or new below a writable one.
void check_output_dir(const std::filesystem::path& dir);

// The whole file's bytes; nullopt if it cannot be opened and read (missing, a folder, no access),
// with `why` ("cannot open file: <reason>" or "cannot read file: <reason>") where given.
std::optional<std::string> read_file(const std::filesystem::path& path, std::string* why = nullptr);

// fsync() of a file or folder (an empty path: the current folder), best effort.
void sync_path(const std::filesystem::path& p, bool dir);

// Whether both paths exist and are one file (same st_dev, st_ino), e.g. an input by another name.
bool same_file(const std::filesystem::path& a, const std::filesystem::path& b);

}  // namespace cosda
