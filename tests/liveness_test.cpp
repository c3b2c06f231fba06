// Memory measured by liveness (attention/counting/liveness.hpp): the recorder's rules on hand
// traces, and kernels whose buffers differ from co_si's by one unread buffer or by one n x d buffer
// read in the next step. The measurement must follow what the code does with its buffers.
#include "attention/counting/liveness.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <tuple>
#include <utility>
#include <vector>

#include "analysis/measure.hpp"
#include "attention/variants/co_si.hpp"
#include "models/multi_head.hpp"

namespace cosda::test {
namespace {

constexpr std::int64_t kE = sizeof(double);

// One element per buffer, written and read by hand: a value written in one step and read in
// the next crosses the boundary; one overwritten first does not; one never read is never live.
TEST(Liveness, ValueCrossesABoundaryOnlyIfReadAfterIt) {
  double kept = 0, dropped = 0, unread = 0, in = 0;
  Liveness l(kE);
  l.begin_step(true);
  l.write(&in, kE);
  l.begin_op(), l.read(&in, kE), l.write(&kept, kE), l.write(&dropped, kE), l.write(&unread, kE);
  l.end_step();
  l.mark_pending();
  l.begin_step(false);
  l.begin_op(), l.write(&dropped, kE);
  l.begin_op(), l.read(&kept, kE), l.read(&dropped, kE);
  l.end_step();
  EXPECT_EQ(l.pending(), 2);  // unread and in: neither read nor overwritten yet
  const Liveness::Figures f = l.finish();
  EXPECT_EQ(f.valley, 1);                                   // kept
  EXPECT_EQ(f.step_peaks, std::vector<std::int64_t>({2}));  // in and kept, live at the op
}

// An op that reads and overwrites the same elements holds them once.
TEST(Liveness, InPlaceOpCountsItsElementsOnce) {
  double x[4] = {};
  Liveness l(kE);
  l.begin_step(true);
  l.write(x, 4 * kE);
  l.begin_op(), l.read(x, 4 * kE), l.write(x, 4 * kE);
  l.begin_op(), l.read(x, 4 * kE);
  l.end_step();
  l.mark_pending();
  const Liveness::Figures f = l.finish();
  EXPECT_EQ(f.valley, 0);
  EXPECT_EQ(f.step_peaks, std::vector<std::int64_t>({4}));
}

// Values written before the trace and read inside it are state: live from the start.
TEST(Liveness, ReadBeforeAnyWriteIsStateFromBeforeTheTrace) {
  double w[3] = {};
  Liveness l(kE);
  l.begin_step(true);
  l.begin_op(), l.read(w, 3 * kE);
  l.end_step();
  l.mark_pending();
  l.begin_step(false);
  l.begin_op(), l.read(w, 2 * kE);
  l.end_step();
  const Liveness::Figures f = l.finish();
  EXPECT_EQ(f.valley, 3);  // all three cross the first boundary; two cross the second
  EXPECT_EQ(f.step_peaks, std::vector<std::int64_t>({3}));
}

// The rules of liveness.hpp applied element by element, with no segments to split, join or
// look up: each element's live intervals of instants, counted at every boundary and instant.
class ElementLiveness {
 public:
  explicit ElementLiveness(std::size_t elements) : e_(elements) {}
  void begin_op() { ++op_; }
  void access(std::size_t first, std::size_t count, bool is_write) {
    for (std::size_t i = first; i < first + count; ++i) {
      Element& x = e_[i];
      if (x.w_op == op_) continue;  // written earlier in this op
      if (!is_write) {
        x.r = 4 * op_ + 2;
        continue;
      }
      close(x);
      x.w = x.r == 4 * op_ + 2 ? 4 * op_ + 3 : 4 * op_ + 1;
      x.r = -1, x.w_op = op_;
    }
  }
  void begin_step(bool measured) {
    begin_op();
    if (measured) steps_.push_back({4 * op_, 4 * op_}), boundaries_.push_back(4 * op_);
    measuring_ = measured;
  }
  void end_step() {
    begin_op();
    if (measuring_) steps_.back().second = 4 * op_ + 3, boundaries_.push_back(4 * op_ + 4);
    measuring_ = false;
  }
  Liveness::Figures finish() {
    for (Element& x : e_) close(x);
    auto live_at = [&](std::int64_t t) {
      return std::count_if(runs_.begin(), runs_.end(),
                           [&](const auto& r) { return r.first <= t && t <= r.second; });
    };
    Liveness::Figures f;
    for (std::int64_t b : boundaries_) f.valley = std::max<std::int64_t>(f.valley, live_at(b));
    for (const auto& [lo, hi] : steps_) {
      std::int64_t peak = 0;
      for (std::int64_t t = lo - 1; t <= hi; ++t) peak = std::max<std::int64_t>(peak, live_at(t));
      f.step_peaks.push_back(peak);
    }
    return f;
  }

