// The exact forms of analysis/exact.hpp against executed counts (measure(), fast path):
//  - integer equality of every field measure() reports, on a grid with n mod m != 0, m = 1,
//    m = n, several d (including d large against n and m, so each live phase is the peak
//    somewhere) and heads 1 and 2; memory where the forms are exact (exact::memory_exact);
//  - h heads execute h times the operations of one head of width d/h;
//  - the grid pins every form: adding or removing one monomial of the fitting basis (a typo)
//    breaks equality at some grid point, and fitting integer coefficients to the measured
//    samples re-derives exactly the frozen forms;
//  - the counting conventions of analysis/conventions.hpp on hand examples.
#include "analysis/exact.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <set>

#include "analysis/conventions.hpp"
#include "analysis/measure.hpp"
#include "test_util.hpp"
#include "tests/fit_form.hpp"

namespace cosda::test {
namespace {

bool has_landmarks(const std::string& id) {
  return find_variant(id)->landmarks != LandmarkKind::kNone;
}
bool continual_landmarks(const std::string& id) {
  return find_variant(id)->landmarks == LandmarkKind::kContinual;
}

// (n, d, m) per variant; m = 1 only for variants without landmarks.
std::vector<Shape> shapes(const std::string& id) {
  std::vector<Shape> out;
  for (std::int64_t n : {1, 2, 3, 5, 7, 8, 12, 13})
    for (std::int64_t d : {1, 2, 3, 6, 40})
      for (std::int64_t m : std::set<std::int64_t>{1, 2, 3, 4, 5, n}) {  // m = n included
        if (m > n || (!has_landmarks(id) && m != 1)) continue;
        out.push_back({n, d, m});
      }
  return out;
}

std::vector<Point> grid() {
  std::vector<Point> g;
  for (const auto& id : variant_ids())
    for (const Shape& s : shapes(id)) {
      g.push_back({id, s.n, s.d, s.m, 1});
      if (s.d % 2 == 0) g.push_back({id, s.n, s.d, s.m, 2});
    }
  return g;
}

class ExactForms : public ::testing::TestWithParam<Point> {};

TEST_P(ExactForms, EqualExecutedCountsAndMemory) {
  const Point& p = GetParam();
  const Cost got = measure(p);
  const Cost want = exact::evaluate(p);
  EXPECT_EQ(got.update_step, want.update_step)
      << describe(got.update_step) << " vs " << describe(want.update_step);
  EXPECT_EQ(got.plain_step, want.plain_step)
      << describe(got.plain_step) << " vs " << describe(want.plain_step);
  EXPECT_EQ(got.cycle_total, want.cycle_total)
      << describe(got.cycle_total) << " vs " << describe(want.cycle_total);
  EXPECT_EQ(got.cycle_steps, want.cycle_steps);
  EXPECT_EQ(got.update_steps, want.update_steps);
  EXPECT_EQ(got.plain_steps, want.plain_steps);
  if (exact::valley_exact(p)) {
    EXPECT_EQ(got.valley, want.valley);
  }
  if (!exact::memory_exact(p)) return;  // measured only (analysis/exact.hpp)
  EXPECT_EQ(got.plain_peak, want.plain_peak);
  EXPECT_EQ(got.update_peak, want.update_peak);
  EXPECT_EQ(got.peak, want.peak);
}

INSTANTIATE_TEST_SUITE_P(
    AllVariants, ExactForms, ::testing::ValuesIn(grid()), [](const auto& info) {
      const Point& p = info.param;
      return shape_name(p.variant, {p.n, p.d, p.m}) + "_h" + std::to_string(p.heads);
    });

// The cycle total is a polynomial whatever n mod m is: r c + (m - r) f = n.
TEST(ExactForms, CycleTotalIsThePolynomialCycleForm) {
  for (const Point& p : grid()) {
    if (p.heads != 1) continue;
    const exact::Buckets cycle = exact::cycle_forms(*exact::forms(p.variant));
    const std::int64_t m = has_landmarks(p.variant) ? p.m : 1;
    EXPECT_EQ(measure(p).cycle_total, cycle.eval(p.n, p.d, m)) << p;
  }
}

// Operations only: h heads' memory is their batched object's (Forms::heads, batched_memory_test).
TEST(ExactForms, HHeadsExecuteHTimesTheOperationsOfOneHeadOfWidthDOverH) {
  for (const auto& id : variant_ids()) {
    for (const std::int64_t h : {2, 3}) {
      const Point wide{id, 9, 6, 4, h}, narrow{id, 9, 6 / h, 4, 1};
      const Cost a = measure(wide), b = measure(narrow);
      auto times = [h](const OpCounts& c) {
        return OpCounts{h * c.mul, h * c.add, h * c.div, h * c.exp, h * c.other};
      };
      EXPECT_EQ(a.update_step, times(b.update_step)) << id;
      EXPECT_EQ(a.plain_step, times(b.plain_step)) << id;
      EXPECT_EQ(a.cycle_total, times(b.cycle_total)) << id;
    }
  }
}

TEST(ExactForms, RejectUnsupportedPoints) {
  EXPECT_THROW(exact::evaluate({"att", 4, 4, 1, 1, 2}), std::invalid_argument);
  EXPECT_THROW(exact::evaluate({"ny", 4, 4, 5}), std::invalid_argument);
  EXPECT_THROW(exact::evaluate({"nope", 4, 4, 1}), std::invalid_argument);
  Point stabilised{"co_si", 4, 4, 1};
  stabilised.stabilised = true;
  EXPECT_THROW(exact::evaluate(stabilised), std::invalid_argument);
  EXPECT_EQ(exact::forms("nope"), nullptr);
  for (const auto& id : variant_ids()) {
    ASSERT_NE(exact::forms(id), nullptr) << id;
    EXPECT_EQ(exact::forms(id)->update.has_value(), continual_landmarks(id)) << id;
  }
}

TEST(ExactForms, SegmentsSplitTheWindow) {
  for (std::int64_t n = 1; n <= 20; ++n)
    for (std::int64_t m = 1; m <= n; ++m) {
      const exact::Segments s = exact::segments(n, m);
      EXPECT_EQ(s.r * s.c + (m - s.r) * s.f, n);
      EXPECT_LE(s.c - s.f, 1);
    }
}

// ---------------------------------------------------------------------------------------
// The grid pins the forms. Samples are the measured values each form must reproduce: step
// buckets from plain steps; update buckets at s = c (measure()'s update_step) and at s = f
// (solved from the cycle total); valley at s = c; peak - valley.

struct FormCase {
  std::string name;
  const exact::Form* form;  // null for the peak
  std::vector<fit::Sample> samples;
  bool landmarks, with_s;
};

std::int64_t bucket(const OpCounts& c, int b) {
  const std::int64_t v[] = {c.mul, c.add, c.div, c.exp, c.other};
  return v[b];
}
const exact::Form& bucket(const exact::Buckets& c, int b) {
  const exact::Form* v[] = {&c.mul, &c.add, &c.div, &c.exp, &c.other};
  return *v[b];
}
constexpr const char* kBucketNames[] = {"mul", "add", "div", "exp", "other"};

std::vector<FormCase> form_cases(const std::string& id) {
  const exact::Forms& f = *exact::forms(id);
  const bool lm = has_landmarks(id), cont = continual_landmarks(id);
  std::vector<FormCase> cases;
  for (int b = 0; b < 5; ++b) {
    cases.push_back({id + ".step." + kBucketNames[b], &bucket(f.step, b), {}, lm, false});
    if (cont)
      cases.push_back({id + ".update." + kBucketNames[b], &bucket(*f.update, b), {}, lm, true});
  }
  cases.push_back({id + ".valley", &f.valley, {}, lm, id == "cony_si_cont"});
  for (const Shape& s : shapes(id)) {
    const Cost c = measure({id, s.n, s.d, s.m, 1});
    const std::int64_t m = lm ? s.m : 1;
    const exact::Segments seg = exact::segments(s.n, m);
    std::size_t k = 0;
    for (int b = 0; b < 5; ++b) {
      if (c.plain_steps > 0) cases[k].samples.push_back({s.n, s.d, m, 0, bucket(c.plain_step, b)});
      ++k;
      if (!cont) continue;
      const std::int64_t uc = bucket(c.update_step, b);
      const std::int64_t p = c.plain_steps > 0 ? bucket(c.plain_step, b) : 0;
      const std::int64_t rest = bucket(c.cycle_total, b) - seg.r * uc - (s.n - m) * p;
      cases[k].samples.push_back({s.n, s.d, m, seg.c, uc});
      if (rest % (m - seg.r) == 0)  // otherwise the equality test reports the mismatch
        cases[k].samples.push_back({s.n, s.d, m, seg.f, rest / (m - seg.r)});
      ++k;
    }
    if (exact::valley_exact({id, s.n, s.d, s.m, 1}))
      cases[k].samples.push_back({s.n, s.d, m, seg.c, c.valley});
  }
  return cases;
}

std::vector<fit::Term> basis_for(bool landmarks, bool with_s) {
  return fit::basis(2, 1, landmarks ? 3 : 0, 3, with_s ? 1 : -1);
}

std::int64_t term_value(const fit::Term& t, const fit::Sample& p) {
  std::int64_t v = 1;
  for (int i = 0; i < t.n; ++i) v *= p.n;
  for (int i = 0; i < t.d; ++i) v *= p.d;
  for (int i = 0; i < t.m; ++i) v *= p.m;
  for (int i = 0; i < t.s; ++i) v *= p.s;
  return v;
}

TEST(ExactForms, EveryOneMonomialTypoBreaksEqualitySomewhereOnTheGrid) {
  for (const auto& id : variant_ids()) {
    for (const FormCase& fc : form_cases(id)) {
      SCOPED_TRACE(fc.name);
      ASSERT_FALSE(fc.samples.empty());
      for (const fit::Sample& p : fc.samples)
        ASSERT_EQ(fc.form->eval(p.n, p.d, p.m, p.s), p.value)
            << "n=" << p.n << " d=" << p.d << " m=" << p.m << " s=" << p.s;
      for (const fit::Term& t : basis_for(fc.landmarks, fc.with_s)) {
        for (const int sign : {+1, -1}) {
          bool caught = false;
          for (const fit::Sample& p : fc.samples)
            caught =
                caught || fc.form->eval(p.n, p.d, p.m, p.s) + sign * term_value(t, p) != p.value;
          EXPECT_TRUE(caught) << "a typo of " << sign << " n^" << t.n << " d^" << t.d << " m^"
                              << t.m << " s^" << t.s << " goes unnoticed";
        }
      }
    }
  }
}

TEST(ExactForms, FittingTheMeasuredSamplesReDerivesTheFrozenForms) {
  for (const auto& id : variant_ids()) {
    for (const FormCase& fc : form_cases(id)) {
      const std::optional<exact::Form> fitted =
          fit::fit_form(basis_for(fc.landmarks, fc.with_s), fc.samples);
      ASSERT_TRUE(fitted.has_value()) << fc.name << ": no integer form fits the samples";
      EXPECT_EQ(*fitted, *fc.form)
          << fc.name << ": fitted " << fitted->str() << ", frozen " << fc.form->str();
    }
  }
}

// The peak is valley + the largest live phase. Each listed phase is the unique largest at
// some grid point, so a typo in any phase changes a measured peak.
TEST(ExactForms, EveryLivePhaseIsThePeakSomewhere) {
  for (const auto& id : variant_ids()) {
    if (continual_landmarks(id)) continue;  // peaks measured only (analysis/exact.hpp)
    const exact::Forms& f = *exact::forms(id);
    const std::vector<Poly>* kinds[] = {&f.step_live, &f.update_live};
    for (const std::vector<Poly>* phases : kinds) {
      for (std::size_t i = 0; i < phases->size(); ++i) {
        bool unique_max = false;
        for (const Shape& s : shapes(id)) {
          if (!exact::memory_exact({id, s.n, s.d, s.m, 1})) continue;
          const std::int64_t m = has_landmarks(id) ? s.m : 1;
          const double mine = (*phases)[i].eval(s.n, s.d, m);
          bool largest = true;
          for (std::size_t j = 0; j < phases->size(); ++j)
            largest = largest && (j == i || (*phases)[j].eval(s.n, s.d, m) < mine);
          unique_max = unique_max || largest;
        }
        EXPECT_TRUE(unique_max) << id << " phase " << (*phases)[i] << " is never the peak";
      }
    }
  }
}

// ---------------------------------------------------------------------------------------
// Conventions on hand examples.

TEST(Conventions, DotProductAndSoftmaxRow) {
  using conventions::Convention;
  const OpCounts dot{.mul = 8, .add = 7};  // length-8 dot product
  EXPECT_EQ(conventions::count(dot, Convention::kAll), 15);
  EXPECT_EQ(conventions::count(dot, Convention::kMul), 8);
  EXPECT_EQ(conventions::count(dot, Convention::kMac), 8);
  EXPECT_EQ(conventions::count(dot, Convention::kCoTrans), 15);
  // exp of 5 scores, their sum, one reciprocal, 5 scalings and a max over 5 (4 comparisons).
  const OpCounts row{.mul = 5, .add = 4, .div = 1, .exp = 5, .other = 4};
  EXPECT_EQ(conventions::count(row, Convention::kAll), 19);
  EXPECT_EQ(conventions::count(row, Convention::kMul), 5);
  EXPECT_EQ(conventions::count(row, Convention::kMac), 5 + 1 + 5 + 4);
  const conventions::MulAddExp t = conventions::cotrans_triple(row);
  EXPECT_EQ(t.mul, 6);
  EXPECT_EQ(t.add, 8);
  EXPECT_EQ(t.exp, 5);
  EXPECT_EQ(t.total(), conventions::count(row, Convention::kAll));
}

TEST(Conventions, FormsAgreeWithCountsOfTheEvaluatedForms) {
  using conventions::Convention;
  for (const auto& id : variant_ids()) {
    const exact::Buckets& b = exact::forms(id)->step;
    for (const conventions::Info& c : conventions::kConventions) {
      const OpCounts counts = b.eval(16, 8, 4);
      const bool uses_mul = counts.mul >= counts.add;
      EXPECT_EQ(conventions::form(b, c.convention, uses_mul).eval(16, 8, 4),
                conventions::count(counts, c.convention))
          << id << " " << c.id;
    }
  }
}

}  // namespace
}  // namespace cosda::test
