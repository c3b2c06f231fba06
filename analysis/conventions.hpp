// Counting conventions: one executed count (five typed buckets, attention/counting/op_counts.hpp)
// read the ways people report FLOPs. Every number cosda reports names its convention by `id`.
//
//   all      all operations: mul + add + div + exp + other. cosda's own "flops": one executed
//            scalar operation is one FLOP.
//   mul      multiplications only, what ptflops-style counters report: the mul bucket.
//            Divisions, exponentials, additions and comparisons are not counted.
//   mac      multiply-accumulate pairs counted once: a multiplication and an addition fuse
//            into one operation, everything else counts one. From bucket totals at most
//            min(mul, add) pairs can fuse, so mac = mul + add - min(mul, add) + div + exp +
//            other = max(mul, add) + div + exp + other. For a length-k dot product (k mul,
//            k - 1 add) this is k, the textbook MAC count; an axpy (n mul, n add) is n.
//            The Nystrom paper's Appendix A mostly counts this way.
//   cotrans  the Continual Transformers paper's mul/add/exp triple: divisions are charged as
//            multiplications (the paper applies D^-1 as an element-wise product), comparisons,
//            absolute values and square roots as additions; FLOPs = mul + add + exp, which
//            equals `all`.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string_view>

#include "analysis/exact.hpp"
#include "attention/counting/op_counts.hpp"

namespace cosda::conventions {

enum class Convention { kAll, kMul, kMac, kCoTrans };

struct Info {
  Convention convention;
  std::string_view id;    // used in reports and CSV columns
  std::string_view name;  // one line
};

inline constexpr std::array<Info, 4> kConventions = {{
    {Convention::kAll, "all", "all operations (mul+add+div+exp+other)"},
    {Convention::kMul, "mul", "multiplications only (ptflops-style)"},
    {Convention::kMac, "mac",
     "multiply-accumulate pairs counted once (max(mul,add)+div+exp+other)"},
    {Convention::kCoTrans, "cotrans",
     "CoTrans mul/add/exp triple (div as mul, other as add), total mul+add+exp"},
}};

inline const Info& info(Convention c) {
  return *std::find_if(kConventions.begin(), kConventions.end(),
                       [c](const Info& i) { return i.convention == c; });
}

// The CoTrans triple.
struct MulAddExp {
  std::int64_t mul, add, exp;
  std::int64_t total() const { return mul + add + exp; }
};
inline MulAddExp cotrans_triple(const OpCounts& c) {
  return {c.mul + c.div, c.add + c.other, c.exp};
}

// A count in convention c.
inline std::int64_t count(const OpCounts& c, Convention conv) {
  switch (conv) {
    case Convention::kAll:
      return c.flops();
    case Convention::kMul:
      return c.mul;
    case Convention::kMac:
      return std::max(c.mul, c.add) + c.div + c.exp + c.other;
    case Convention::kCoTrans:
      return cotrans_triple(c).total();
  }
  return 0;
}

// The exact form of buckets b in convention c. For kMac the max needs a branch: mac_uses_mul
// says whether mul >= add holds where the form is used (the caller checks it on its points).
inline exact::Form form(const exact::Buckets& b, Convention conv, bool mac_uses_mul = true) {
  auto sum = [](std::initializer_list<const exact::Form*> fs) {
    exact::Form out;
    for (const exact::Form* f : fs) {
      out.base = out.base + f->base;
      out.per_s = out.per_s + f->per_s;
    }
    return out;
  };
  switch (conv) {
    case Convention::kAll:
    case Convention::kCoTrans:
      return b.flops();
    case Convention::kMul:
      return b.mul;
    case Convention::kMac:
      return sum({mac_uses_mul ? &b.mul : &b.add, &b.div, &b.exp, &b.other});
  }
  return {};
}

}  // namespace cosda::conventions
