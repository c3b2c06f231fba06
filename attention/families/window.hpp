// Storage helpers: a shifting window, rings of the last n tokens, ring-slot arithmetic. Variants
// keep tokens in rings; re-running ones put the queries in window order as they scale them.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>

#include "attention/exec.hpp"
#include "attention/ops/seam.hpp"

namespace cosda {

// Shifts the rows of w up by one and writes x (w.cols() values) as the last row. Copies only.
template <class E>
void push_row(Mat<typename E::Scalar>& w, const typename E::Scalar* x) {
  const std::int64_t n = w.rows(), d = w.cols();
  if (n > 1) ops::copy<E>(w.data() + d, w.data() + n * d, w.data());
  ops::copy<E>(x, x + d, w.data() + (n - 1) * d);
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

// Calls f(first, count, out_row) so ring rows from slot `oldest` on land on output rows 0..n-1.
template <class F>
void for_ring_in_window_order(std::int64_t n, std::int64_t oldest, F&& f) {
  f(oldest, n - oldest, std::int64_t{0});
  if (oldest > 0) f(std::int64_t{0}, oldest, n - oldest);
}

// dst = s * ring in window order (`oldest`: the oldest token's slot), one scaling copy, mul n*d
// (without s, a copy); rows split among the threads in the timed build.
template <class E>
void scale_in_window_order(MatCRef<typename E::Scalar> ring, std::int64_t oldest,
                           std::optional<typename E::Scalar> s, MatRef<typename E::Scalar> dst) {
  const std::int64_t n = ring.rows();
  const auto scale = [&](std::int64_t first, std::int64_t count, std::int64_t row) {
    if (s) ops::scale_into<E>(ring.middleRows(first, count), *s, dst.middleRows(row, count));
    if (!s) ops::copy<E>(ring.middleRows(first, count), dst.middleRows(row, count));
  };
  ops::split_pass<E>(n, ring.size(), [&](std::int64_t lo, std::int64_t count) {
    const std::int64_t first = (oldest + lo) % n, run = std::min(count, n - first);
    scale(first, run, lo);  // window rows [lo, lo + count): ring rows from `first`, wrapping
    if (count > run) scale(0, count - run, lo + run);
  });
}

}  // namespace cosda
