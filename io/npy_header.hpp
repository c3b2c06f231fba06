// Internals shared by the .npy reader (io/npy.cpp) and its header parser (io/npy_header.cpp).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace cosda::npy_detail {

struct Header {
  std::vector<std::size_t> shape;
  bool float32 = false;
};

// Parses and checks the header dict (the subset npy.hpp states); else InputError naming `name`.
Header interpret_header(std::string_view header, std::string_view name);

// Untrusted input quoted for a message: printable ASCII kept, other bytes as \xNN, cut if long.
std::string excerpt(std::string_view text);

// Throws InputError("<name>: <message>").
[[noreturn]] void fail(std::string_view name, const std::string& message);

// Product of `shape`; false if it (or its nonzero dimensions times `item_size`) overflows size_t.
bool element_count(const std::vector<std::size_t>& shape, std::size_t item_size,
                   std::size_t* count);

}  // namespace cosda::npy_detail
