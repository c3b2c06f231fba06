// User-facing error type for the command-line layer.
//
// An InputError describes a problem with something the user supplied (a file, a flag, a field)
// and is meant to be printed verbatim: callers print "cosda: <what()>" and exit with status 2.
// Its message is exactly one line that names the file or field, says what was wrong and what is
// allowed or how to fix it.

#pragma once

#include <cstdio>
#include <stdexcept>
#include <string>
#include <string_view>

namespace cosda {

// Returns `text` with line breaks and other control characters replaced by visible escapes
// ("\n", "\r", "\t", "\xNN"), so that it always prints as a single line.
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
  // The message is passed through one_line(), so what() never contains a newline even when a
  // file name or a quoted excerpt of the input does.
  explicit InputError(std::string_view message) : std::runtime_error(one_line(message)) {}
};

}  // namespace cosda
