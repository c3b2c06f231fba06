// InputError: a problem with something the user supplied (a file, flag or field). cosda prints
// it verbatim and exits with status 2; the message is one line naming the file or field, what
// was wrong, and what is allowed or how to fix it.

#pragma once

#include <cstdio>
#include <stdexcept>
#include <string>
#include <string_view>

namespace cosda {

// `text` on one line: line breaks and control characters as escapes ("\n", "\r", "\t", "\xNN").
inline std::string one_line(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x20 && byte != 0x7f) {
      out.push_back(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\x%02x", static_cast<unsigned>(byte));
      out += escaped;
    }
  }
  return out;
}

class InputError : public std::runtime_error {
 public:
  // Through one_line(): what() has no newline even when a file name or quoted input does.
  explicit InputError(std::string_view message) : std::runtime_error(one_line(message)) {}
};

}  // namespace cosda
