// Execution policies E, over which every variant is a template (the kernel source never changes):
//   Plain<T>  float/double, the timed build: no counting code survives compilation.
//   Tally<T>  plain arithmetic; each seam call (ops.hpp) adds its exact count to thread_counts().
//   Exact     Scalar is Counted: every executed operation counts itself; seam calls run the
//             textbook loops. Tests prove Tally == Exact.
// Under Tally and Exact the seam also reports each op's reads and writes (counting/liveness.hpp).
#pragma once

#include <Eigen/Core>

#include "attention/counting/counted.hpp"
#include "attention/counting/op_counts.hpp"

namespace cosda {

template <class T>
struct Plain {
  using Scalar = T;
  static constexpr bool kCounting = false;
  static void tally(const OpCounts&) {}
};

template <class T>
struct Tally {
  using Scalar = T;
  static constexpr bool kCounting = true;
  static void tally(const OpCounts& c) { thread_counts() += c; }
};

struct Exact {
  using Scalar = Counted;
  static constexpr bool kCounting = true;
  static void tally(const OpCounts&) {}  // Counted counts itself
};

template <class S>
using Mat = Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <class S>
using MatRef = Eigen::Ref<Mat<S>>;
template <class S>
using MatCRef = Eigen::Ref<const Mat<S>>;

}  // namespace cosda
