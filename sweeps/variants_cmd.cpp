// cosda variants (alias cosda list): the registry as a table.
#include <fmt/format.h>

#include <string>

#include "attention/registry.hpp"
#include "sweeps/args.hpp"
#include "sweeps/commands.hpp"

namespace cosda {

int cmd_variants(const Argv& argv) {
  const Args a("variants",
               {{"ids", "all|rank|no-rank",
                 "print only the ids, one a line: all, those with a rank coordinate m "
                 "(landmarks or features), or those without"}},
               argv);
  if (a.print_help(
          "usage: cosda variants [--ids all|rank|no-rank]   (or cosda list)\n"
          "Prints every variant of the registry (attention/registry.hpp): its id (the value of\n"
          "--variant and of a config's variants), the Nyström paper's name, the output rows per\n"
          "step (1, or n for the whole window), whether it is continual (reuses the previous\n"
          "step's results), its landmarks and its family. With --ids, only the ids (what the\n"
          "Makefile's loops over variants read)."))
    return 0;
  a.reject_positional("cosda variants --help");
  if (const auto ids = a.get("ids")) {
    if (*ids != "all" && *ids != "rank" && *ids != "no-rank")
      throw InputError("cosda variants: flag --ids is '" + *ids + "'; use all, rank or no-rank");
    for (const auto& v : kVariants)
      if (*ids == "all" || (*ids == "rank") == (v.landmarks != LandmarkKind::kNone))
        fmt::print("{}\n", v.id);
    return 0;
  }
  fmt::print("{:<14} {:<28} {:<7} {:<10} {:<16} {}\n", "id", "paper name", "output", "continual",
             "landmarks", "family");
  for (const auto& v : kVariants)
    fmt::print("{:<14} {:<28} {:<7} {:<10} {:<16} {}\n", v.id, v.paper_name,
               v.single_output ? "1 x d" : "n x d", v.continual ? "yes" : "no",
               landmarks_name(v.landmarks), family_name(v.family));
  return 0;
}

}  // namespace cosda
