// Checks on the paths a command reads and writes (same_file: io/atomic_file.hpp), done before any
// work so that a bad output path costs nothing and never replaces an input.
#pragma once

#include <filesystem>
#include <string_view>

#include "io/atomic_file.hpp"  // same_file

namespace cosda {

// Throws InputError, led by `field` (e.g. "cosda stream: flag --output"), unless `path` is new or
// a writable regular file (not a symbolic link, folder, FIFO, device or socket) and its nearest
// existing folder is a writable directory (missing folders are created on writing).
void check_output_file(const std::filesystem::path& path, std::string_view field);

}  // namespace cosda
