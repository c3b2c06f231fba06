// Argument checks cosda.stream(), cosda.Stream and cosda.time_step share: the CLI's checker
// (sweeps/run_checks.hpp) with Python's names in the messages.
#pragma once

#include <pybind11/numpy.h>

#include <Eigen/Core>
#include <cmath>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/measure.hpp"
#include "attention/registry.hpp"
#include "io/errors.hpp"
#include "io/npy.hpp"
#include "sweeps/run_checks.hpp"

namespace cosda::python {

using RowMajor = Eigen::Matrix<double, -1, -1, Eigen::RowMajor>;

struct Setup : RunPlan {
  bool single = false;  // float arithmetic
};

// A Python call's variant, shape and options as a RunRequest (d: nullopt where the data's
// width gives it); the rest as each caller sets it.
inline RunRequest python_request(const std::string& variant, std::int64_t n,
                                 std::optional<std::int64_t> d, std::optional<std::int64_t> m,
                                 std::int64_t heads, std::int64_t layers,
                                 std::optional<std::int64_t> feature_seed, bool landmarks = false,
                                 bool exp_shift = false) {
  RunRequest r;
  r.variant = variant;
  r.n = n, r.d = d, r.m = m, r.heads = heads, r.layers = layers;
  r.feature_seed = feature_seed;
  r.landmarks = landmarks, r.exp_shift = exp_shift;
  return r;
}

// The request checked; scalar is "double" or "float" (InputError otherwise).
Setup check_args(const RunRequest& r, const std::string& scalar);

// A shape as Python prints it: "(3,)", "(3, 4)".
std::string shape_of(const pybind11::array& a);

// `a` (x or landmarks) as a C-order array of T, refused as the CLI refuses a .npy file's if a
// value is not finite (in a variant with running sums, corf_si, a NaN token would stay there for
// good), and with its dtype named if it does not hold real numbers: NumPy would drop a complex
// number's imaginary part, parse a string (in an object array too) or take a date's ticks.
template <class T>
pybind11::array_t<T, pybind11::array::c_style> finite_array(const pybind11::array& a,
                                                            const std::string& name) {
  const auto refuse = [&] {
    return InputError(name +
                      ": expected real numbers (float32 or float64), got an array of dtype " +
                      std::string(pybind11::str(a.dtype())));
  };
  if (std::string_view("biuf").find(a.dtype().kind()) == std::string_view::npos) throw refuse();
  const auto t =
      pybind11::array_t<T, pybind11::array::c_style | pybind11::array::forcecast>::ensure(a);
  if (!t) throw refuse();
  cosda::require_finite(std::span<const T>(t.data(), std::size_t(t.size())),
                        std::vector<std::size_t>(t.shape(), t.shape() + t.ndim()), name);
  return t;
}

// Refuses, as `cosda stream` does, a step's output y that is not finite (token: the step's index
// from 0; stabilised: exp_shift was given).
[[noreturn]] void refuse_output(const Setup& s, bool stabilised, std::int64_t token,
                                std::int64_t row, std::int64_t feature);
template <class T>
void check_output(const Setup& s, bool stabilised, std::int64_t token, const MatCRef<T>& y) {
  for (std::int64_t r = 0; r < y.rows(); ++r)
    for (std::int64_t j = 0; j < y.cols(); ++j)
      if (!std::isfinite(y(r, j))) refuse_output(s, stabilised, token, r, j);
}

// Refuses, as `cosda count` and `cosda stream` do (sweeps/point_memory.hpp), a point whose
// kernels (`scalar_bytes`: 4 or 8), with `extra_bytes` of arrays besides for a stream of `tokens`,
// would not fit in the memory available now.
void check_memory(const Point& p, double scalar_bytes, double extra_bytes = 0,
                  std::int64_t tokens = 0);

// The fixed landmarks given as an m x d array (InputError naming landmarks otherwise).
RowMajor given_landmarks(const pybind11::array& l, std::int64_t m, std::int64_t d);

// The model's Config for width d (all heads).
Config make_config(const Setup& s, std::int64_t d, bool exact_pinv,
                   std::optional<double> exp_shift);

}  // namespace cosda::python
