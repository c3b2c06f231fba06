// cosda.count(): what `cosda count` prints, as a dict. The arguments go through the CLI's own
// flag parser (sweeps/args.hpp) and the checks of sweeps/count_cmd.cpp, so a bad argument is a
// ValueError with the CLI's message word for word; python/tests compare both.
#include <pybind11/stl.h>

#include <optional>

#include "analysis/measure.hpp"
#include "attention/registry.hpp"
#include "python/bindings.hpp"
#include "sweeps/args.hpp"

namespace py = pybind11;

namespace cosda::python {
namespace {

py::dict counts_dict(const OpCounts& c) {
  py::dict d;
  d["mul"] = c.mul;
  d["add"] = c.add;
  d["div"] = c.div;
  d["exp"] = c.exp;
  d["other"] = c.other;
  d["flops"] = c.flops();
  return d;
}

py::dict amortized_dict(const Cost& c) {
  py::dict d;
  d["mul"] = c.amortized(&OpCounts::mul);
  d["add"] = c.amortized(&OpCounts::add);
  d["div"] = c.amortized(&OpCounts::div);
  d["exp"] = c.amortized(&OpCounts::exp);
  d["other"] = c.amortized(&OpCounts::other);
  d["flops"] = c.amortized_flops();
  return d;
}

// -1 (not measured) as None.
py::object measured(std::int64_t v) { return v < 0 ? py::none() : py::object(py::int_(v)); }

// The flags `cosda count` would be given for these arguments.
Args count_args(const std::string& variant, std::int64_t n, std::int64_t d,
                std::optional<std::int64_t> m, std::int64_t heads, std::int64_t layers, bool exact,
                const std::string& scalar) {
  std::vector<std::string> argv{"--variant", variant,
                                "--n",       std::to_string(n),
                                "--d",       std::to_string(d),
                                "--heads",   std::to_string(heads),
                                "--layers",  std::to_string(layers),
                                "--scalar",  scalar};
  if (m) argv.insert(argv.end(), {"--m", std::to_string(*m)});
  if (exact) argv.emplace_back("--exact");
  return Args("count",
              {{"variant", "V", ""},
               {"n", "N", ""},
               {"d", "D", ""},
               {"m", "M", ""},
               {"heads", "H", ""},
               {"layers", "1|2", ""},
               {"scalar", "double|float", ""},
               {"exact", "", ""}},
              argv);
}

py::dict count(const std::string& variant, std::int64_t n, std::int64_t d,
               std::optional<std::int64_t> m, std::int64_t heads, std::int64_t layers, bool exact,
               const std::string& scalar) {
  const Args a = count_args(variant, n, d, m, heads, layers, exact, scalar);
  // From here on as in cmd_count (sweeps/count_cmd.cpp).
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
  Cost c;
  {
    py::gil_scoped_release release;
    c = measure(p, exact ? Counting::kExact : Counting::kTally,
                single ? Precision::kFloat : Precision::kDouble);
  }
  const bool updates = t->landmarks == LandmarkKind::kContinual;
  const py::object plain =
      c.plain_steps > 0 ? py::object(counts_dict(c.plain_step)) : py::object(py::none());
  py::dict out;
  out["variant"] = p.variant;
  out["n"] = p.n;
  out["d"] = p.d;
  out["m"] = p.m;
  out["heads"] = p.heads;
  out["layers"] = p.layers;
  out["scalar"] = single ? "float" : "double";
  out["counting"] = exact ? "scalar-level" : "fast";
  out["convention"] = "all operations (mul+add+div+exp+other)";
  out["step"] = amortized_dict(c);
  out["update_step"] = updates ? py::object(counts_dict(c.update_step)) : plain;
  out["plain_step"] = plain;
  out["cycle_steps"] = c.cycle_steps;
  out["update_steps_per_cycle"] = c.update_steps;
  out["valley"] = c.valley;
  out["peak"] = c.peak;
  out["heap_peak_bytes"] = measured(c.heap_peak_bytes);
  out["heap_retained_bytes"] = measured(c.heap_retained_bytes);
  out["heap_allocations_per_cycle"] = measured(c.steady_allocations);
  return out;
}

}  // namespace

void bind_count(py::module_& m) {
  m.def("count", &count, py::arg("variant"), py::arg("n"), py::arg("d"), py::arg("m") = py::none(),
        py::arg("heads") = 1, py::arg("layers") = 1, py::arg("exact") = false,
        py::arg("scalar") = "double",
        "Executed operations per steady-state step and logical memory of one variant at one "
        "shape: the fields of `cosda count`'s JSON (heap fields None: see cosda.count).");
}

}  // namespace cosda::python
