// Internals of the .npy reader (io/npy.cpp) shared with its header parser (io/npy_header.cpp):
// the header dict's interpretation and the helpers both halves' messages use.
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

// Parses and checks the header dict (npy.hpp states the accepted subset); throws InputError
// naming `name` for anything else.
Header interpret_header(std::string_view header, std::string_view name);

// Quotes a piece of untrusted input for an error message: printable ASCII is kept, every other
// byte becomes \xNN, and long excerpts are cut short.
std::string excerpt(std::string_view text);

// Throws InputError("<name>: <message>").
[[noreturn]] void fail(std::string_view name, const std::string& message);

// Product of `shape`, or false if it (or the product of its nonzero dimensions times
// `item_size`) does not fit in size_t.
bool element_count(const std::vector<std::size_t>& shape, std::size_t item_size,
                   std::size_t* count);

}  // namespace cosda::npy_detail
