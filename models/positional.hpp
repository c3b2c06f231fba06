// Positional encodings for whole models (models/encoder.hpp):
//   none       tokens enter the blocks as they are.
//   recycling  CoTrans Eq. (11): token t gets p_{tau_t}, tau_t = (tau_{t-1} + 1) mod T, so an
//              encoding follows its token and is reused once it has left. T = 2n - 1 removes
//              T = n's ambiguity (a token m steps older and one n - m newer share a relative
//              encoding), CoTrans Sec. 3.7. It depends on the token, not its slot, so regular
//              and continual blocks see the same encoded tokens.
//   absolute   the encoding of the token's window slot (p_0 oldest ... p_{n-1} newest). Every slot
//              changes meaning each step, so only models that re-run over the window can use it.
// Encodings are sinusoidal (Vaswani et al. 2017) or given: a seeded random table standing in for
// learned ones (same cost; regular/continual equalities hold for any table). d adds per token.
#pragma once

#include <cmath>
#include <cstdint>
#include <random>

#include "attention/exec.hpp"

namespace cosda {

enum class PositionalKind { kNone, kRecycling, kAbsolute };

struct PositionalSpec {
  PositionalKind kind = PositionalKind::kNone;
  std::int64_t count = 0;  // T, the number of encodings (recycling: n or 2n - 1; absolute: >= n)
  bool given = false;      // seeded random table (learned stand-in) instead of sinusoids
  std::int64_t tau0 = 0;   // tau of the stream's first token (recycling)
};

// T x d sinusoidal table.
inline Mat<double> sinusoidal_encodings(std::int64_t count, std::int64_t d) {
  Mat<double> p(count, d);
  for (std::int64_t i = 0; i < count; ++i)
    for (std::int64_t j = 0; j < d; ++j) {
      const std::int64_t pair = j / 2;  // sin and cos of one frequency share it
      const double rate = std::pow(10000.0, -double(2 * pair) / double(d));
      p(i, j) = j % 2 == 0 ? std::sin(double(i) * rate) : std::cos(double(i) * rate);
    }
  return p;
}

// T x d table with N(0, 0.5^2) entries from `seed`.
inline Mat<double> given_encodings(std::int64_t count, std::int64_t d, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0.0, 0.5);
  Mat<double> p(count, d);
  for (std::int64_t i = 0; i < p.size(); ++i) p.data()[i] = normal(rng);
  return p;
}

// The row of the table token t (0-based stream index) uses, for a token in window slot
// `slot` (absolute encodings only); -1 for none.
inline std::int64_t encoding_row(const PositionalSpec& p, std::int64_t t, std::int64_t slot) {
  switch (p.kind) {
    case PositionalKind::kNone:
      return -1;
    case PositionalKind::kRecycling:
      return (p.tau0 + t) % p.count;  // Eq. (11)
    case PositionalKind::kAbsolute:
      return slot;
  }
  return -1;
}

}  // namespace cosda
