// Strict reader and writer for NumPy .npy files: versions 1.0, 2.0 and 3.0, dtypes '<f4' and
// '<f8', C order; anything else is an InputError naming the file, the problem and what is
// accepted. The header dict is a strict subset of Python literals: exactly the keys 'descr',
// 'fortran_order' and 'shape' (any order, once each), single- or double-quoted strings without
// escapes, True/False, decimal integers and tuples, optional trailing comma. Values must be
// finite (the first NaN or inf is named by its flat index). Zero-size arrays (e.g. (0, 4)) have
// empty `data`: callers needing an element must check. A 0-D array (shape ()) holds one value.

#pragma once

#include <cstddef>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace cosda {

struct NpyArray {
  std::vector<std::size_t> shape;  // empty for a 0-D array
  std::vector<double> data;        // C order; size is the product of `shape`
  bool float32 = false;            // the file stored '<f4' rather than '<f8'
};

// Reads and validates a whole .npy file; InputError if it cannot be read or is not accepted.
NpyArray read_npy(const std::filesystem::path& path);

// Same as read_npy() for an in-memory file; `name` identifies it in error messages.
NpyArray parse_npy(std::string_view bytes, std::string_view name);

// Serialises an array as .npy (version 1.0, or 2.0 for a long header), data 64-byte aligned as
// NumPy does. Throws std::invalid_argument if data.size() is not the product of `shape` or, with
// `as_float32`, a finite value exceeds float32; non-finite values pass (parse_npy() rejects them).
std::string encode_npy(const std::vector<std::size_t>& shape, std::span<const double> data,
                       bool as_float32);

// encode_npy() followed by write_file_atomic(); I/O failures throw std::runtime_error.
void write_npy(const std::filesystem::path& path, const std::vector<std::size_t>& shape,
               std::span<const double> data, bool as_float32);

// Throws InputError unless `array` has `rank` dimensions; for "X.npy", 2, "(T x d) of tokens":
//   X.npy: expected a 2-D array (T x d) of tokens, got shape (3, 4, 5)
void require_rank(const NpyArray& array, std::size_t rank, std::string_view name,
                  std::string_view what);

// Throws InputError for the first value that is not finite, as the reader refuses one:
//   X.npy: non-finite value NaN at flat index 5 (C order) of the array of shape (2, 4); all ...
template <class T>
void require_finite(std::span<const T> values, const std::vector<std::size_t>& shape,
                    std::string_view name);

// Formats a shape the way Python prints tuples: "()", "(3,)", "(3, 4)".
std::string format_shape(const std::vector<std::size_t>& shape);

}  // namespace cosda
