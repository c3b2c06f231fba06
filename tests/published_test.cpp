// Properties of the transcribed published costs (analysis/published.hpp):
//  - Poly arithmetic on hand examples;
//  - each transcribed Poly matches the cost written at the head of its own ASCII text;
//  - stated totals against the sum of their items (Nystrom paper, Appendices A and B);
//  - CoTrans Tables 5-7 against the totals of its running text and the Sec. 3.4 ratios.
// Nystrom paper Tables III/IV and Table I: tests/published_tables_test.cpp.
// Every disagreement found in the papers is pinned with its exact value, so a change in the
// transcription (or a fix) shows up here. analysis/published_findings.md lists them.
#include "analysis/published.hpp"

#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "attention/counting/poly.hpp"
#include "attention/registry.hpp"

namespace cosda {
namespace {

namespace pub = published;

// ---------------------------------------------------------------------------------------
// (a) Poly on hand examples.

const Poly kN{{1, 1}};
const Poly kD{{1, 0, 1}};
const Poly kM{{1, 0, 0, 1}};
const Poly kOne{{1}};

TEST(PublishedPoly, CollectsLikeTermsAndDropsZeros) {
  EXPECT_EQ((Poly{{1, 1, 1}, {2, 1, 1}}), (Poly{{3, 1, 1}}));
  EXPECT_EQ((Poly{{1, 1}, {-1, 1}}), Poly{});
  EXPECT_TRUE((Poly{{0, 2, 1}}).is_zero());
  EXPECT_EQ((Poly{{1, 1}, {1, 0, 1}}), (Poly{{1, 0, 1}, {1, 1}}));  // order-independent
  EXPECT_EQ((Poly{{2, 1, 1}, {5}, {-2, 1, 1}}).terms().size(), 1u);
}

TEST(PublishedPoly, Eval) {
  const Poly att{{2, 2, 1}, {1, 2}, {1, 1, 1}, {1, 1}};  // 2n^2d + n^2 + nd + n
  EXPECT_DOUBLE_EQ(att.eval(3, 5, 7), 2 * 9 * 5 + 9 + 15 + 3);
  EXPECT_DOUBLE_EQ((Poly{{24, 0, 0, 3}, {-2}}).eval(1e9, 1e9, 2), 24 * 8 - 2);
  EXPECT_DOUBLE_EQ(Poly{}.eval(1, 2, 3), 0);
}

TEST(PublishedPoly, Arithmetic) {
  EXPECT_EQ((kN + kOne) * (kN - kOne), (Poly{{1, 2}, {-1}}));  // (n + 1)(n - 1) = n^2 - 1
  EXPECT_EQ((kN - kD) * 2.0, (Poly{{2, 1}, {-2, 0, 1}}));
  EXPECT_EQ(2.0 * kM, kM + kM);
  EXPECT_EQ(-kN + kN, Poly{});
  EXPECT_EQ(kN * kD * kM, (Poly{{1, 1, 1, 1}}));
  const Poly p{{3, 1, 1}, {-1}};
  const Poly q{{1, 0, 0, 2}, {4, 1}};
  EXPECT_DOUBLE_EQ((p + q).eval(2, 3, 5), p.eval(2, 3, 5) + q.eval(2, 3, 5));
  EXPECT_DOUBLE_EQ((p * q).eval(2, 3, 5), p.eval(2, 3, 5) * q.eval(2, 3, 5));
}

TEST(PublishedPoly, StrTypesetsLikeThePapers) {
  EXPECT_EQ((Poly{{1, 1}, {1, 1, 1}, {1, 2}, {2, 2, 1}}).str(), "2n^2d + n^2 + nd + n");
  EXPECT_EQ((Poly{{-2}, {7, 1, 1}, {-2, 0, 1}, {4, 1}}).str(), "7nd + 4n - 2d - 2");
  EXPECT_EQ((Poly{{1, 0, 1, 2}, {1, 1, 0, 2}, {1, 1, 1, 1}}).str(), "ndm + nm^2 + dm^2");
  EXPECT_EQ((Poly{{-1, 0, 0, 1}}).str(), "-m");
  EXPECT_EQ((Poly{{1}}).str(), "1");
  EXPECT_EQ((Poly{{-1}}).str(), "-1");
  EXPECT_EQ((Poly{{0.5, 1}}).str(), "0.5n");
  EXPECT_EQ(Poly{}.str(), "0");
}

TEST(PublishedPoly, LeadingKeepsHighestTotalDegree) {
  EXPECT_EQ((Poly{{2, 2, 1}, {1, 2}, {1, 1, 1}, {1, 1}}).leading(), (Poly{{2, 2, 1}}));
  EXPECT_EQ((Poly{{1, 1, 1}, {1, 2}, {5}}).leading(), (Poly{{1, 2}, {1, 1, 1}}));
  EXPECT_EQ((Poly{{1, 1, 0, 2}, {24, 0, 0, 3}, {4, 1, 1, 1}, {22, 0, 0, 2}}).leading(),
            (Poly{{4, 1, 1, 1}, {1, 1, 0, 2}, {24, 0, 0, 3}}));
  EXPECT_EQ(Poly{}.leading(), Poly{});
  EXPECT_EQ((Poly{{7}}).leading(), (Poly{{7}}));
}

// ---------------------------------------------------------------------------------------
// A small parser for the ASCII cost expressions ("3(nd - 1) + 2dm", "n^2 d", "3(n - 1)d"),
// used to check that every transcribed Poly matches the expression written in its text.

class ExprParser {
 public:
  explicit ExprParser(std::string_view s) : s_(s) {}
  bool parse(Poly* out) {
    *out = expr();
    skip();
    return ok_ && pos_ == s_.size();
  }

