// The subcommands of build/bin/cosda. Each takes the arguments after its name, prints its
// own --help, throws InputError for bad input, and returns the exit status.
#pragma once

#include <string>
#include <vector>

namespace cosda {

using Argv = std::vector<std::string>;

int cmd_count(const Argv& args);
int cmd_stream(const Argv& args);

struct Command {
  const char* name;
  const char* summary;
  int (*run)(const Argv&);
};

inline constexpr Command kCommands[] = {
    {"count", "executed operations and memory of one variant at one shape (JSON)", cmd_count},
    {"stream", "run a variant over a token stream (.npy in, .npy out)", cmd_stream},
};

}  // namespace cosda