 private:
  struct Element {
    std::int64_t w = 0, r = -1, w_op = -1;
  };
  void close(const Element& x) {
    if (x.r != -1) runs_.emplace_back(x.w, x.r);
  }
  std::vector<Element> e_;
  std::vector<std::pair<std::int64_t, std::int64_t>> runs_, steps_;
  std::vector<std::int64_t> boundaries_;
  std::int64_t op_ = 0;
  bool measuring_ = false;
};

// A random trace over one buffer, recorded by the segments (l) and by the element rules (ref):
// overlapping ranges, ranges that continue the last one (the recorder looks there first), ranges
// accessed before (a settling stretch skips repeats), in-place ops.
class RandomTrace {
 public:
  static constexpr std::size_t kElements = 96;
  explicit RandomTrace(std::mt19937_64& rng) : rng_(rng) {}

  void step(bool measured) {
    l.begin_step(measured), ref_.begin_step(measured);
    for (int op = int(rng_() % 6); op >= 0; --op) {
      l.begin_op(), ref_.begin_op();
      for (int a = 1 + int(rng_() % 4); a > 0; --a) {
        std::size_t first = rng_() % 3 == 0 ? next_ % kElements : rng_() % kElements;
        std::size_t count = 1 + rng_() % std::min<std::size_t>(24, kElements - first);
        if (!used_.empty() && rng_() % 3 == 0)
          std::tie(first, count) = used_[rng_() % used_.size()];
        used_.emplace_back(first, count);
        const bool in_place = rng_() % 5 == 0;
        access(first, count, in_place ? false : rng_() % 2 == 0);
        if (in_place) access(first, count, true);
        next_ = first + count;
      }
    }
    l.end_step(), ref_.end_step();
  }
  // The figures of both; the element rules' second.
  std::pair<Liveness::Figures, Liveness::Figures> finish() { return {l.finish(), ref_.finish()}; }

  Liveness l{kE};

 private:
  void access(std::size_t first, std::size_t count, bool is_write) {
    const std::int64_t bytes = std::int64_t(count) * kE;
    is_write ? l.write(&buffer_[first], bytes) : l.read(&buffer_[first], bytes);
    ref_.access(first, count, is_write);
  }