 private:
  void skip() {
    while (pos_ < s_.size() && s_[pos_] == ' ') ++pos_;
  }
  char peek() {
    skip();
    return pos_ < s_.size() ? s_[pos_] : '\0';
  }
  Poly expr() {
    Poly sum;
    double sign = 1;
    if (peek() == '-') {
      sign = -1;
      ++pos_;
    }
    sum = term() * sign;
    while (peek() == '+' || peek() == '-') {
      sign = s_[pos_++] == '+' ? 1 : -1;
      sum = sum + term() * sign;
    }
    return sum;
  }
  Poly term() {
    Poly t = kOne;
    bool any = false;
    if (std::isdigit(static_cast<unsigned char>(peek()))) {
      t = t * static_cast<double>(integer());
      any = true;
    }
    while (true) {
      const char c = peek();
      Poly factor;
      if (c == 'n' || c == 'd' || c == 'm') {
        ++pos_;
        factor = c == 'n' ? kN : c == 'd' ? kD : kM;
      } else if (c == '(') {
        ++pos_;
        factor = expr();
        if (peek() != ')') ok_ = false;
        ++pos_;
      } else {
        break;
      }
      for (int i = 0, e = exponent(); i < e; ++i) t = t * factor;
      any = true;
    }
    if (!any) ok_ = false;
    return t;
  }
  int exponent() {
    if (pos_ < s_.size() && s_[pos_] == '^') {
      ++pos_;
      return integer();
    }
    return 1;
  }
  int integer() {
    skip();
    int v = 0;
    bool digits = false;
    while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) {
      v = 10 * v + (s_[pos_++] - '0');
      digits = true;
    }
    if (!digits) ok_ = false;
    return v;
  }

