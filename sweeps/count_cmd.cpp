// cosda count: executed counts and memory of one variant at one shape, as one JSON object;
// cosda count --model FILE: those of a whole model per step, by part and block.
#include <fmt/format.h>

#include "analysis/measure.hpp"
#include "analysis/model_report.hpp"
#include "attention/registry.hpp"
#include "sweeps/args.hpp"
#include "sweeps/commands.hpp"
#include "sweeps/model_config.hpp"

namespace cosda {
namespace {

std::string counts_json(const OpCounts& c) {
  return fmt::format(R"({{"mul": {}, "add": {}, "div": {}, "exp": {}, "other": {}, "flops": {}}})",
                     c.mul, c.add, c.div, c.exp, c.other, c.flops());
}

std::string amortized_json(const Cost& c) {
  return fmt::format(R"({{"mul": {}, "add": {}, "div": {}, "exp": {}, "other": {}, "flops": {}}})",
                     c.amortized(&OpCounts::mul), c.amortized(&OpCounts::add),
                     c.amortized(&OpCounts::div), c.amortized(&OpCounts::exp),
                     c.amortized(&OpCounts::other), c.amortized_flops());
}

}  // namespace

int cmd_count(const Argv& argv) {
  for (const auto& arg : argv)  // whole models: cmd_count_model
    if (arg == "--model" || arg.rfind("--model=", 0) == 0) return cmd_count_model(argv);
  Args a("count",
         {{"variant", "V", "variant id: " + variant_list()},
          {"n", "N", "window length (tokens)"},
          {"d", "D", "feature width (all heads together)"},
          {"m", "M", "landmarks (Nyström variants; ignored by the others; default 1)"},
          {"heads", "H", "heads, dividing d (default 1)"},
          {"layers", "1|2", "1 block, or the papers' two-block model (default 1)"},
          {"scalar", "double|float", "scalar type for the heap measurement (default double)"},
          {"exact", "", "count at scalar level (Counted scalars) instead of the fast path"}},
         argv);
  if (a.print_help(
          "usage: cosda count --variant V --n N --d D [--m M] [--heads H] [--layers 1|2]\n"
          "                   [--scalar S] [--exact]\n"
          "With --layers 2: the retroactive (or same-kind) block followed by the second block the\n"
          "papers use (single-output after retroactive), run as a real two-block stream.\n"
          "Runs the variant's kernels under counting and prints one JSON object: operations per\n"
          "steady-state step (step: amortized over a landmark cycle; update_step, plain_step),\n"
          "logical valley and peak memory in elements, and heap bytes. Convention: every\n"
          "executed scalar operation is one FLOP (flops = mul + add + div + exp + other).\n"
          "Whole models: cosda count --model FILE (see cosda count --model FILE --help)."))
    return 0;
  a.reject_positional("cosda count --help");
  Point p;
  p.variant = a.require("variant");
  const VariantTraits* t = find_variant(p.variant);
  if (t == nullptr)
    throw InputError("cosda count: flag --variant: unknown id '" + p.variant +
                     "'; known: " + variant_list());
  p.n = a.integer("n", 1, 1 << 20);
  p.d = a.integer("d", 1, 1 << 16);
  p.m = a.integer("m", 1, 1 << 20, 1);
  p.heads = a.integer("heads", 1, 1 << 16, 1);
  p.layers = a.integer("layers", 1, 2, 1);
  const bool single = a.choice("scalar", {"double", "float"}, "double") == "float";
  if (p.d % p.heads != 0)
    throw InputError("cosda count: flag --heads must divide --d (d = " + std::to_string(p.d) +
                     ", heads = " + std::to_string(p.heads) + ")");
  if (t->landmarks != LandmarkKind::kNone && p.m > p.n)
    throw InputError("cosda count: flag --m must be at most --n for " + p.variant +
                     " (m = " + std::to_string(p.m) + ", n = " + std::to_string(p.n) + ")");
  if (t->landmarks == LandmarkKind::kNone) p.m = a.has("m") ? p.m : 1;
  const Cost c = measure(p, a.has("exact") ? Counting::kExact : Counting::kTally,
                         single ? Precision::kFloat : Precision::kDouble);
  const bool updates = t->landmarks == LandmarkKind::kContinual;
  const std::string plain = c.plain_steps > 0 ? counts_json(c.plain_step) : std::string("null");
  const std::string update =
      updates ? counts_json(c.update_step) : (c.plain_steps > 0 ? plain : "null");
  fmt::print(
      R"({{"variant": "{}", "n": {}, "d": {}, "m": {}, "heads": {}, "layers": {}, "scalar": "{}", )"
      R"j("counting": "{}", "convention": "all operations (mul+add+div+exp+other)", )j"
      R"("step": {}, "update_step": {}, "plain_step": {}, "cycle_steps": {}, )"
      R"("update_steps_per_cycle": {}, "valley": {}, "peak": {}, "heap_peak_bytes": {}, )"
      R"("heap_retained_bytes": {}, "heap_allocations_per_cycle": {}}})"
      "\n",
      p.variant, p.n, p.d, p.m, p.heads, p.layers, single ? "float" : "double",
      a.has("exact") ? "scalar-level" : "fast", amortized_json(c), update, plain, c.cycle_steps,
      c.update_steps, c.valley, c.peak, c.heap_peak_bytes, c.heap_retained_bytes,
      c.steady_allocations);
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
  const ModelConfig m = load_model_config(a.require("model"));
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
