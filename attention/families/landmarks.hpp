// Segment-means landmarks (Nyströmformer; Nyström Sec. IV-A, IV-C): n tokens cut into m contiguous
// segments, the first n mod m (oldest first) one token longer; a landmark is its segment's mean.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "attention/ops/seam.hpp"

namespace cosda {

inline std::vector<std::int64_t> segment_sizes(std::int64_t n, std::int64_t m) {
  std::vector<std::int64_t> s(static_cast<std::size_t>(m), n / m);
  for (std::int64_t i = 0; i < n % m; ++i) ++s[static_cast<std::size_t>(i)];
  return s;
}

// out = mean of rows first..first+count-1 of x modulo x.rows() (a ring). add (count-1)*d, div d.
template <class E>
void segment_mean(MatCRef<typename E::Scalar> x, std::int64_t first, std::int64_t count,
                  typename E::Scalar* out) {
  using S = typename E::Scalar;
  const std::int64_t rows = x.rows(), d = x.cols(), start = (first % rows + rows) % rows;
  const std::int64_t before_wrap = std::min(count, rows - start);
  ops::begin_op<E>(), ops::in<E>(x.middleRows(start, before_wrap)), ops::out<E>(out, d);
  if (count > before_wrap) ops::in<E>(x.topRows(count - before_wrap));
  const ops::OneOp<E> one;  // one op: the copy, the additions and the division below
  // Without arithmetic (it takes no heap: HeapFreeOps) the folded ops below record nothing new.
  if (ops::skip_arithmetic<E>(true)) return ops::tally<E>({.add = (count - 1) * d, .div = d});
  std::int64_t at = start;  // the ring's rows in order, wrapping without a division per row
  const auto next = [&] {
    const S* p = x.row(at).data();
    at = at + 1 == rows ? 0 : at + 1;
    return p;
  };
  const S* first_row = next();
  ops::copy<E>(first_row, first_row + d, out);
  for (std::int64_t i = 1; i < count; ++i) ops::add<E>(next(), out, d);
  ops::divide<E>(out, d, S(static_cast<double>(count)));
}

}  // namespace cosda
