// The seam's common ground (attention/ops.hpp): the scalar of a policy, whether it counts at
// the scalar level, vector maps, the memory record of each op (touch) and the exponent shift.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <optional>
#include <type_traits>

#include "attention/exec.hpp"
#include "attention/footprint.hpp"

namespace cosda::ops {

template <class E>
using S = typename E::Scalar;
template <class E>
inline constexpr bool kScalarLevel = std::is_same_v<typename E::Scalar, Counted>;

template <class T>
using VecMap = Eigen::Map<Eigen::Matrix<T, Eigen::Dynamic, 1>>;
template <class T>
using VecCMap = Eigen::Map<const Eigen::Matrix<T, Eigen::Dynamic, 1>>;

// Records that an op touches n elements from p, or a matrix (row by row when its rows are not
// contiguous). Tally only: Plain compiles it away.
template <class E, class T>
void touch(const T* p, std::int64_t n) {
  if constexpr (E::kCounting && !kScalarLevel<E>)
    thread_footprint().record(p, n * std::int64_t(sizeof(T)));
}
template <class E, class M>
void touch(const M& m) {
  if constexpr (E::kCounting && !kScalarLevel<E>) {
    if (m.outerStride() == m.cols() || m.rows() == 1)
      touch<E>(m.data(), m.rows() * m.cols());
    else
      for (std::int64_t i = 0; i < m.rows(); ++i)
        touch<E>(m.data() + i * m.outerStride(), m.cols());
  }
}

// The stabilised mode's exponent shift (Config::exp_shift): off, or a fixed constant c.
template <class T>
struct Shift {
  bool on = false;
  T c{};
};
template <class T>
Shift<T> shift_of(const std::optional<double>& c) {
  return {c.has_value(), T(c.value_or(0.0))};
}

}  // namespace cosda::ops
