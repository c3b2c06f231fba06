// Positional encodings for whole models (models/encoder.hpp).
//
//   none       tokens enter the blocks as they are.
//   recycling  Recycling Positional Encoding, CoTrans Eq. (11): token t gets p_{tau_t} with
//              tau_t = (tau_{t-1} + 1) mod T, so an encoding follows its token through the
//              window and is reused once the token has left. T = n reuses an encoding as soon
//              as its token slides out; T = 2n - 1 removes the ambiguity of T = n (a token m
//              steps older and one n - m steps newer get the same relative encoding), CoTrans
//              Sec. 3.7. Works for regular and continual blocks alike: the encoding depends on
//              the token, not on its slot in the window, so both see the same encoded tokens.
//   absolute   the encoding of the token's slot in the window (p_0 oldest ... p_{n-1} newest;
//              a table may hold more rows than n), as in regular Transformers. Every slot
//              changes meaning at every step, so only models that re-run over the window can
//              use it.
//
// Encodings are fixed (sinusoidal, Vaswani et al. 2017: p_{i,2j} = sin(i / 10000^{2j/d}),
// p_{i,2j+1} = cos(...)) or given: a seeded random table standing in for learned encodings
// (equal cost, and equalities between regular and continual blocks hold for any table).
// Adding an encoding is d additions per token, counted through ops::add.
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
