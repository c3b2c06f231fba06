// cosda variants (alias cosda list): the registry as a table.
#include <fmt/format.h>

#include <string>

#include "attention/registry.hpp"
#include "sweeps/args.hpp"
#include "sweeps/commands.hpp"

namespace cosda {
namespace {

std::string landmarks_name(LandmarkKind k) {
  switch (k) {
    case LandmarkKind::kNone:
      return "none";
    case LandmarkKind::kSegmentMeans:
      return "segment means";
    case LandmarkKind::kContinual:
      return "continual";
    case LandmarkKind::kFixed:
      return "fixed";
    case LandmarkKind::kRandomFeatures:
      return "random features";
  }
  return "?";
}

std::string family_name(Family f) {
  switch (f) {
    case Family::kSoftmax:
      return "softmax";
    case Family::kNystrom:
      return "Nyström";
    case Family::kRandomFeatures:
      return "random features";
  }
  return "?";
}

}  // namespace

int cmd_variants(const Argv& argv) {
  const Args a("variants", {}, argv);
  if (a.print_help(
          "usage: cosda variants   (or cosda list)\n"
          "Prints every variant of the registry (attention/registry.hpp): its id (the value of\n"
          "--variant and of a config's variants), the Nyström paper's name, the output rows per\n"
          "step (1, or n for the whole window), whether it is continual (reuses the previous\n"
          "step's results), its landmarks and its family."))
    return 0;
  a.reject_positional("cosda variants --help");
  fmt::print("{:<14} {:<28} {:<7} {:<10} {:<16} {}\n", "id", "paper name", "output", "continual",
             "landmarks", "family");
  for (const auto& v : kVariants)
    fmt::print("{:<14} {:<28} {:<7} {:<10} {:<16} {}\n", v.id, v.paper_name,
               v.single_output ? "1 x d" : "n x d", v.continual ? "yes" : "no",
               landmarks_name(v.landmarks), family_name(v.family));
  return 0;
}

}  // namespace cosda
