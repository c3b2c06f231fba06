// cosda count: executed counts and memory of one variant at one shape in points.csv's columns
// (JSON, CSV or TSV); with --model FILE, those of a whole model per step, by part and block.
#include <fmt/format.h>

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "analysis/exact.hpp"
#include "analysis/measure.hpp"
#include "analysis/model_report.hpp"
#include "attention/registry.hpp"
#include "sweeps/args.hpp"
#include "sweeps/commands.hpp"
#include "sweeps/config_kinds.hpp"
#include "sweeps/count.hpp"
#include "sweeps/model_config.hpp"
#include "sweeps/point_memory.hpp"
#include "sweeps/points.hpp"
#include "sweeps/run_checks.hpp"
#include "sweeps/variant_lists.hpp"

namespace cosda {
namespace {

// count's flags (with their help texts).
Args count_args(const Argv& argv) {
  return Args(
      "count",
      {{"variant", "V", "variant id: " + variant_list()},
       {"n", "N", "window length (tokens)"},
       {"d", "D", "feature width of all heads together (one head's: d_head = d / heads)"},
       {"m", "M", "landmarks or random features (only " + landmark_patterns() + "; default 1)"},
       {"heads", "H", "heads, dividing d (default 1)"},
       {"layers", "1|2", "1 block, or the papers' two-block model (default 1)"},
       {"scalar", "double|float", "scalar type for the heap measurement (default double)"},
       {"exact", "", "count at scalar level (Counted scalars) instead of the fast path"},
       {"format", "json|csv|tsv", "one JSON object, or a header and one row (default json)"},
       {"convention", "all|mul|mac|cotrans",
        "how flops counts (default all: every executed operation; mac: a multiply-add once)"},
       {"feature-seed", "S",
        "seed of the random features (only random-feature variants; counts do not depend on it)"},
       {"memory-limit", "BYTES",
        "refuse a point needing more (K, M, G, T suffixes; default: available memory)"}},
      argv);
}

// The point of the flags, checked by sweeps/run_checks.hpp (InputError naming the flag).
Point count_point(const Args& a) {
  RunRequest r = request_of(a);
  const Range d = range_of("d");
  r.d = a.integer("d", d.lo, d.hi);
  r.default_m = 1;
  return point_of(check_run(r, Spelling::command_line("count")));
}

const char* const kUnits =
    "Columns (the names of a sweep's points.csv; empty or null: no value):\n"
    "  variant, layers, heads, n, d, m   the point (m = 1 for variants without landmarks);\n"
    "                                    d is the width of all heads\n"
    "  d_head                            one head's width, d / heads\n"
    "  flops, mul, add, div, exp, other  operations per steady-state step, averaged over a\n"
    "                                    landmark cycle (so fractional); flops in the\n"
    "                                    convention (all: their sum), the others executed\n"
    "  convention                        all, mul, mac or cotrans (analysis/conventions.hpp)\n"
    "  valley, peak                      logical memory in elements (all heads and blocks)\n"
    "  heap_peak_bytes                   heap high-water mark of a step, bytes (-1: no hooks)\n"
    "  exact_flops                       the exact closed form per step (one-layer points)\n"
    "  update_flops, plain_flops         flops of a landmark-update step and of a plain step\n"
    "  cycle_steps, update_steps         steps measured, and how many updated landmarks\n"
    "  scalar, counting                  double|float; fast or scalar-level (--exact)\n"
    "  heap_retained_bytes               heap bytes the state keeps between steps\n"
    "  heap_allocations_per_cycle        heap allocations over the measured steps\n";

void print_count(const CountOutput& o, const std::string& format) {
  const auto cells = count_cells(o, format == "json");
  std::string head, line;
  const std::string sep = format == "tsv" ? "\t" : format == "csv" ? "," : ", ";
  for (const auto& [name, cell] : cells) {
    if (format == "json") {
      line += (line.empty() ? "{" : sep) + ("\"" + name + "\": " + cell);
      continue;
    }
    head += (head.empty() ? "" : sep) + name;
    line += (line.empty() ? "" : sep) + cell;
  }
  if (format == "json")
    fmt::print("{}}}\n", line);
  else
    fmt::print("{}\n{}\n", head, line);
}

}  // namespace

int cmd_count(const Argv& argv) {
  for (const auto& arg : argv)  // whole models: cmd_count_model
    if (arg == "--model" || arg.rfind("--model=", 0) == 0) return cmd_count_model(argv);
  const Args a = count_args(argv);
  if (a.print_help(
          std::string(
              "usage: cosda count --variant V --n N --d D [--m M] [--heads H] [--layers 1|2]\n"
              "                   [--scalar S] [--exact] [--format json|csv|tsv]\n"
              "                   [--convention all|mul|mac|cotrans]\n"
              "With --layers 2: the retroactive (or same-kind) block followed by the second block\n"
              "the papers use (single-output after retroactive), run as a real two-block stream.\n"
              "Runs the variant's kernels under counting and prints the steady state: one JSON\n"
              "object, or with --format csv|tsv a header and one row. Convention (--convention):\n"
              "all (default): every executed scalar operation is one FLOP (flops = mul + add +\n"
              "div + exp + other); mul: multiplications only; mac: a multiply-add pair once\n"
              "(max(mul, add) + div + exp + other); cotrans: mul + add + exp, div as mul, other\n"
              "as add (total: all).\n") +
          kUnits + "Whole models: cosda count --model FILE (see cosda count --model FILE --help)."))
    return 0;
  a.reject_positional("cosda count --help");
  const Point p = count_point(a);
  const bool single = a.choice("scalar", {"double", "float"}, "double") == "float";
  const std::string format = a.choice("format", {"json", "csv", "tsv"}, "json");
  const auto convention =
      convention_of(a.get("convention").value_or("all"), "cosda count: flag --convention");
  const double limit = memory_limit_bytes(a);
  if (const auto need = kernel_peak_bytes(p, single ? 4.0 : 8.0))
    check_point_memory(Spelling::command_line("count"), p, *need, limit);
  const bool exact = a.has("exact");
  const Cost c = measure(p, exact ? Counting::kExact : Counting::kTally,
                         single ? Precision::kFloat : Precision::kDouble);
  CountOutput o = count_output(p, c, convention);
  o.scalar = single ? "float" : "double";
  o.counting = exact ? "scalar-level" : "fast";
  print_count(o, format);
  return 0;
}

// cosda count --model FILE.
int cmd_count_model(const Argv& argv) {
  Args a("count",
         {{"model", "FILE", "whole-model config (configs/models/*.toml)"},
          {"n", "N", "window length (default: the config's)"},
          {"input-dim", "D", "raw token width (default: the config's; 0: no embedding)"},
          {"exact", "", "count at scalar level (Counted scalars) instead of the fast path"}},
         argv);
  if (a.print_help(
          "usage: cosda count --model FILE [--n N] [--input-dim D] [--exact]\n"
          "Runs the whole model of FILE (embedding, positional encodings, Transformer Encoder\n"
          "blocks, head) under counting and prints one JSON object: operations per steady-state\n"
          "step in total, by part (embedding, projections, attention, feed_forward, activation,\n"
          "normalisation, head, other) and by block, each as the five buckets and in every\n"
          "convention: all operations, multiplications only (ptflops-style), multiply-\n"
          "accumulate pairs, and the CoTrans mul/add/exp triple."))
    return 0;
  a.reject_positional("cosda count --model FILE --help");
  const ModelConfig m = read_config_as("model", a.require("model"), load_model_config);
  const std::int64_t n = a.integer("n", 1, 1 << 16, m.spec.n);
  const std::int64_t in = a.integer("input-dim", 0, 1 << 16, m.spec.input_dim);
  const ModelSpec spec = spec_at(m, n, in);
  if (const std::string why = check(spec); !why.empty())
    throw InputError("cosda count: " + m.source + " with --n " + std::to_string(n) + ": " + why);
  const Counting counting = a.has("exact") ? Counting::kExact : Counting::kTally;
  fmt::print("{}", model_count_json(m, measure_model(spec, counting), counting));
  return 0;
}

}  // namespace cosda
