// The seam's common ground (attention/ops/seam.hpp): the scalar of a policy, whether it counts at
// the scalar level, vector maps, the memory record of each op (in, out, inout) and the exponent
// shift.
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
// Scalar-level policies run the textbook loops: Exact, and a test policy that declares
// kScalarLevel (tests/op_footprint_test.cpp: a scalar that observes each element it touches).
template <class E>
inline constexpr bool kScalarLevel = std::is_same_v<typename E::Scalar, Counted> || requires {
  requires E::kScalarLevel;
};

template <class T>
using VecMap = Eigen::Map<Eigen::Matrix<T, Eigen::Dynamic, 1>>;
template <class T>
using VecCMap = Eigen::Map<const Eigen::Matrix<T, Eigen::Dynamic, 1>>;

// The memory record of an op (counting policies; Plain compiles it away). begin_op() starts
// the op's time; in(), out() and inout() report the elements it reads, writes, or reads and
// then overwrites, as n elements from p or a matrix (row by row when its rows are not
// contiguous). They feed the liveness trace (attention/counting/liveness.hpp: valley and peak) and,
// under Tally, the footprint of touched bytes (attention/counting/footprint.hpp: the roofline
// bytes). A policy with watch_begin(), watch_fold() and watch() sees the record itself, beside the
// liveness trace (tests/op_footprint_test.cpp compares it with the accesses it observes).
template <class E>
void begin_op() {
  if constexpr (requires { E::watch_begin(); }) E::watch_begin();
  if constexpr (E::kCounting)
    if (Liveness* l = thread_liveness()) l->begin_op();
}

// Makes the ops called in its scope part of the enclosing op, which has recorded all its
// operands before: a fused op running the ops it fuses keeps one time and one record.
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

// The look-ahead of the memory measurement (analysis/measure.hpp) steps on only to see which
// values are read again: there, ops under the counting policies record what they read and write
// and skip their arithmetic. Neither counts nor access patterns depend on values (counting_test),
// so the trace is the one full arithmetic would give; the stream's values are spoiled after it.
inline bool& accesses_only() {
  thread_local bool on = false;
  return on;
}
template <class E>
bool skip_arithmetic() {
  if constexpr (E::kCounting)
    return accesses_only();
  else
    return false;
}
// Tally's count of an op (scalar-level policies count the loops they run instead).
template <class E>
void tally(const OpCounts& c) {
  if constexpr (!kScalarLevel<E>) E::tally(c);
}
// An op's count under Tally, taken from its shape with or without its arithmetic, then
// whether the arithmetic is off: a step without arithmetic counts what the full step would.
template <class E>
bool tally_skip(const OpCounts& c) {
  tally<E>(c);
  return skip_arithmetic<E>();
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
