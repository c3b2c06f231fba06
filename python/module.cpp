// The compiled part of the Python module `cosda` (cosda._cosda; python/cosda/__init__.py is the
// front end): the registry's facts and the points.csv reader. InputError and std::invalid_argument
// become ValueError with the same message; other exceptions keep pybind11's mapping.
#include <pybind11/stl.h>

#include <fstream>
#include <sstream>

#include "attention/registry.hpp"
#include "io/csv.hpp"
#include "io/errors.hpp"
#include "python/bindings.hpp"
#include "sweeps/points.hpp"
#include "sweeps/run_checks.hpp"

namespace py = pybind11;

namespace cosda::python {
namespace {

py::list variants() {
  py::list out;
  for (const auto& v : kVariants) {
    py::dict d;
    d["id"] = std::string(v.id);
    d["paper_name"] = std::string(v.paper_name);
    d["family"] = std::string(family_name(v.family));
    d["single_output"] = v.single_output;
    d["continual"] = v.continual;
    d["landmarks"] = std::string(landmarks_name(v.landmarks));
    out.append(d);
  }
  return out;
}

// Whether a points.csv column holds text: its reader takes a cell no number reads.
bool text_column(const PointsColumn& col) {
  SweepRow probe;
  try {
    col.read(probe, "text");
  } catch (const std::invalid_argument&) {
    return false;
  }
  return true;
}

// points.csv as {column: list}, columns in file order: str in a text column, float in a
// numeric one (None for an empty cell).
py::dict read_points(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot open the points file; give a sweep's points.csv");
  std::stringstream text;
  text << in.rdbuf();
  std::vector<SweepRow> rows;
  {
    py::gil_scoped_release release;
    rows = read_points_csv(text.str(), path);
  }
  py::dict out;
  for (const PointsColumn& col : points_columns()) {
    const bool text = text_column(col);
    py::list cells;
    for (const SweepRow& r : rows) {
      if (text) {
        const std::vector<std::string> cell = split_csv(col.write(r));
        cells.append(cell.empty() ? std::string() : cell[0]);
      } else if (const auto v = col.number(r)) {
        cells.append(*v);
      } else {
        cells.append(py::none());
      }
    }
    out[py::str(std::string(col.name))] = cells;
  }
  return out;
}

}  // namespace

PYBIND11_MODULE(_cosda, m) {
  m.doc() = "cosda: executed operation counts and memory of streaming-attention variants";
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const InputError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const std::invalid_argument& e) {
      PyErr_SetString(PyExc_ValueError, one_line(e.what()).c_str());
    }
  });
  m.def("variants", &variants,
        "The registry's facts per variant, in registry order: a list of dicts with id, "
        "paper_name, family, single_output, continual, landmarks.");
  m.def("read_points", &read_points, py::arg("path"),
        "A sweep's points.csv as a dict of columns (lists, file order; None for an empty cell, "
        "which cosda.read_points turns into NaN).");
  py::list text_columns;  // points.csv's text columns (variant, skip_reason), for a file of no row
  for (const PointsColumn& col : points_columns())
    if (text_column(col)) text_columns.append(std::string(col.name));
  m.attr("POINTS_TEXT_COLUMNS") = text_columns;
  py::dict ranges;  // the checker's integer ranges, by Python name, for values beyond 64 bits
  for (const char* key : {"n", "d", "m", "heads", "layers", "feature-seed"})
    ranges[py::str(Spelling::python().name(key))] =
        py::make_tuple(range_of(key).lo, range_of(key).hi);
  m.attr("INTEGER_RANGES") = ranges;
  m.attr("__version__") = COSDA_VERSION;
  bind_count(m);
  bind_stream(m);
  bind_timing(m);
}

}  // namespace cosda::python
