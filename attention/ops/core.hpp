// The seam's common ground (ops/seam.hpp): the policy's scalar, whether it counts at the scalar
// level, vector maps, each op's memory record (in, out, inout) and the exponent shift.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <optional>
#include <type_traits>

#include "attention/counting/footprint.hpp"
#include "attention/counting/liveness.hpp"
#include "attention/exec.hpp"

namespace cosda::ops {

template <class E>
using S = typename E::Scalar;
// Scalar-level policies run the textbook loops: Exact, and test policies declaring kScalarLevel.
template <class E>
inline constexpr bool kScalarLevel = std::is_same_v<typename E::Scalar, Counted> || requires {
  requires E::kScalarLevel;
};

template <class T>
using VecMap = Eigen::Map<Eigen::Matrix<T, Eigen::Dynamic, 1>>;
template <class T>
using VecCMap = Eigen::Map<const Eigen::Matrix<T, Eigen::Dynamic, 1>>;

// An op's memory record (counting policies only): begin_op() starts its time; in(), out(), inout()
// report elements read, written, or read then overwritten, for the liveness trace and, under Tally,
// the roofline's bytes. Policies with watch_begin/watch_fold/watch see it too (op_footprint_test).
template <class E>
void begin_op() {
  if constexpr (requires { E::watch_begin(); }) E::watch_begin();
  if constexpr (E::kCounting)
    if (Liveness* l = thread_liveness()) l->begin_op();
}

// Folds the ops in its scope into the enclosing op, which recorded all its operands: one record.
template <class E>
class OneOp {
 public:
  OneOp() {
    if constexpr (requires { E::watch_fold(1); }) E::watch_fold(+1);
    if constexpr (E::kCounting)
      if (Liveness* l = thread_liveness()) l->fold(+1);
  }
  ~OneOp() {
    if constexpr (requires { E::watch_fold(1); }) E::watch_fold(-1);
    if constexpr (E::kCounting)
      if (Liveness* l = thread_liveness()) l->fold(-1);
  }
  OneOp(const OneOp&) = delete;
  OneOp& operator=(const OneOp&) = delete;
};

// What a counting step skips of the seam's arithmetic (analysis/measure.hpp): nothing; all of it
// (the look-ahead and the warm-up: ops record accesses, the stream's values are spoiled; accesses
// do not depend on values, counting_test); or only the arithmetic of ops whose kernels take no
// heap (a measured step: its heap figures stay those of the full step).
enum class Skip { kNone, kAll, kHeapFree };
inline Skip& skipping() {
  thread_local Skip s = Skip::kNone;
  return s;
}
template <class E>
bool skip_arithmetic(bool heap_free = false) {
  if constexpr (E::kCounting)
    return skipping() == Skip::kAll || (heap_free && skipping() == Skip::kHeapFree);
  else
    return false;
}
// Tally's count of an op (scalar-level policies count the loops they run instead).
template <class E>
void tally(const OpCounts& c) {
  if constexpr (!kScalarLevel<E>) E::tally(c);
}
// tally(c), then whether the arithmetic is off: a step without it counts what the full step would.
// heap_free: the op's kernels take no heap (a test holds each such claim).
template <class E>
bool tally_skip(const OpCounts& c, bool heap_free = false) {
  tally<E>(c);
  return skip_arithmetic<E>(heap_free);
}

enum class Access { kRead, kWrite, kReadWrite };

template <class E, class T>
void record(const T* p, std::int64_t n, Access a) {
  if constexpr (requires { E::watch(p, n, a); }) E::watch(p, n * std::int64_t(sizeof(T)), a);
  if constexpr (E::kCounting) {
    const std::int64_t bytes = n * std::int64_t(sizeof(T));
    if constexpr (!kScalarLevel<E>) thread_footprint().record(p, bytes);
    if (Liveness* l = thread_liveness()) {
      if (a != Access::kWrite) l->read(p, bytes);
      if (a != Access::kRead) l->write(p, bytes);
    }
  }
}
// A matrix expression's elements by address: one range when they are contiguous, else a
// range per contiguous row, else element by element (a column of a row-major matrix).
template <class E, class M>
void record(const M& m, Access a) {
  if constexpr (E::kCounting) {
    const std::int64_t r = m.rows(), c = m.cols();
    if (r == 0 || c == 0) return;
    const auto at = [&](std::int64_t i, std::int64_t j) {  // the address of element (i, j)
      return M::IsRowMajor ? m.data() + i * m.outerStride() + j * m.innerStride()
                           : m.data() + j * m.outerStride() + i * m.innerStride();
    };
    if (at(r - 1, c - 1) - at(0, 0) == r * c - 1) return record<E>(at(0, 0), r * c, a);
    for (std::int64_t i = 0; i < r; ++i) {
      if (at(i, c - 1) - at(i, 0) == c - 1) {
        record<E>(at(i, 0), c, a);
      } else {
        for (std::int64_t j = 0; j < c; ++j) record<E>(at(i, j), 1, a);
      }
    }
  }
}

template <class E, class T>
void in(const T* p, std::int64_t n) {
  record<E>(p, n, Access::kRead);
}
template <class E, class T>
void out(T* p, std::int64_t n) {
  record<E>(p, n, Access::kWrite);
}
template <class E, class T>
void inout(T* p, std::int64_t n) {
  record<E>(p, n, Access::kReadWrite);
}
template <class E, class M>
void in(const M& m) {
  record<E>(m, Access::kRead);
}
template <class E, class M>
void out(const M& m) {
  record<E>(m, Access::kWrite);
}
template <class E, class M>
void inout(const M& m) {
  record<E>(m, Access::kReadWrite);
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
