// Counting conventions: one executed count (five buckets, attention/counting/op_counts.hpp) read
// the ways people report FLOPs; every number cosda reports names its convention by `id`.
//   all      mul + add + div + exp + other: cosda's own "flops", one scalar operation one FLOP.
//   mul      multiplications only, as ptflops-style counters report.
//   mac      multiply-accumulate pairs counted once; at most min(mul, add) pairs fuse, so
//            mac = max(mul, add) + div + exp + other: k for a length-k dot product (the textbook
//            MAC count), n for an axpy. The Nyström paper's Appendix A mostly counts this way.
//   cotrans  the CoTrans paper's mul/add/exp triple: divisions as multiplications (it applies
//            D^-1 element-wise), comparisons, abs and sqrt as additions; total = `all`.
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

struct MulAddExp {
  std::int64_t mul, add, exp;
  std::int64_t total() const { return mul + add + exp; }
};
inline MulAddExp cotrans_triple(const OpCounts& c) {
  return {c.mul + c.div, c.add + c.other, c.exp};
}

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