  std::mt19937_64& rng_;
  std::vector<double> buffer_ = std::vector<double>(kElements);
  ElementLiveness ref_{kElements};
  std::size_t next_ = 0;                                   // where the last access ended
  std::vector<std::pair<std::size_t, std::size_t>> used_;  // every range so far: first, count
};

// Random traces with unmeasured steps around measured ones: the segments must give what the
// elements give.
TEST(Liveness, SegmentsGiveWhatElementByElementRulesGive) {
  std::mt19937_64 rng(2026);
  for (int trace = 0; trace < 200; ++trace) {
    RandomTrace t(rng);
    const int steps = 3 + int(rng() % 6), first_measured = int(rng() % 3);
    for (int step = 0; step < steps; ++step) t.step(step >= first_measured && step < steps - 1);
    const auto [got, want] = t.finish();
    ASSERT_EQ(got.valley, want.valley) << "trace " << trace;
    ASSERT_EQ(got.step_peaks, want.step_peaks) << "trace " << trace;
  }
}

// Finishes t and asserts the segments' figures are the element rules'; adds the valley to
// live_across.
void assert_full_trace(RandomTrace& t, int trace, std::int64_t& live_across) {
  const auto [got, want] = t.finish();
  ASSERT_EQ(got.valley, want.valley) << "trace " << trace;
  ASSERT_EQ(got.step_peaks, want.step_peaks) << "trace " << trace;
  live_across += want.valley;
}

// measure()'s shortcut traces a warm-up by its writes alone (Liveness::warm_up) and, after
// mark_pending(), settles each element at its first access: the figures are those of the full
// trace, element by element, on random traces of unmeasured, measured and look-ahead steps.
TEST(Liveness, WarmUpByWritesAndSettledLookAheadGiveTheFullTrace) {
  std::mt19937_64 rng(2027);
  std::int64_t live_across = 0;
  for (int trace = 0; trace < 300; ++trace) {
    RandomTrace t(rng);
    t.l.warm_up(true);
    for (int s = 1 + int(rng() % 4); s > 0; --s) t.step(false);
    t.l.warm_up(false);
    for (int s = 1 + int(rng() % 3); s > 0; --s) t.step(true);
    t.l.mark_pending();
    for (int s = int(rng() % 4); s > 0; --s) t.step(false);
    ASSERT_NO_FATAL_FAILURE(assert_full_trace(t, trace, live_across));
  }
  EXPECT_GT(live_across, 0);  // the traces do carry values across boundaries
}

// measure() leaves a landmark cycle's repeated plain steps unmeasured between measured ones:
// mark_pending() before them settles each element at its first access, resume() after them
// traces in full again. The measured steps' figures are those of the full trace.
TEST(Liveness, SettledStepsBetweenMeasuredOnesGiveTheFullTrace) {
  std::mt19937_64 rng(2028);
  std::int64_t live_across = 0;
  for (int trace = 0; trace < 300; ++trace) {
    RandomTrace t(rng);
    for (int s = int(rng() % 3); s > 0; --s) t.step(false);
    for (int stretch = 1 + int(rng() % 3); stretch > 0; --stretch) {
      for (int s = 1 + int(rng() % 3); s > 0; --s) t.step(true);
      t.l.mark_pending();
      for (int s = 1 + int(rng() % 4); s > 0; --s) t.step(false);
      t.l.resume();
    }
    for (int s = 1 + int(rng() % 3); s > 0; --s) t.step(true);
    t.l.mark_pending();
    for (int s = int(rng() % 4); s > 0; --s) t.step(false);
    ASSERT_NO_FATAL_FAILURE(assert_full_trace(t, trace, live_across));
  }
  EXPECT_GT(live_across, 0);  // the traces do carry values across boundaries
}

// co_si with one buffer more: kExtraUnread writes an n x d buffer every step and never reads
// it; kExtraKept reads and rewrites an n x d buffer every step, so each step's values are
// read by the next.
enum class Extra { kNone, kUnread, kKept };

template <class E>
class CoSiWith final : public Attention<E> {
 public:
  using S = typename E::Scalar;
  CoSiWith(const Config& c, Extra extra)
      : inner_(c), extra_(extra), n_(c.n), d_(c.d), buffer_(c.n, c.d) {
    buffer_.setZero();
  }
  bool step(const S* q, const S* k, const S* v) override {
    if (extra_ == Extra::kUnread)
      for (std::int64_t i = 0; i < n_; ++i) ops::copy<E>(q, q + d_, &buffer_(i, 0));
    if (extra_ == Extra::kKept) ops::scale<E>(buffer_.data(), n_ * d_, S(1));
    return inner_.step(q, k, v);
  }
  MatCRef<S> output() const override { return inner_.output(); }

