// InputError: a problem with something the user supplied (a file, flag or field). cosda prints
// it verbatim and exits with status 2; the message is one line naming the file or field, what
// was wrong, and what is allowed or how to fix it.

#pragma once

#include <fmt/format.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
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

// A command's body under that policy: an InputError is printed as it is and a
// std::invalid_argument (a bad flag value) after "<name>: ", both exit 2; any other error exits 1
// as "<name>: error: ..."; a failed write to stdout (a full disk) is a failed run.
template <class Body>
int exit_status(std::string_view name, Body&& body) {
  try {
    const int status = body();
    if (std::fflush(stdout) != 0 || std::ferror(stdout))
      throw std::runtime_error(
          fmt::format("cannot write to standard output: {}", std::strerror(errno)));
    return status;
  } catch (const InputError& e) {
    fmt::print(stderr, "{}\n", e.what());
    return 2;
  } catch (const std::invalid_argument& e) {
    fmt::print(stderr, "{}: {}\n", name, one_line(e.what()));
    return 2;
  } catch (const std::exception& e) {
    fmt::print(stderr, "{}: error: {}\n", name, one_line(e.what()));
    return 1;
  }
}

}  // namespace cosda
