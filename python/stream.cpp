// cosda.stream() and cosda.Stream: self-attention over tokens (q = k = v = each row), as
// `cosda stream` runs it (sweeps/stream_cmd.cpp), on NumPy arrays. The arguments go through the
// CLI's flag parser and checks, so a bad one is a ValueError with the CLI's message; the
// tokens and landmarks are named x and landmarks where the CLI names its files.
//
// stream() runs Plain<T> and reads a C-contiguous array of the scalar's dtype in place (any
// other array is converted once); outputs are written straight into the returned array.
// Stream runs Tally<T>: the same arithmetic, with every executed operation counted (counts()).
// Both release the GIL while the kernels run.
#include <fmt/format.h>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <cmath>
#include <optional>

#include "attention/kmeans.hpp"
#include "attention/multi_head.hpp"
#include "io/errors.hpp"
#include "python/bindings.hpp"
#include "python/stream_args.hpp"
#include "sweeps/args.hpp"

namespace py = pybind11;

namespace cosda::python {
namespace {

std::string ids_with(LandmarkKind kind) {
  std::string s;
  for (const auto& v : kVariants)
    if (v.landmarks == kind) s += (s.empty() ? "" : ", ") + std::string(v.id);
  return s;
}

void require_2d(const py::array& a, const std::string& name, const std::string& what) {
  if (a.ndim() != 2)
    throw InputError(name + ": expected a 2-D array " + what + ", got shape " + shape_of(a));
}

}  // namespace

std::string shape_of(const py::array& a) {
  std::string s;
  for (py::ssize_t i = 0; i < a.ndim(); ++i) s += (i ? ", " : "") + std::to_string(a.shape(i));
  return "(" + s + (a.ndim() == 1 ? ",)" : ")");
}

Setup check_args(const std::string& variant, std::int64_t n, std::optional<std::int64_t> m,
                 std::int64_t heads, std::int64_t layers, const std::string& scalar,
                 bool has_landmarks) {
  std::vector<std::string> argv{"--variant", variant,
                                "--n",       std::to_string(n),
                                "--heads",   std::to_string(heads),
                                "--layers",  std::to_string(layers),
                                "--scalar",  scalar};
  if (m) argv.insert(argv.end(), {"--m", std::to_string(*m)});
  const Args a("stream",
               {{"variant", "V", ""},
                {"n", "N", ""},
                {"m", "M", ""},
                {"heads", "H", ""},
                {"layers", "1|2", ""},
                {"scalar", "double|float", ""}},
               argv);
  Setup s;  // from here on as in cmd_stream
  s.id = a.require("variant");
  s.traits = find_variant(s.id);
  if (s.traits == nullptr)
    throw InputError("cosda stream: flag --variant: unknown id '" + s.id +
                     "'; known: " + variant_list());
  s.n = a.integer("n", 1, 1 << 20);
  s.heads = a.integer("heads", 1, 1 << 16, 1);
  s.layers = int(a.integer("layers", 1, 2, 1));
  s.single = a.choice("scalar", {"double", "float"}, "double") == "float";
  const bool landmarks = s.traits->landmarks != LandmarkKind::kNone;
  s.m = a.integer("m", 1, 1 << 20, landmarks ? std::nullopt : std::optional(1));
  if (landmarks && s.m > s.n)
    throw InputError("cosda stream: flag --m must be at most --n for " + s.id +
                     " (m = " + std::to_string(s.m) + ", n = " + std::to_string(s.n) + ")");
  if (has_landmarks && s.traits->landmarks != LandmarkKind::kFixed)
    throw InputError("cosda stream: flag --landmarks applies to fixed-landmark variants (" +
                     ids_with(LandmarkKind::kFixed) + "), not " + s.id);
  if (!landmarks) s.m = 1;
  s.one_row = s.layers == 2 ? s.traits->continual : s.traits->single_output;
  return s;
}

RowMajor given_landmarks(const py::array& l, std::int64_t m, std::int64_t d) {
  require_2d(l, "landmarks", "an m x d array of landmarks");
  if (l.shape(0) != m || l.shape(1) != d)
    throw InputError(fmt::format(
        "landmarks: landmarks have shape ({}, {}), expected (m, d) = ({}, {}); match --m and the "
        "width of x",
        l.shape(0), l.shape(1), m, d));
  const auto a = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(l);
  if (!a) throw py::error_already_set();
  return Eigen::Map<const RowMajor>(a.data(), m, d);
}

Config make_config(const Setup& s, std::int64_t d, bool exact_pinv,
                   std::optional<double> exp_shift) {
  Config c{.n = s.n, .d = d, .m = s.m, .exact_pinv = exact_pinv};
  c.exp_shift = exp_shift;
  return c;
}

namespace {

// Steps the model over the rows of x (rows x d) and writes every output, from the first full
// window on, to out. An output that is not finite is an InputError naming the token.
template <class T>
void run(const Setup& s, const Config& c, const T* x, std::int64_t rows, T* out) {
  MultiHead<Plain<T>> mh(s.id, c, s.heads, s.layers);
  const std::int64_t d = c.d;
  for (std::int64_t t = 0; t < rows; ++t) {
    const T* row = x + t * d;
    if (!mh.step(row, row, row)) continue;
    const MatCRef<T> y = mh.output();
    for (std::int64_t r = 0; r < y.rows(); ++r)
      for (std::int64_t j = 0; j < d; ++j) {
        const T v = y(r, j);
        if (!std::isfinite(v))
          throw InputError(fmt::format(
              "{}: output is not finite at token {} (row {}, feature {}): exp() overflowed, or a "
              "running sum of exponentials cancelled to zero (there is no max-subtraction, as "
              "in the papers); scale the input down{}",
              s.id, t, r, j,
              c.exp_shift || !s.traits->continual ? "" : " or pass exp_shift=C (stabilised mode)"));
        *out++ = v;
      }
  }
}

template <class T>
py::array stream_as(const Setup& s, Config c, const py::array& x,
                    const std::optional<py::array>& landmarks) {
  const auto xt = py::array_t<T, py::array::c_style | py::array::forcecast>::ensure(x);
  if (!xt) throw py::error_already_set();
  const std::int64_t rows = xt.shape(0), d = c.d;
  const std::int64_t steps = rows - s.n + 1;
  std::vector<py::ssize_t> shape{steps, d};
  if (!s.one_row) shape.insert(shape.begin() + 1, s.n);
  py::array_t<T> y(shape);
  T* out = y.mutable_data();
  const T* in = xt.data();
  {
    py::gil_scoped_release release;
    if (s.traits->landmarks == LandmarkKind::kFixed && !landmarks)
      c.fixed_q = c.fixed_k =
          m_means(Eigen::Map<const Eigen::Matrix<T, -1, -1, Eigen::RowMajor>>(in, rows, d)
                      .template cast<double>(),
                  s.m);
    run<T>(s, c, in, rows, out);
  }
  return y;
}

py::array stream(const std::string& variant, const py::array& x, std::int64_t n,
                 std::optional<std::int64_t> m, std::optional<py::array> landmarks,
                 std::int64_t heads, std::int64_t layers, const std::string& scalar,
                 bool exact_pinv, std::optional<double> exp_shift) {
  const Setup s = check_args(variant, n, m, heads, layers, scalar, landmarks.has_value());
  require_2d(x, "x", "a T x d array of tokens");
  const std::int64_t rows = x.shape(0), d = x.shape(1);
  if (rows < s.n)
    throw InputError(fmt::format(
        "x: {} tokens, fewer than the window n = {}; give at least n rows or a smaller --n", rows,
        s.n));
  if (d % s.heads != 0)
    throw InputError(
        fmt::format("cosda stream: flag --heads ({}) must divide d = {} of x", s.heads, d));
  Config c = make_config(s, d, exact_pinv, exp_shift);
  if (landmarks) c.fixed_q = c.fixed_k = given_landmarks(*landmarks, s.m, d);
  return s.single ? stream_as<float>(s, std::move(c), x, landmarks)
                  : stream_as<double>(s, std::move(c), x, landmarks);
}

}  // namespace

void bind_stream(py::module_& m) {
  m.def("stream", &stream, py::arg("variant"), py::arg("x"), py::arg("n"),
        py::arg("m") = py::none(), py::arg("landmarks") = py::none(), py::arg("heads") = 1,
        py::arg("layers") = 1, py::arg("scalar") = "double", py::arg("exact_pinv") = false,
        py::arg("exp_shift") = py::none(),
        "Self-attention over the rows of x (T x d): the outputs from the first full window on, "
        "(T-n+1, d) or (T-n+1, n, d), as `cosda stream` writes them.");
  bind_stream_object(m);
}

}  // namespace cosda::python