 private:
  CoSi<Tally<double>> inner_;
  Extra extra_;
  std::int64_t n_, d_;
  Mat<S> buffer_;
};

// measure()'s protocol on one kernel: n warm-up tokens, one measured step, then steps until
// every value held after it is read or overwritten.
std::pair<std::int64_t, std::int64_t> valley_and_peak(Attention<Tally<double>>& a, std::int64_t n,
                                                      std::int64_t d) {
  std::mt19937_64 rng(7);
  std::normal_distribution<double> normal;
  std::vector<double> x(static_cast<std::size_t>(3 * d));
  Liveness l(kE);
  auto step = [&](bool measured) {
    for (auto& e : x) e = normal(rng);
    thread_liveness() = &l;
    l.begin_step(measured);
    l.write(x.data(), 3 * d * kE);
    const bool ready = a.step(x.data(), x.data() + d, x.data() + 2 * d);
    l.end_step();
    if (ready) l.read(a.output().data(), a.output().size() * kE);
    thread_liveness() = nullptr;
  };
  for (std::int64_t t = 0; t < n; ++t) step(false);
  step(true);
  l.mark_pending();
  for (std::int64_t t = 0; t < n + 2 && l.pending() > 0; ++t) step(false);
  const Liveness::Figures f = l.finish();
  return {f.valley, f.step_peaks.at(0)};
}

// The buffers are declared alike and differ only in how the step's ops (seam ops, which
// record their accesses) use them: the unread one adds nothing, the kept one its n x d.
TEST(Liveness, BufferCountsOnlyIfReadAfterTheStep) {
  for (const auto& [n, d] : {std::pair<std::int64_t, std::int64_t>{8, 4}, {5, 12}, {16, 16}}) {
    Config c;
    c.n = n, c.d = d;
    CoSiWith<Tally<double>> plain(c, Extra::kNone), unread(c, Extra::kUnread),
        kept(c, Extra::kKept);
    const auto base = valley_and_peak(plain, n, d);
    EXPECT_EQ(valley_and_peak(unread, n, d).first, base.first) << n << " " << d;
    EXPECT_EQ(valley_and_peak(kept, n, d).first, base.first + n * d) << n << " " << d;
    // And the plain kernel measured here is co_si as measure() sees it.
    EXPECT_EQ(base.first, measure({std::string(CoSi<Tally<double>>::kTraits.id), n, d, 1}).valley);
  }
}

// Per-step peaks over one landmark cycle of a continual-landmark variant (one head), after a
// first cycle that starts from regular landmark updates rather than from priming.
struct CyclePeaks {
  std::vector<std::int64_t> peaks;
  std::vector<bool> updated;
};
CyclePeaks cycle_peaks(std::string_view id, std::int64_t n, std::int64_t d, std::int64_t m) {
  Config c;
  c.n = n, c.d = d, c.m = m;
  std::vector<Liveness> traces(1, Liveness(kE));
  MultiHead<Tally<double>> mh(id, c, 1);
  mh.attach(&traces);
  std::mt19937_64 rng(11);
  std::normal_distribution<double> normal;
  std::vector<double> x(static_cast<std::size_t>(3 * d));
  auto step = [&] {
    for (auto& e : x) e = normal(rng);
    mh.step(x.data(), x.data() + d, x.data() + 2 * d);
  };
  for (std::int64_t t = 0; t < 2 * n; ++t) step();
  CyclePeaks out;
  mh.measure_steps(true);
  for (std::int64_t t = 0; t < n; ++t) step(), out.updated.push_back(mh.updated_landmarks());
  mh.measure_steps(false);
  traces[0].mark_pending();
  for (std::int64_t t = 0; t < n + n / m + 2 && traces[0].pending() > 0; ++t) step();
  out.peaks = traces[0].finish().step_peaks;
  return out;
}

// Why cony_re_cont's peaks are measured only: a plain step's peak grows with the queries that
// arrived since the last landmark update, which the next update reads for its segment mean
// (their q rows, d each, and their rows of B and phi(B), m + 1 more). Within every segment the
// plain steps before its last rise by exactly that much per step, so the peak of a cycle depends on
// the longest segment, not on n, d and m alone. The cycle starts at ring slot 0, where the window
// lies in ring order and cony_re_cont's step holds one element more than at any other slot: rises
// are taken after it. cony_si_cont keeps the running sum of its segment's queries instead (d
// values), so its plain peaks stay flat.
TEST(Liveness, ContinualLandmarkPeaksFollowPendingQueries) {
  struct Shape {
    std::int64_t n, d, m;
  };
  for (const Shape s : {Shape{20, 3, 4}, Shape{25, 5, 3}, Shape{31, 4, 5}}) {
    for (const auto& [id, per_query] :
         {std::pair<std::string_view, std::int64_t>{"cony_si_cont", 0},
          {"cony_re_cont", s.d + s.m + 1}}) {
      const CyclePeaks c = cycle_peaks(id, s.n, s.d, s.m);
      ASSERT_EQ(std::count(c.updated.begin(), c.updated.end(), true), s.m);
      int rises = 0;
      for (std::size_t i = 0, start = 0; i < c.peaks.size(); ++i) {
        if (!c.updated[i]) continue;
        for (std::size_t j = std::max<std::size_t>(start, 1); j + 2 < i;
             ++j, ++rises)  // plain steps before the last
          EXPECT_EQ(c.peaks[j + 1] - c.peaks[j], per_query) << id << " " << s.n << " step " << j;
        start = i + 1;
      }
      EXPECT_GT(rises, 0) << id;
    }
  }
}

}  // namespace
}  // namespace cosda::test
