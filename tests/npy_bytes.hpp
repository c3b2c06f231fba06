// Builders of .npy bytes for the .npy reader's tests (tests/io_test.cpp,
// tests/npy_header_test.cpp): little-endian payloads and files from a literal header dict.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace cosda::npy_bytes {

inline constexpr std::string_view kName = "X.npy";

inline void append_le(std::uint64_t value, std::size_t width, std::string* out) {
  for (std::size_t i = 0; i < width; ++i) out->push_back(static_cast<char>(value >> (8 * i)));
}

inline std::string f8_bytes(const std::vector<double>& values) {
  std::string out;
  for (const double v : values) {
    std::uint64_t raw;
    std::memcpy(&raw, &v, sizeof raw);
    append_le(raw, 8, &out);
  }
  return out;
}

inline std::string f4_bytes(const std::vector<float>& values) {
  std::string out;
  for (const float v : values) {
    std::uint32_t raw;
    std::memcpy(&raw, &v, sizeof raw);
    append_le(raw, 4, &out);
  }
  return out;
}

// Builds a .npy file from a literal header dict, padded with spaces and a final newline.
inline std::string make_npy(std::string_view dict, std::string_view payload, int major = 1,
                            int minor = 0) {
  const std::size_t width = major == 1 ? 2 : 4;
  std::string header(dict);
  const std::size_t unpadded = 8 + width + header.size() + 1;
  header.append((64 - unpadded % 64) % 64, ' ');
  header.push_back('\n');
  std::string out("\x93NUMPY", 6);
  out.push_back(static_cast<char>(major));
  out.push_back(static_cast<char>(minor));
  append_le(header.size(), width, &out);
  return out + header + std::string(payload);
}

inline std::string dict_with(std::string_view descr, std::string_view fortran,
                             std::string_view shape) {
  return "{'descr': " + std::string(descr) + ", 'fortran_order': " + std::string(fortran) +
         ", 'shape': " + std::string(shape) + ", }";
}

}  // namespace cosda::npy_bytes
