// Execution policies: how a kernel's arithmetic is run, and whether it is counted.
//
// Every variant is a template over one policy E; the kernel source never changes:
//   Plain<T>  float/double, the timed build. tally() is empty and kCounting is false, so no
//             counter, no memory record, no branch and no bookkeeping survives compilation.
//   Tally<T>  the fast counting path: plain arithmetic, and each seam call in ops.hpp adds
//             its exact closed-form count (stated next to the op) to thread_counts().
//   Exact     scalar-level counting: Scalar is Counted, every executed operation counts
//             itself; seam calls run the textbook loops. Tests prove Tally == Exact.
// Under Tally and Exact the seam also reports what each op reads and writes, from which
// attention/counting/liveness.hpp measures the logical memory (valley and peak).
#pragma once

#include <Eigen/Core>
#include <algorithm>
#include <cstdint>

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
