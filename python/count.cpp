// cosda.count(): what `cosda count` prints, as a dict with the same keys (a sweep's points.csv
// columns). The arguments go through the CLI's own parser and checks (sweeps/count.hpp), so a
// bad argument is a ValueError with the CLI's message word for word; python/tests compare both.
#include "sweeps/count.hpp"

#include <pybind11/stl.h>

#include <cmath>
#include <optional>
#include <string>

#include "analysis/measure.hpp"
#include "python/bindings.hpp"

namespace py = pybind11;

namespace cosda::python {
namespace {

// A cell of count_cells() as a Python value: text, None for an empty cell or an unmeasured
// heap figure (-1), else an int when integral and a float otherwise.
py::object cell_value(std::string_view name, const std::string& cell) {
  if (count_text_column(name)) return py::str(cell);
  if (cell.empty() || (name.rfind("heap_", 0) == 0 && cell == "-1")) return py::none();
  const double v = std::stod(cell);
  if (v == std::floor(v) && std::fabs(v) < 9e15) return py::int_(static_cast<long long>(v));
  return py::float_(v);
}

py::dict count(const std::string& variant, std::int64_t n, std::int64_t d,
               std::optional<std::int64_t> m, std::int64_t heads, std::int64_t layers, bool exact,
               const std::string& scalar) {
  // The flags `cosda count` would be given, through its own parser and checks.
  const bool single = scalar == "float" || scalar == "float32";
  if (!single && scalar != "double" && scalar != "float64")
    throw InputError("cosda count: flag --scalar must be one of double, float, got '" + scalar +
                     "'");
  Argv argv{"--variant", variant,
            "--n",       std::to_string(n),
            "--d",       std::to_string(d),
            "--heads",   std::to_string(heads),
            "--layers",  std::to_string(layers),
            "--scalar",  single ? "float" : "double"};
  if (m) argv.insert(argv.end(), {"--m", std::to_string(*m)});
  if (exact) argv.emplace_back("--exact");
  const Point p = count_point(count_args(argv));
  Cost c;
  {
    py::gil_scoped_release release;
    c = measure(p, exact ? Counting::kExact : Counting::kTally,
                single ? Precision::kFloat : Precision::kDouble);
  }
  CountOutput o = count_output(p, c);
  o.scalar = single ? "float" : "double";
  o.counting = exact ? "scalar-level" : "fast";
  py::dict out;
  for (const auto& [name, cell] : count_cells(o, false))
    out[py::str(name)] = cell_value(name, cell);
  return out;
}

}  // namespace

void bind_count(py::module_& m) {
  m.def("count", &count, py::arg("variant"), py::arg("n"), py::arg("d"), py::arg("m") = py::none(),
        py::arg("heads") = 1, py::arg("layers") = 1, py::arg("exact") = false,
        py::arg("scalar") = "double",
        "Executed operations per steady-state step and logical memory of one variant at one "
        "shape: the fields of `cosda count`'s JSON, the columns of a sweep's points.csv (heap "
        "fields None: see cosda.count).");
}

}  // namespace cosda::python
