// Storage helpers shared by the variants: a shifting window for the variants that re-run over
// the window, and ring-slot arithmetic for the continual ones.
#pragma once

#include <algorithm>
#include <cstdint>

#include "attention/exec.hpp"
#include "attention/ops.hpp"

namespace cosda {

// Shifts the rows of w up by one and writes x (w.cols() values) as the last row. Copies only.
template <class E>
void push_row(Mat<typename E::Scalar>& w, const typename E::Scalar* x) {
  const std::int64_t n = w.rows(), d = w.cols();
  if (n > 1) ops::copy<E>(w.data() + d, w.data() + n * d, w.data());
  ops::copy<E>(x, x + d, w.data() + (n - 1) * d);
}

// Appends x to a window holding `filled` rows: while the window fills up (warm-up) x goes to the
// next free row and nothing moves; once it is full, as push_row.
template <class E>
void append_row(Mat<typename E::Scalar>& w, const typename E::Scalar* x, std::int64_t filled) {
  if (filled < w.rows())
    ops::copy<E>(x, x + w.cols(), w.data() + filled * w.cols());
  else
    push_row<E>(w, x);
}

// Writes x (w.cols() values) into ring slot t mod w.rows(), over the oldest row. Copies only.
template <class E>
void ring_row(Mat<typename E::Scalar>& w, const typename E::Scalar* x, std::int64_t t) {
  ops::copy<E>(x, x + w.cols(), w.data() + (t % w.rows()) * w.cols());
}

// Calls f(first, count) for the row ranges of [0, n) other than row j, in order.
template <class F>
void for_rows_except(std::int64_t n, std::int64_t j, F&& f) {
  if (j > 0) f(std::int64_t{0}, j);
  if (j + 1 < n) f(j + 1, n - j - 1);
}

// Calls f(first, count, out_row) so that ring rows oldest..newest land on output rows
// 0..n-1, where `oldest` is the ring slot of the oldest token.
template <class F>
void for_ring_in_window_order(std::int64_t n, std::int64_t oldest, F&& f) {
  f(oldest, n - oldest, std::int64_t{0});
  if (oldest > 0) f(std::int64_t{0}, oldest, n - oldest);
}

}  // namespace cosda
