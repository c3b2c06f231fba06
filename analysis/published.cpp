// The published formulas by variant id: which variant each Nyström Appendix A/B item describes
// (transcribed in published_appendix.cpp), Table I, the CoTrans counts and ratios, the cells of
// Tables III and IV. Monomials are {coef, power of n, power of d, power of m}: {3, 1, 1} is 3nd.
#include "analysis/published.hpp"

#include "analysis/published_data.hpp"

namespace cosda::published {
namespace data {

// Appendix A and B items 1)-9).
constexpr std::string_view kAppendixIds[] = {"att",         "ny",           "ny_fix",
                                             "co_re",       "co_si",        "cony_re_fix",
                                             "cony_si_fix", "cony_re_cont", "cony_si_cont"};
std::span<const std::string_view> appendix_ids() { return kAppendixIds; }

// ---- Table I ----

const std::vector<Keyed<Orders>>& table1() {
  static const std::vector<Keyed<Orders>> table = [] {
    const Poly nd{{1, 1, 1}};
    const Poly ndm{{1, 1, 1, 1}};
    const Poly nm{{1, 1, 0, 1}};
    const Poly dm{{1, 0, 1, 1}};
    const Poly nm2{{1, 1, 0, 2}};
    const Poly m2{{1, 0, 0, 2}};
    const Poly m3{{1, 0, 0, 3}};
    return std::vector<Keyed<Orders>>{
        {"att", {Poly{{1, 2, 1}}, nd, Poly{{1, 2}} + nd}},
        {"ny", {ndm + nm2 + m3, nd, nd + nm + m2}},
        {"ny_fix", {ndm + nm2, nd + m2, nd + nm + m2}},
        {"co_si", {nd, nd, nd}},
        {"co_re", {nd, nd, nd}},
        {"cony_si_cont", {ndm + m3, nd + m2, nd + m2}},
        {"cony_re_cont", {ndm + nm2 + m3, nd + m2, nd + nm + m2}},
        {"cony_si_fix", {dm + m2, dm + m2, dm + m2}},
        {"cony_re_fix", {ndm + m2, nm + m2, nd + nm + m2}},
    };
  }();
  return table;
}

// ---- CoTrans paper ----

const std::vector<Keyed<std::vector<TableRow>>>& cotrans_rows() {
  static const std::vector<Keyed<std::vector<TableRow>>> table = {
      {"att",
       {
           // Mul n^2d + nd | Add nd(n - 1) | Exp 0
           {"Table 5, Eq. (1.1)", {{{1, 2, 1}, {1, 1, 1}}, {{1, 2, 1}, {-1, 1, 1}}, {}}},
           // Mul n^2d + nd | Add n^2(d - 1) | Exp n^2
           {"Table 5, Eq. (1.2)", {{{1, 2, 1}, {1, 1, 1}}, {{1, 2, 1}, {-1, 2}}, {{1, 2}}}},
           // Mul 0 | Add n(n - 1) | Exp 0
           {"Table 5, Eq. (1.3)", {{}, {{1, 2}, {-1, 1}}, {}}},
       }},
      {"co_re",
       {
           // Mul 2(n - 1)d | Add 2(n - 2)d + 2(n - 1) | Exp 2(n - 1)
           {"Table 6, Eq. (2)",
            {{{2, 1, 1}, {-2, 0, 1}}, {{2, 1, 1}, {-4, 0, 1}, {2, 1}, {-2}}, {{2, 1}, {-2}}}},
           // Mul nd + n + d | Add nd + (n - 1) + d | Exp n
           {"Table 6, Eq. (3)",
            {{{1, 1, 1}, {1, 1}, {1, 0, 1}}, {{1, 1, 1}, {1, 1}, {-1}, {1, 0, 1}}, {{1, 1}}}},
           // Mul 2(n - 1)d | Add 2(n - 1)d | Exp 0
           {"Table 6, Eq. (4)", {{{2, 1, 1}, {-2, 0, 1}}, {{2, 1, 1}, {-2, 0, 1}}, {}}},
           // Mul nd | Add (n - 1)d | Exp 0
           {"Table 6, Eq. (5)", {{{1, 1, 1}}, {{1, 1, 1}, {-1, 0, 1}}, {}}},
           // Mul nd + n | Add 0 | Exp 0
           {"Table 6, Eq. (6)", {{{1, 1, 1}, {1, 1}}, {}, {}}},
       }},
      {"co_si",
       {
           // Mul nd + d | Add (n - 1)d + n - 1 | Exp 0
           {"Table 7, Eq. (7.1)",
            {{{1, 1, 1}, {1, 0, 1}}, {{1, 1, 1}, {-1, 0, 1}, {1, 1}, {-1}}, {}}},
           // Mul nd + d | Add n(d - 1) | Exp n
           {"Table 7, Eq. (7.2)", {{{1, 1, 1}, {1, 0, 1}}, {{1, 1, 1}, {-1, 1}}, {{1, 1}}}},
       }},
  };
  return table;
}

const std::vector<Keyed<MulAddExp>>& cotrans_text() {
  static const std::vector<Keyed<MulAddExp>> table = {
      // Sec. 3.1: 2n^2d + 2nd multiplications, 2n^2d - nd - n additions, n^2 exponentiations.
      {"att", {{{2, 2, 1}, {2, 1, 1}}, {{2, 2, 1}, {-1, 1, 1}, {-1, 1}}, {{1, 2}}}},
      // Sec. 3.2: 7nd + 2n - 3d multiplications, 6nd + 3n - 6d - 3 additions, 3n - 2 exp.
      {"co_re",
       {{{7, 1, 1}, {2, 1}, {-3, 0, 1}}, {{6, 1, 1}, {3, 1}, {-6, 0, 1}, {-3}}, {{3, 1}, {-2}}}},
      // Sec. 3.3: 2nd + 2d multiplications, 2nd - d - 1 additions, n exponentials.
      {"co_si", {{{2, 1, 1}, {2, 0, 1}}, {{2, 1, 1}, {-1, 0, 1}, {-1}}, {{1, 1}}}},
  };
  return table;
}

}  // namespace data

namespace {

constexpr QuotedRatio kRatios[] = {
    {"CoTrans paper, Sec. 3.4: Continual Retroactive SDA reduces FLOPs by 31x when n = d = 100",
     "att", "co_re", 100, 100, 31},
    {"CoTrans paper, Sec. 3.4: Continual Retroactive SDA reduces FLOPs by 308x when "
     "n = d = 1000",
     "att", "co_re", 1000, 1000, 308},
    {"CoTrans paper, Sec. 3.4: Continual Single-Output SDA reduces FLOPs by 100x (n = d = 100)",
     "att", "co_si", 100, 100, 100},
    {"CoTrans paper, Sec. 3.4: Continual Single-Output SDA reduces FLOPs by 1000x "
     "(n = d = 1000)",
     "att", "co_si", 1000, 1000, 1000},
};

constexpr PrintedCell kCells[] = {
    // Table III, GTZAN: FLOPs (M) and Rel. FLOPs.
    {kTable3, "Att", "att", 1, 5.57, 1, 2, 0},
    {kTable3, "Att", "att", 2, 11.13, 1, 2, 0},
    {kTable3, "Att_Co", "co_si", 1, 0.07, 80.26, 2, 2},
    {kTable3, "Att_Co", "co_si", 2, 0.39, 48.26, 2, 2},
    {kTable3, "Att_Ny-4", "ny", 1, 0.42, 13.17, 2, 2},
    {kTable3, "Att_Ny-4", "ny", 2, 0.85, 13.17, 2, 2},
    {kTable3, "Att_Ny^Fix-4", "ny_fix", 1, 0.37, 14.98, 2, 2},
    {kTable3, "Att_Ny^Fix-4", "ny_fix", 2, 0.74, 14.98, 2, 2},
    {kTable3, "Att_CoNy^Cont-4", "cony_si_cont", 1, 0.01, 509.66, 2, 2},
    {kTable3, "Att_CoNy^Cont-4", "cony_si_cont", 2, 0.11, 102.57, 2, 2},
    {kTable3, "Att_CoNy^Fix-4", "cony_si_fix", 1, 0.005, 1028, 3, 0},
    {kTable3, "Att_CoNy^Fix-4", "cony_si_fix", 2, 0.10, 108.92, 2, 2},
    // Table IV, THUMOS14: FLOPs (M) and Rel. FLOPs.
    {kTable4, "Att", "att", 1, 8.46, 1, 2, 0},
    {kTable4, "Att", "att", 2, 16.92, 1, 2, 0},
    {kTable4, "Att_Co", "co_si", 1, 0.20, 42.99, 2, 2},
    {kTable4, "Att_Co", "co_si", 2, 0.65, 25.88, 2, 2},
    {kTable4, "Att_Ny-16", "ny", 1, 4.71, 1.80, 2, 2},
    {kTable4, "Att_Ny-16", "ny", 2, 9.42, 1.80, 2, 2},
    {kTable4, "Att_Ny^Fix-16", "ny_fix", 1, 4.21, 2.01, 2, 2},
    {kTable4, "Att_Ny^Fix-16", "ny_fix", 2, 8.43, 2.01, 2, 2},
    {kTable4, "Att_CoNy^Cont-16", "cony_si_cont", 1, 0.46, 18.35, 2, 2},
    {kTable4, "Att_CoNy^Cont-16", "cony_si_cont", 2, 1.43, 11.84, 2, 2},
    {kTable4, "Att_CoNy^Fix-16", "cony_si_fix", 1, 0.12, 73.52, 2, 2},
    {kTable4, "Att_CoNy^Fix-16", "cony_si_fix", 2, 1.26, 13.40, 2, 2},
};

constexpr CoTransSection kSections[] = {{"att", "3.1"}, {"co_re", "3.2"}, {"co_si", "3.3"}};

}  // namespace

std::span<const QuotedRatio> cotrans_ratios() { return kRatios; }
std::span<const PrintedCell> printed_cells() { return kCells; }
std::span<const CoTransSection> cotrans_sections() { return kSections; }

std::span<const QuotedMemory> cotrans_memory() {
  static const std::vector<QuotedMemory> memory = {
      {"CoTrans paper, Sec. 3.1",
       "att",
       "constant-sized cache of the n - 1 latest tokens in Q, K and V: 3(n - 1)d",
       {{3, 1, 1}, {-3, 0, 1}}},
      {"CoTrans paper, Sec. 3.1",
       "att",
       "memory penalty of caching QK^T directly instead (not used): (n - 1)^2",
       {{1, 2}, {-2, 1}, {1}}},
  };
  return memory;
}

}  // namespace cosda::published
