// Strict reader and writer for NumPy .npy files.
//
// Supported: format versions 1.0, 2.0 and 3.0; dtypes '<f4' (float32) and '<f8' (float64);
// C (row-major) order. Anything else is rejected with an InputError whose one-line message names
// the file, the problem and what is accepted.
//
// The header dict is parsed as a strict subset of Python literal syntax: exactly the keys
// 'descr', 'fortran_order' and 'shape' (any order, no duplicates), single- or double-quoted
// strings without escapes, True/False, decimal integers and tuples, with an optional trailing
// comma. Values must be finite: NaN and infinities are rejected with the flat index of the first
// one.
//
// Zero-size arrays (a 0 in the shape, e.g. (0, 4)) are well-formed .npy files and are accepted
// and written like any other array; `data` is then empty. Callers that need at least one element
// must check for that themselves. A 0-D array (shape ()) holds exactly one value.

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

// Reads and validates a whole .npy file. Throws InputError if the file cannot be read or is not
// an accepted .npy file.
NpyArray read_npy(const std::filesystem::path& path);

// Same as read_npy() for an in-memory file; `name` identifies it in error messages.
NpyArray parse_npy(std::string_view bytes, std::string_view name);

// Serialises an array as a .npy file (version 1.0, or 2.0 if the header needs it), with the
// header padded so that the data starts at a multiple of 64 bytes, as NumPy does.
// Throws std::invalid_argument if data.size() is not the product of `shape`, or if `as_float32`
// and a finite value lies outside the float32 range. Non-finite values are written as given,
// although parse_npy() will reject them.
std::string encode_npy(const std::vector<std::size_t>& shape, std::span<const double> data,
                       bool as_float32);

// encode_npy() followed by write_file_atomic(); I/O failures throw std::runtime_error.
void write_npy(const std::filesystem::path& path, const std::vector<std::size_t>& shape,
               std::span<const double> data, bool as_float32);

// Throws InputError unless `array` has exactly `rank` dimensions, e.g. with name "X.npy", rank 2
// and what "(T x d) of tokens":
//   X.npy: expected a 2-D array (T x d) of tokens, got shape (3, 4, 5)
void require_rank(const NpyArray& array, std::size_t rank, std::string_view name,
                  std::string_view what);

// Formats a shape the way Python prints tuples: "()", "(3,)", "(3, 4)".
std::string format_shape(const std::vector<std::size_t>& shape);

}  // namespace cosda
