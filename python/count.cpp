// cosda.count(): what `cosda count` prints, as a dict with the same keys (points.csv columns);
// arguments go through the CLI's checker (sweeps/run_checks.hpp), so errors carry its messages.
#include "sweeps/count.hpp"

#include <pybind11/stl.h>

#include <cmath>
#include <optional>
#include <string>

#include "analysis/measure.hpp"
#include "python/bindings.hpp"
#include "python/stream_args.hpp"
#include "sweeps/run_checks.hpp"

namespace py = pybind11;

namespace cosda::python {
namespace {

// A count_cells() cell as a Python value: text; NaN for an empty cell or an unmeasured heap
// figure (-1), the module's one missing-value convention; else an int when integral, or a float.
py::object cell_value(std::string_view name, const std::string& cell) {
  if (count_text_column(name)) return py::str(cell);
  if (cell.empty() || (name.rfind("heap_", 0) == 0 && cell == "-1"))
    return py::float_(std::nan(""));
  const double v = std::stod(cell);
  if (v == std::floor(v) && std::fabs(v) < 9e15) return py::int_(static_cast<long long>(v));
  return py::float_(v);
}

py::dict count(const std::string& variant, std::int64_t n, std::int64_t d,
               std::optional<std::int64_t> m, std::int64_t heads, std::int64_t layers, bool exact,
               const std::string& scalar, const std::string& convention,
               std::optional<std::int64_t> feature_seed) {
  const bool single = scalar == "float";
  if (!single && scalar != "double")
    throw InputError("scalar must be float64 or float32, got '" + scalar + "'");
  const auto conv = convention_of(convention, "convention");
  RunRequest r = python_request(variant, n, d, m, heads, layers, feature_seed);
  r.default_m = 1;
  const Point p = point_of(check_run(r, Spelling::python()));
  check_memory(p, single ? 4.0 : 8.0);
  Cost c;
  {
    py::gil_scoped_release release;
    c = measure(p, exact ? Counting::kExact : Counting::kTally,
                single ? Precision::kFloat : Precision::kDouble);
  }
  CountOutput o = count_output(p, c, conv);
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
        py::arg("scalar") = "double", py::arg("convention") = "all",
        py::arg("feature_seed") = py::none(),
        "Executed operations per steady-state step and logical memory of one variant at one "
        "shape: the fields of `cosda count`'s JSON, the columns of a sweep's points.csv (heap "
        "fields NaN: see cosda.count).");
}

}  // namespace cosda::python
