// Executed cost of one variant at one shape: operations per steady-state step (under Tally or
// Exact), logical valley and peak memory (attention/counting/liveness.hpp), physical heap bytes.
// Protocol: n tokens of warm-up (not counted); one landmark cycle of n steps for
// continual-landmark variants, else one step (their steps are identical; tests check it); then,
// untraced, the steps that show which values held at the end are read again. Step kinds:
// update_step (the cycle's costliest landmark update), plain_step (no landmark update; all cost
// the same), amortized (cycle total / steps). Tokens are seeded Gaussians; counts ignore them.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>

#include "attention/counting/op_counts.hpp"

namespace cosda {

struct Point {
  std::string variant;
  std::int64_t n = 0, d = 0, m = 1, heads = 1, layers = 1;
  // The stabilised mode (Config::exp_shift, continual variants); counts do not depend on C.
  bool stabilised = false;
  bool operator==(const Point&) const = default;
};

inline std::ostream& operator<<(std::ostream& os, const Point& p) {
  return os << p.variant << " n=" << p.n << " d=" << p.d << " m=" << p.m << " heads=" << p.heads
            << " layers=" << p.layers << (p.stabilised ? " stabilised" : "");
}

struct Cost {
  Point point;
  OpCounts update_step, plain_step, cycle_total;
  std::int64_t cycle_steps = 0, update_steps = 0, plain_steps = 0;
  // Logical memory in elements, summed over heads: the values live across a step boundary
  // (valley) and the most live at once during a step (peak), from the kernels' reads and writes.
  std::int64_t valley = 0, peak = 0;
  // The peak over plain steps and over landmark-update steps (0 where the cycle has none).
  std::int64_t plain_peak = 0, update_peak = 0;
  // Bytes a step touches (attention/counting/footprint.hpp; with Touched::kRecord under Tally, else
  // 0): a plain step, the update step of update_step, and the whole cycle's steps summed.
  std::int64_t plain_bytes = 0, update_bytes = 0, cycle_bytes = 0;
  std::int64_t heap_retained_bytes = -1, heap_peak_bytes = -1, steady_allocations = -1;

  double amortized(std::int64_t OpCounts::*bucket) const {
    return double(cycle_total.*bucket) / double(cycle_steps);
  }
  double amortized_flops() const { return double(cycle_total.flops()) / double(cycle_steps); }
  double amortized_bytes() const { return double(cycle_bytes) / double(cycle_steps); }
};

enum class Counting { kTally, kExact };
enum class Precision { kDouble, kFloat };
// Whether to record the bytes each step touches (cosda-bench's roofline bytes); off by default, as
// recording every operand range slows sweeps, which do not report it.
enum class Touched { kSkip, kRecord };

// Why a point cannot run ("" when it can), e.g. m out of range, heads not dividing d, unknown id.
std::string skip_reason(const Point& p);

// Under Tally, whether steps whose values no figure needs skip their arithmetic (ops::skipping):
// the warm-up and the cycle's plain steps after its first and after each update. Accesses and
// counts do not depend on values, so the figures equal kOff's (every step in full, as Exact always
// does; tests/shortcut_test.cpp); the other steps skip only what takes no heap (ops::Skip). The
// replays between the first two plain steps after an update and the last two before the next only
// move values along: the measured ends bound their boundaries and peaks.
enum class Shortcut { kOn, kOff };

// Throws std::invalid_argument for a point with a skip reason.
Cost measure(const Point& p, Counting counting = Counting::kTally,
             Precision precision = Precision::kDouble, Touched touched = Touched::kSkip,
             Shortcut shortcut = Shortcut::kOn);

}  // namespace cosda
