// Operation counts in five buckets, the convention of every count in cosda, and the thread tally:
//   mul   multiplications, including scaling by a constant
//   add   additions, subtractions and negations
//   div   divisions, including reciprocals
//   exp   exponentials
//   other comparisons (max), absolute values, square roots
// flops() is the sum of all five: one executed scalar operation is one FLOP.
#pragma once

#include <cstdint>

namespace cosda {

struct OpCounts {
  std::int64_t mul = 0;
  std::int64_t add = 0;
  std::int64_t div = 0;
  std::int64_t exp = 0;
  std::int64_t other = 0;

  constexpr std::int64_t flops() const { return mul + add + div + exp + other; }
  constexpr OpCounts& operator+=(const OpCounts& o) {
    mul += o.mul;
    add += o.add;
    div += o.div;
    exp += o.exp;
    other += o.other;
    return *this;
  }
  constexpr OpCounts& operator-=(const OpCounts& o) {
    mul -= o.mul;
    add -= o.add;
    div -= o.div;
    exp -= o.exp;
    other -= o.other;
    return *this;
  }
  friend constexpr OpCounts operator+(OpCounts a, const OpCounts& b) { return a += b; }
  friend constexpr OpCounts operator-(OpCounts a, const OpCounts& b) { return a -= b; }
  friend constexpr bool operator==(const OpCounts&, const OpCounts&) = default;
};

// Counts executed on this thread (Counted, Tally); measurements read differences around a step.
inline OpCounts& thread_counts() {
  thread_local OpCounts counts;
  return counts;
}

}  // namespace cosda