  std::string_view s_;
  std::size_t pos_ = 0;
  bool ok_ = true;
};

// The cost at the head of an item text: everything before " from ", " to " or " for ".
std::string_view cost_prefix(std::string_view what) {
  std::size_t cut = what.size();
  for (std::string_view sep : {" from ", " to ", " for "}) {
    cut = std::min(cut, what.find(sep));
  }
  return what.substr(0, cut);
}

bool is_ascii(std::string_view s) {
  for (char c : s) {
    if (static_cast<unsigned char>(c) > 127) return false;
  }
  return true;
}

// The ids the published list covers: the papers' families, not the random-feature one.
std::vector<std::string_view> published_ids() {
  std::vector<std::string_view> ids;
  for (std::string_view id : kVariantIds)
    if (pub::flops(id) != nullptr) ids.push_back(id);
  return ids;
}

TEST(PublishedTranscription, CoversEveryVariantOfThePapersFamilies) {
  for (const VariantTraits& v : kVariants) {
    const bool papers = v.family == Family::kSoftmax || v.family == Family::kNystrom;
    EXPECT_EQ(pub::flops(v.id) != nullptr, papers) << v.id;
    EXPECT_EQ(pub::valley(v.id) != nullptr, papers) << v.id;
    EXPECT_EQ(pub::peak(v.id) != nullptr, papers) << v.id;
    EXPECT_EQ(pub::table1(v.id) != nullptr, papers) << v.id;
  }
}

using Lookup = const pub::Published* (*)(std::string_view);
const std::pair<const char*, Lookup> kSources[] = {
    {"flops", &pub::flops}, {"valley", &pub::valley}, {"peak", &pub::peak}};

TEST(PublishedTranscription, EveryPolyMatchesItsTypesetText) {
  for (const auto& [name, lookup] : kSources) {
    for (std::string_view id : published_ids()) {
      const pub::Published* p = lookup(id);
      ASSERT_NE(p, nullptr) << name << " " << id;
      SCOPED_TRACE(std::string(p->source));
      EXPECT_FALSE(p->items.empty());
      EXPECT_TRUE(is_ascii(p->source));
      Poly parsed;
      ASSERT_TRUE(ExprParser(p->printed_total).parse(&parsed)) << p->printed_total;
      EXPECT_EQ(parsed, p->total) << p->printed_total;
      for (const pub::Item& item : p->items) {
        EXPECT_TRUE(is_ascii(item.what)) << item.what;
        const std::string_view prefix = cost_prefix(item.what);
        ASSERT_TRUE(ExprParser(prefix).parse(&parsed)) << item.what;
        EXPECT_EQ(parsed, item.cost) << item.what;
      }
    }
  }
  for (const pub::QuotedMemory& q : pub::cotrans_memory()) {
    Poly parsed;
    const std::string_view expr = q.what.substr(q.what.rfind(": ") + 2);
    ASSERT_TRUE(ExprParser(expr).parse(&parsed)) << q.what;
    EXPECT_EQ(parsed, q.size) << q.what;
  }
}

TEST(PublishedTranscription, UnknownIdsAreNotFound) {
  EXPECT_EQ(pub::flops("transformer"), nullptr);
  EXPECT_EQ(pub::table1(""), nullptr);
  EXPECT_EQ(pub::cotrans_text("ny"), nullptr);
  EXPECT_TRUE(pub::cotrans_rows("cony_si_fix").empty());
}

// ---------------------------------------------------------------------------------------
// (b) Nystrom paper, Appendices A and B: sum of the bullet items against the stated total.

Poly item_sum(const pub::Published& p) {
  Poly sum;
  for (const pub::Item& item : p.items) sum = sum + item.cost;
  return sum;
}

// (source, id) -> sum of items - stated total, for the entries where they disagree.
const std::map<std::pair<std::string_view, std::string_view>, Poly>& known_item_gaps() {
  static const std::map<std::pair<std::string_view, std::string_view>, Poly> gaps = {
      {{"peak", "ny_fix"}, Poly{{-1, 0, 0, 2}}},
      {{"valley", "cony_re_fix"}, Poly{{-1, 0, 0, 1}}},
      {{"valley", "cony_si_cont"}, Poly{{-2}}},
  };
  return gaps;
}

TEST(PublishedAppendixItems, SumToTheStatedTotalExceptThePinnedGaps) {
  for (const auto& [name, lookup] : kSources) {
    for (std::string_view id : published_ids()) {
      const pub::Published& p = *lookup(id);
      const auto gap = known_item_gaps().find({name, id});
      if (gap == known_item_gaps().end()) {
        EXPECT_EQ(item_sum(p), p.total) << p.source;
      } else {
        EXPECT_EQ(item_sum(p) - p.total, gap->second) << p.source;
      }
    }
  }
}

TEST(PublishedAppendixItems, PeakNystromformerFixedLandmarksIsShortOneSquareOfM) {
  // Appendix B, 3) peak: stated 4nd + 2nm + 2dm + 2m^2 + 1, but the only m^2 item is the
  // stored (Gamma_phi)^+ (there is no pseudo-inverse workspace with fixed landmarks).
  const pub::Published& p = *pub::peak("ny_fix");
  EXPECT_EQ(p.total, (Poly{{4, 1, 1}, {2, 1, 0, 1}, {2, 0, 1, 1}, {2, 0, 0, 2}, {1}}));
  EXPECT_EQ(item_sum(p), (Poly{{4, 1, 1}, {2, 1, 0, 1}, {2, 0, 1, 1}, {1, 0, 0, 2}, {1}}));
  EXPECT_EQ(item_sum(p) - p.total, (Poly{{-1, 0, 0, 2}}));
}

TEST(PublishedAppendixItems, ValleyRetroactiveFixedLandmarksIsShortOneM) {
  // Appendix B, 6) valley: stated nm + 3dm + m^2 + m; the "nm - m" of (B_phi(Gamma_phi)^+)_mem
  // cancels the "m" of phi(Delta)^-1, so the items sum to nm + 3dm + m^2.
  const pub::Published& p = *pub::valley("cony_re_fix");
  EXPECT_EQ(item_sum(p), (Poly{{1, 1, 0, 1}, {3, 0, 1, 1}, {1, 0, 0, 2}}));
  EXPECT_EQ(item_sum(p) - p.total, (Poly{{-1, 0, 0, 1}}));
}

TEST(PublishedAppendixItems, ValleySingleOutputContinualLandmarksIsShortTwo) {
  // Appendix B, 9) valley: stated 2nd + 4dm + 2m^2 - 2; the constants are -2 from
  // 2(nd - 1) and -2 from 2(m - 1), so the items sum to 2nd + 4dm + 2m^2 - 4.
  const pub::Published& p = *pub::valley("cony_si_cont");
  EXPECT_EQ(item_sum(p), (Poly{{2, 1, 1}, {4, 0, 1, 1}, {2, 0, 0, 2}, {-4}}));
  EXPECT_EQ(item_sum(p) - p.total, (Poly{{-2}}));
}

TEST(PublishedAppendixItems, StoredWindowDisagreesWithCoTransCache) {
  // Appendix B, 1) stores Q_mem, K_mem, V_mem (n - 1 tokens of d values each) as 3(nd - 1);
  // the CoTrans paper (Sec. 3.1) gives the same cache as 3(n - 1)d.
  const pub::QuotedMemory& cache = pub::cotrans_memory()[0];
  EXPECT_EQ(cache.size, (Poly{{3, 1, 1}, {-3, 0, 1}}));
  EXPECT_EQ(pub::valley("att")->total - cache.size, (Poly{{3, 0, 1}, {-3}}));  // 3d - 3
}

// ---------------------------------------------------------------------------------------
// (c) CoTrans Tables 5-7 against the totals quoted in Sec. 3.1-3.3.

TEST(PublishedCoTransTables, RowsSumToTheRunningTextTotals) {
  const std::pair<std::string_view, std::size_t> tables[] = {
      {"att", 3}, {"co_re", 5}, {"co_si", 2}};  // Table 5, 6, 7 row counts
  for (const auto& [id, row_count] : tables) {
    SCOPED_TRACE(std::string(id));
    const std::span<const pub::TableRow> rows = pub::cotrans_rows(id);
    ASSERT_EQ(rows.size(), row_count);
    pub::MulAddExp sum;
    for (const pub::TableRow& r : rows) {
      sum.mul = sum.mul + r.cost.mul;
      sum.add = sum.add + r.cost.add;
      sum.exp = sum.exp + r.cost.exp;
    }
    const pub::MulAddExp& text = *pub::cotrans_text(id);
    EXPECT_EQ(sum.mul, text.mul);  // all three tables agree with the text
    EXPECT_EQ(sum.add, text.add);
    EXPECT_EQ(sum.exp, text.exp);
  }
}

TEST(PublishedCoTransTables, RegularAttentionIsExactlyNTimesSingleOutput) {
  // Sec. 3.8: "The FLOPs for Att(Q, K, V) are exactly n times those of CoSiAtt".
  EXPECT_EQ(pub::total_flops(*pub::cotrans_text("att")),
            kN * pub::total_flops(*pub::cotrans_text("co_si")));
}

// ---------------------------------------------------------------------------------------
// (d) Sec. 3.4 ratios, recomputed from the Sec. 3.1-3.3 totals with FLOPs = mul + add + exp.

TEST(PublishedCoTransRatios, ReproduceThePrintedFactorsToTheNearestInteger) {
  ASSERT_EQ(pub::cotrans_ratios().size(), 4u);
  for (const pub::QuotedRatio& r : pub::cotrans_ratios()) {
    const double num = pub::total_flops(*pub::cotrans_text(r.numerator_id)).eval(r.n, r.d, 0);
    const double den = pub::total_flops(*pub::cotrans_text(r.denominator_id)).eval(r.n, r.d, 0);
    const double ratio = num / den;
    std::printf("  %s/%s at n = %d, d = %d: printed %gx, recomputed %.4fx\n",
                std::string(r.numerator_id).c_str(), std::string(r.denominator_id).c_str(), r.n,
                r.d, r.printed, ratio);
    // The factors are printed as integers, so they may differ by rounding only.
    EXPECT_LE(std::fabs(ratio - r.printed), 0.5) << r.what;
  }
}

}  // namespace
}  // namespace cosda
