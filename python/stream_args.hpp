// The checks cosda.stream() and cosda.Stream share (python/stream.cpp): the arguments as
// `cosda stream` checks its flags, with the CLI's messages.
#pragma once

#include <pybind11/numpy.h>

#include <Eigen/Core>
#include <cstdint>
#include <optional>
#include <string>

#include "attention/registry.hpp"

namespace cosda::python {

using RowMajor = Eigen::Matrix<double, -1, -1, Eigen::RowMajor>;

struct Setup {
  std::string id;
  const VariantTraits* traits = nullptr;
  std::int64_t n = 0, m = 1, heads = 1;
  int layers = 1;
  bool single = false;   // float arithmetic
  bool one_row = false;  // each step's output is 1 x d (else n x d)
};

// The arguments checked in cmd_stream's order (sweeps/stream_cmd.cpp); InputError otherwise.
Setup check_args(const std::string& variant, std::int64_t n, std::optional<std::int64_t> m,
                 std::int64_t heads, std::int64_t layers, const std::string& scalar,
                 bool has_landmarks);

// A shape as Python prints it: "(3,)", "(3, 4)".
std::string shape_of(const pybind11::array& a);

// The fixed landmarks given as an m x d array (InputError naming landmarks otherwise).
RowMajor given_landmarks(const pybind11::array& l, std::int64_t m, std::int64_t d);

// The model's Config for width d.
Config make_config(const Setup& s, std::int64_t d, bool exact_pinv,
                   std::optional<double> exp_shift);

}  // namespace cosda::python
