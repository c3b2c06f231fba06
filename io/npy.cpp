#include "io/npy.hpp"

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "io/atomic_file.hpp"
#include "io/errors.hpp"
#include "io/npy_header.hpp"

namespace cosda {
namespace {

using npy_detail::element_count;
using npy_detail::fail;

constexpr std::string_view kMagic("\x93NUMPY", 6);
constexpr std::size_t kVersionOffset = kMagic.size();  // major, minor: one byte each
constexpr std::size_t kHeaderLengthOffset = kMagic.size() + 2;
constexpr std::size_t kHeaderAlignment = 64;  // NumPy's ARRAY_ALIGN

static_assert(std::numeric_limits<float>::is_iec559 && std::numeric_limits<double>::is_iec559,
              "float and double must be IEEE 754 binary32 and binary64");

// Little-endian byte access, independent of host byte order and alignment.

std::uint64_t load_le(const char* bytes, std::size_t width) {
  std::uint64_t value = 0;
  for (std::size_t i = 0; i < width; ++i) {
    value |= static_cast<std::uint64_t>(static_cast<unsigned char>(bytes[i])) << (8 * i);
  }
  return value;
}

void store_le(std::uint64_t value, std::size_t width, std::string* out) {
  for (std::size_t i = 0; i < width; ++i) {
    out->push_back(static_cast<char>((value >> (8 * i)) & 0xff));
  }
}

}  // namespace

NpyArray parse_npy(std::string_view bytes, std::string_view name) {
  if (bytes.substr(0, kMagic.size()) != kMagic) {
    fail(name,
         "not a .npy file: it does not start with the magic string \\x93NUMPY; save arrays "
         "with numpy.save()");
  }
  if (bytes.size() < kHeaderLengthOffset) {
    fail(name, "truncated .npy preamble: the file ends after " + std::to_string(bytes.size()) +
                   " bytes, before the format version");
  }
  const auto major = static_cast<unsigned char>(bytes[kVersionOffset]);
  const auto minor = static_cast<unsigned char>(bytes[kVersionOffset + 1]);
  if ((major != 1 && major != 2 && major != 3) || minor != 0) {
    fail(name, "unsupported .npy format version " + std::to_string(major) + "." +
                   std::to_string(minor) + "; accepted versions: 1.0, 2.0, 3.0");
  }
  const std::size_t length_width = major == 1 ? 2 : 4;
  const std::size_t header_offset = kHeaderLengthOffset + length_width;
  if (bytes.size() < header_offset) {
    fail(name, "truncated .npy preamble: the file ends after " + std::to_string(bytes.size()) +
                   " bytes, before the end of the " + std::to_string(header_offset) +
                   "-byte preamble of a version " + std::to_string(major) + ".0 file");
  }
  const std::uint64_t header_length = load_le(bytes.data() + kHeaderLengthOffset, length_width);
  const std::size_t after_preamble = bytes.size() - header_offset;
  if (header_length > after_preamble) {
    fail(name, "header length " + std::to_string(header_length) +
                   " extends past the end of the file (only " + std::to_string(after_preamble) +
                   " bytes follow the preamble); the file is truncated or corrupt");
  }
  const std::string_view header = bytes.substr(header_offset, header_length);
  const npy_detail::Header parsed = npy_detail::interpret_header(header, name);

  const std::size_t item_size = parsed.float32 ? 4 : 8;
  std::size_t count = 0;
  element_count(parsed.shape, item_size, &count);  // cannot fail: checked in interpret_header
  const std::size_t expected = count * item_size;
  const std::size_t actual = after_preamble - header_length;
  if (actual != expected) {
    fail(name, std::string(actual < expected ? "truncated data" : "trailing bytes after the data") +
                   ": shape " + format_shape(parsed.shape) + " of dtype '" +
                   (parsed.float32 ? "<f4" : "<f8") + "' needs " + std::to_string(expected) +
                   " bytes after the header, but the file has " + std::to_string(actual));
  }

  NpyArray array;
  array.shape = parsed.shape;
  array.float32 = parsed.float32;
  array.data.resize(count);
  const char* payload = bytes.data() + header_offset + header_length;
  for (std::size_t i = 0; i < count; ++i) {
    const std::uint64_t raw = load_le(payload + i * item_size, item_size);
    const double value =
        parsed.float32 ? static_cast<double>(std::bit_cast<float>(static_cast<std::uint32_t>(raw)))
                       : std::bit_cast<double>(raw);
    array.data[i] = value;
  }
  require_finite(std::span<const double>(array.data), parsed.shape, name);
  return array;
}

NpyArray read_npy(const std::filesystem::path& path) {
  std::string why;
  const std::optional<std::string> bytes = read_file(path, &why);
  if (!bytes) fail(path.string(), why);
  return parse_npy(*bytes, path.string());
}

std::string encode_npy(const std::vector<std::size_t>& shape, std::span<const double> data,
                       bool as_float32) {
  const std::size_t item_size = as_float32 ? 4 : 8;
  std::size_t count = 0;
  if (!element_count(shape, item_size, &count)) {
    throw std::invalid_argument("encode_npy: shape " + format_shape(shape) + " is too large");
  }
  if (count != data.size()) {
    throw std::invalid_argument("encode_npy: shape " + format_shape(shape) + " holds " +
                                std::to_string(count) + " values but " +
                                std::to_string(data.size()) + " were given");
  }

  std::string dict = std::string("{'descr': '") + (as_float32 ? "<f4" : "<f8") +
                     "', 'fortran_order': False, 'shape': " + format_shape(shape) + ", }";
  // Version 1.0 stores the header length in 2 bytes; longer headers need version 2.0.
  const std::size_t unpadded_v1 = kHeaderLengthOffset + 2 + dict.size() + 1;
  const std::size_t padding_v1 =
      (kHeaderAlignment - unpadded_v1 % kHeaderAlignment) % kHeaderAlignment;
  const bool version1 = dict.size() + 1 + padding_v1 <= 0xffff;
  const std::size_t length_width = version1 ? 2 : 4;
  const std::size_t unpadded = kHeaderLengthOffset + length_width + dict.size() + 1;
  dict.append((kHeaderAlignment - unpadded % kHeaderAlignment) % kHeaderAlignment, ' ');
  dict.push_back('\n');

  std::string out;
  out.reserve(kHeaderLengthOffset + length_width + dict.size() + count * item_size);
  out.append(kMagic);
  out.push_back(static_cast<char>(version1 ? 1 : 2));
  out.push_back(0);
  store_le(dict.size(), length_width, &out);
  out += dict;
  for (std::size_t i = 0; i < count; ++i) {
    const double value = data[i];
    if (!as_float32) {
      store_le(std::bit_cast<std::uint64_t>(value), 8, &out);
      continue;
    }
    if (std::isfinite(value) && std::fabs(value) > std::numeric_limits<float>::max()) {
      throw std::invalid_argument("encode_npy: value " + std::to_string(value) + " at flat index " +
                                  std::to_string(i) + " is outside the float32 range");
    }
    store_le(std::bit_cast<std::uint32_t>(static_cast<float>(value)), 4, &out);
  }
  return out;
}

void write_npy(const std::filesystem::path& path, const std::vector<std::size_t>& shape,
               std::span<const double> data, bool as_float32) {
  write_file_atomic(path, encode_npy(shape, data, as_float32));
}

void require_rank(const NpyArray& array, std::size_t rank, std::string_view name,
                  std::string_view what) {
  if (array.shape.size() == rank) return;
  std::string message = std::string(name) + ": expected a " + std::to_string(rank) + "-D array";
  if (!what.empty()) message += " " + std::string(what);
  message += ", got shape " + format_shape(array.shape);
  throw InputError(message);
}

}  // namespace cosda
