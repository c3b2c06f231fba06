// build/bin/cosda: the command line of the suite.
#include <fmt/format.h>

#include <cstring>
#include <string>

#include "io/errors.hpp"
#include "sweeps/commands.hpp"

int main(int argc, char** argv) {
  if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h")) {
    cosda::print_usage(argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  if (!std::strcmp(argv[1], "--version")) {
    if (argc > 2) {
      fmt::print(stderr, "cosda --version takes no argument; drop '{}'\n",
                 cosda::one_line(argv[2]));
      return 2;
    }
    fmt::print("{}\n", cosda::version_text());
    return 0;
  }
  const cosda::Argv args(argv + 2, argv + argc);
  for (const auto& c : cosda::kCommands) {
    if (std::strcmp(argv[1], c.name) != 0) continue;
    return cosda::exit_status(std::string("cosda ") + c.name, [&] { return c.run(args); });
  }
  fmt::print(stderr, "cosda: unknown command '{}'; run 'cosda --help' for the list\n",
             cosda::one_line(argv[1]));
  return 2;
}
