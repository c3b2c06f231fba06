// cosda.stream(): attention over NumPy tokens (q = k = v = each row) or given queries, keys and
// values, as `cosda stream` runs it, arguments checked as the CLI checks them. Runs Plain<T> on a
// C-contiguous array of the scalar's dtype in place (others are converted once), writes outputs
// straight into the returned array, and releases the GIL while the kernels run.
#include <fmt/format.h>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <cmath>
#include <optional>

#include "analysis/calibration.hpp"
#include "analysis/kmeans.hpp"
#include "io/errors.hpp"
#include "models/multi_head.hpp"
#include "python/bindings.hpp"
#include "python/interrupts.hpp"
#include "python/stream_args.hpp"
#include "sweeps/args.hpp"
#include "sweeps/count.hpp"
#include "sweeps/point_memory.hpp"

namespace py = pybind11;

namespace cosda::python {

std::string shape_of(const py::array& a) {
  return format_shape(std::vector<std::size_t>(a.shape(), a.shape() + a.ndim()));
}

void check_memory(const Point& p, double scalar_bytes, double extra_bytes, std::int64_t tokens) {
  if (const auto need = kernel_peak_bytes(p, scalar_bytes))
    check_point_memory(Spelling::python(), p, *need + extra_bytes, available_memory_bytes(),
                       tokens);
}

Setup check_args(const RunRequest& r, const std::string& scalar) {
  if (scalar != "double" && scalar != "float")
    throw InputError("scalar must be float64 or float32, got '" + scalar + "'");
  Setup s;
  static_cast<RunPlan&>(s) = check_run(r, Spelling::python());
  s.single = scalar == "float";
  return s;
}

RowMajor given_landmarks(const py::array& l, std::int64_t m, std::int64_t d) {
  if (l.ndim() != 2)  // the CLI's words for a --landmarks file (io/npy.hpp)
    throw InputError("landmarks: expected a 2-D array (m x d) of landmarks, got shape " +
                     shape_of(l));
  if (l.shape(0) != m || l.shape(1) != d)
    throw InputError(fmt::format(
        "landmarks: landmarks have shape ({}, {}), expected (m, d) = ({}, {}); match m and the "
        "width of x",
        l.shape(0), l.shape(1), m, d));
  const auto a = finite_array<double>(l, "landmarks");
  return Eigen::Map<const RowMajor>(a.data(), m, d);
}

Config make_config(const Setup& s, std::int64_t d, bool exact_pinv,
                   std::optional<double> exp_shift) {
  Config c{.n = s.n, .d = d, .m = s.m, .exact_pinv = exact_pinv};
  c.exp_shift = exp_shift;
  if (s.feature_seed) c.feature_seed = *s.feature_seed;
  return c;
}

void refuse_output(const Setup& s, bool stabilised, std::int64_t token, std::int64_t row,
                   std::int64_t feature) {
  throw InputError(fmt::format(
      "{}: output is not finite at token {} (row {}, feature {}): exp() overflowed, or a "
      "running sum of exponentials cancelled to zero (there is no max-subtraction, as in the "
      "papers); scale the input down{}",
      s.id, token, row, feature,
      stabilised            ? ", or try another exp_shift: with too large a C, every "
                              "exp(score - C) underflows to 0"
      : s.traits->continual ? " or pass exp_shift=C (stabilised mode)"
                            : ""));
}

namespace {

// Steps the model over x (rows x d, q = k = v; with `qkv` rows x 3 x d), writing every output from
// the first full window on to out; a non-finite output is an InputError naming the token. Ctrl-C
// stops it.
template <class T>
void run(const Setup& s, const Config& c, const T* x, std::int64_t rows, bool qkv, T* out) {
  MultiHead<Plain<T>> mh(s.id, c, s.heads, s.layers);
  const std::int64_t d = c.d, stride = qkv ? 3 * d : d;
  Interrupts interrupts;
  for (std::int64_t t = 0; t < rows; ++t, interrupts.poll()) {
    const T* q = x + t * stride;
    if (!(qkv ? mh.step(q, q + d, q + 2 * d) : mh.step(q, q, q))) continue;
    const MatCRef<T> y = mh.output();
    check_output(s, c.exp_shift.has_value(), t, y);
    for (std::int64_t r = 0; r < y.rows(); ++r, out += d) std::copy_n(y.row(r).data(), d, out);
  }
}

// The m-means (k-means++, seed 1) of column block `part` of x (rows x parts*d), as doubles.
template <class T>
Mat<double> means_of(const T* x, std::int64_t rows, std::int64_t parts, std::int64_t part,
                     std::int64_t d, std::int64_t m) {
  const Eigen::Map<const Eigen::Matrix<T, -1, -1, Eigen::RowMajor>> all(x, rows, parts * d);
  return m_means(all.middleCols(part * d, d).template cast<double>(), m);
}

template <class T>
py::array stream_as(const Setup& s, Config c, const py::array& x,
                    const std::optional<py::array>& landmarks, bool auto_shift) {
  const auto xt = finite_array<T>(x, "x");
  const bool qkv = xt.ndim() == 3;
  const std::int64_t rows = xt.shape(0), d = c.d;
  const std::int64_t steps = rows - s.n + 1;
  std::vector<py::ssize_t> shape{steps, d};
  if (!s.one_row) shape.insert(shape.begin() + 1, s.n);
  py::array_t<T> y(shape);
  T* out = y.mutable_data();
  const T* in = xt.data();
  // The m-means come from the tokens as given, as the CLI's from its file, not from x rounded to
  // float for float arithmetic.
  const bool means = s.traits->landmarks == LandmarkKind::kFixed && !landmarks;
  const auto given = means || auto_shift ? finite_array<double>(x, "x")
                                         : py::array_t<double, py::array::c_style>();
  {
    py::gil_scoped_release release;
    if (means) {
      c.fixed_q = means_of(given.data(), rows, qkv ? 3 : 1, 0, d, s.m);
      c.fixed_k = qkv ? means_of(given.data(), rows, 3, 1, d, s.m) : c.fixed_q;
    }
    if (auto_shift) {  // as `cosda stream --exp-shift auto`: C calibrated on the tokens given
      const Eigen::Map<const RowMajor> all(given.data(), rows, (qkv ? 3 : 1) * d);
      c.exp_shift = calibrated_exp_shift(
          s.id, c, s.heads,
          {all.leftCols(d), all.middleCols(qkv ? d : 0, d), all.middleCols(qkv ? 2 * d : 0, d)});
      if (!std::isfinite(*c.exp_shift))
        throw InputError(
            "exp_shift='auto': calibration on x found no finite shift (its attention scores "
            "overflow double); scale x down, or give a finite exp_shift C");
    }
    run<T>(s, c, in, rows, qkv, out);
  }
  return y;
}

// x: (T, d) tokens, or (T, 3, d) queries, keys and values.
void check_tokens(const py::array& x, const Setup& s) {
  if (x.ndim() != 2 && !(x.ndim() == 3 && x.shape(1) == 3))
    throw InputError(
        "x: expected a (T, d) array of tokens or a (T, 3, d) array of queries, "
        "keys and values, got shape " +
        shape_of(x));
  const std::int64_t rows = x.shape(0), d = x.shape(x.ndim() - 1);
  if (d == 0)
    throw InputError("x: tokens need at least one feature (d >= 1), got shape " + shape_of(x));
  if (rows < s.n)
    throw InputError(fmt::format(
        "x: {} tokens, fewer than the window n = {}; give at least n rows or a smaller n", rows,
        s.n));
  check_heads_divide(s.heads, d, " of x", Spelling::python());
}

py::array stream(const std::string& variant, const py::array& x, std::int64_t n,
                 std::optional<std::int64_t> m, std::optional<py::array> landmarks,
                 std::int64_t heads, std::int64_t layers, const std::string& scalar,
                 bool exact_pinv, std::optional<double> exp_shift, bool exp_shift_auto,
                 std::optional<std::int64_t> feature_seed) {
  RunRequest r = python_request(variant, n, std::nullopt, m, heads, layers, feature_seed,
                                landmarks.has_value(), exp_shift.has_value());
  r.exact_pinv = exact_pinv;
  const Setup s = check_args(r, scalar);
  check_tokens(x, s);
  const std::int64_t d = x.shape(x.ndim() - 1);
  Point p = point_of(s);
  p.d = d;
  // Besides the kernels: the outputs, x converted once, and its double copy for the m-means.
  const double bytes = s.single ? 4.0 : 8.0, rows = double(x.shape(0)), values = double(x.size());
  const double outputs = (rows - double(s.n) + 1) * double(s.one_row ? 1 : s.n) * double(d);
  // and, for exp_shift='auto', the tokens as q, k and v in double for the calibration.
  const bool means = s.traits->landmarks == LandmarkKind::kFixed && !landmarks;
  const double doubles =
      (means || exp_shift_auto ? values : 0.0) + (exp_shift_auto ? 3 * values : 0.0);
  check_memory(p, bytes, (outputs + values) * bytes + 8.0 * doubles, x.shape(0));
  Config c = make_config(s, d, exact_pinv, exp_shift);
  if (landmarks) c.fixed_q = c.fixed_k = given_landmarks(*landmarks, s.m, d);
  return s.single ? stream_as<float>(s, std::move(c), x, landmarks, exp_shift_auto)
                  : stream_as<double>(s, std::move(c), x, landmarks, exp_shift_auto);
}

}  // namespace

void bind_stream(py::module_& m) {
  m.def("stream", &stream, py::arg("variant"), py::arg("x"), py::arg("n"),
        py::arg("m") = py::none(), py::arg("landmarks") = py::none(), py::arg("heads") = 1,
        py::arg("layers") = 1, py::arg("scalar") = "double", py::arg("exact_pinv") = false,
        py::arg("exp_shift") = py::none(), py::arg("exp_shift_auto") = false,
        py::arg("feature_seed") = py::none(),
        "Attention over the rows of x ((T, d): q = k = v; (T, 3, d): q, k, v): the outputs from "
        "the first full window on, (T-n+1, d) or (T-n+1, n, d), as `cosda stream` writes them.");
  bind_stream_object(m);
}

}  // namespace cosda::python
