#include "analysis/measure.hpp"

#include <algorithm>
#include <random>
#include <stdexcept>
#include <vector>

#include "analysis/heap.hpp"
#include "analysis/policy.hpp"
#include "attention/counting/footprint.hpp"
#include "attention/counting/liveness.hpp"
#include "attention/families/landmarks.hpp"
#include "models/multi_head.hpp"
#include "models/two_block.hpp"

namespace cosda {

std::string skip_reason(const Point& p) {
  const VariantTraits* t = find_variant(p.variant);
  if (t == nullptr) return "unknown variant '" + p.variant + "'";
  if (p.n < 1 || p.d < 1) return "needs n >= 1 and d >= 1";
  if (p.heads < 1 || p.d % p.heads != 0) return "heads must divide d";
  // Random features are not tokens of the window: any m >= 1, m > n included.
  if (t->landmarks == LandmarkKind::kRandomFeatures && p.m < 1) return "needs m >= 1";
  if (t->landmarks != LandmarkKind::kNone && t->landmarks != LandmarkKind::kRandomFeatures &&
      (p.m < 1 || p.m > p.n))
    return "needs 1 <= m <= n";
  if (p.stabilised && !t->continual) return "the stabilised mode applies to continual variants";
  if (p.layers != 1 && p.layers != 2) return "layers must be 1 or 2";
  if (p.layers == 2 && !has_two_block_model(*t))
    return "has no two-block model (no retroactive sibling); use layers = 1";
  return "";
}

namespace {

// Skips the seam's arithmetic (ops::skipping) as `skip` says while it lives.
struct Skipping {
  explicit Skipping(ops::Skip skip) : before_(ops::skipping()) { ops::skipping() = skip; }
  ~Skipping() { ops::skipping() = before_; }
  Skipping(const Skipping&) = delete;
  Skipping& operator=(const Skipping&) = delete;
  ops::Skip before_;
};

// Steps on, recording accesses without arithmetic (they do not depend on values), until each value
// held at the end of the measured steps is read (was live) or overwritten (was not). One never read
// counts as not live once a landmark cycle (else two steps) resolves nothing more; kept values are
// read within n steps, when their token leaves the window, which bounds the wait.
template <class Step>
void look_ahead(std::vector<Liveness>& traces, const Point& p, Step&& step) {
  auto pending = [&] {
    std::int64_t s = 0;
    for (const auto& t : traces) s += t.pending();
    return s;
  };
  for (auto& t : traces) t.mark_pending();
  const Skipping skip(ops::Skip::kAll);  // the look-ahead needs the accesses, not the values
  const bool cycles = find_variant(p.variant)->landmarks == LandmarkKind::kContinual;
  const std::int64_t patience = cycles ? p.n / p.m + 2 : 2;
  std::int64_t left = pending(), idle = 0;
  for (std::int64_t s = 0; s <= p.n + patience && left > 0 && idle < patience; ++s) {
    step();
    const std::int64_t now = pending();
    idle = now < left ? 0 : idle + 1;
    left = now;
  }
}

// Valley and peaks from the heads' traces: heads side by side add up, step by step.
void memory_figures(std::vector<Liveness>& traces, const std::vector<bool>& updated, Cost& cost) {
  std::vector<std::int64_t> peaks(updated.size(), 0);
  for (auto& trace : traces) {
    const Liveness::Figures f = trace.finish();
    cost.valley += f.valley;
    for (std::size_t i = 0; i < peaks.size(); ++i) peaks[i] += f.step_peaks[i];
  }
  for (std::size_t i = 0; i < peaks.size(); ++i) {
    std::int64_t& kind = updated[i] ? cost.update_peak : cost.plain_peak;
    kind = std::max(kind, peaks[i]);
  }
  cost.peak = std::max(cost.plain_peak, cost.update_peak);
}

// A landmark cycle's schedule and checks. Under the shortcut, a plain step that neither starts the
// cycle nor follows an update replays without arithmetic (ops::tally_skip) and takes the first
// plain step's allocations. Replays between the first two plain steps after an update and the
// last two before the next are not measured, only traced to settle the values they touch
// (Liveness::mark_pending): the measured ends bound their boundaries and peaks, which grow by the
// same amount each step (the queries kept until the update; tests/shortcut_test.cpp).
// Every step checks the predicted update schedule; every plain step, that it costs (and, run in
// full, allocates) what the first did.
struct LandmarkCycle {
  bool on = false;
  std::vector<bool> due;               // per step of the cycle: whether it updates landmarks
  std::int64_t plain_allocations = 0;  // the heap allocations of the cycle's first plain step

  // The cycle starts at slot 0 and completes the segments of segment_sizes(n, m) in turn
  // (attention/families/continual_landmarks.hpp): the step that completes one updates.
  void schedule(std::int64_t n, std::int64_t m) {
    due.assign(static_cast<std::size_t>(n), false);
    std::int64_t t = 0;
    for (const std::int64_t size : segment_sizes(n, m))
      due[static_cast<std::size_t>(t += size) - 1] = true;
  }
  bool replays(bool shortcut, std::int64_t s, const Cost& cost) const {
    return shortcut && on && !due[std::size_t(s)] && s > 0 && !due[std::size_t(s - 1)] &&
           cost.plain_steps > 0;
  }
  // Whether replay s lies between the first two plain steps after an update (or the cycle's start)
  // and the last two before the next: there each plain step's memory changes by the same amount.
  bool unmeasured(bool replay, std::int64_t s) const {
    const auto at = [&](std::int64_t t) { return bool(due[std::size_t(t)]); };
    return replay && s >= 2 && !at(s - 2) && s + 2 < std::int64_t(due.size()) && !at(s + 1) &&
           !at(s + 2);
  }
  void check(std::int64_t s, bool updated, const OpCounts& ops, std::int64_t allocations,
             const Cost& cost) {
    if (!on) return;
    if (updated != due[std::size_t(s)])
      throw std::logic_error("landmark cycle: updates off the predicted schedule");
    if (updated) return;
    if (cost.plain_steps == 0) {
      plain_allocations = allocations;
    } else if (!(ops == cost.plain_step)) {
      throw std::logic_error("landmark cycle: plain steps of one cycle cost differently");
    } else if (allocations != plain_allocations) {
      throw std::logic_error("landmark cycle: plain steps of one cycle allocate differently");
    }
  }
};

template <class E>
class Run {
 public:
  using S = typename E::Scalar;

  Run(const Point& p, Touched touched, Shortcut shortcut)
      : p_(p), t_(find_variant(p.variant)), rng_(20231122), record_(touched == Touched::kRecord) {
    token_.resize(static_cast<std::size_t>(3 * p.d));
    skip_ = shortcut == Shortcut::kOn && !ops::kScalarLevel<E>;
    cycle_.on = t_->landmarks == LandmarkKind::kContinual;
    if (cycle_.on) cycle_.schedule(p.n, p.m);
  }

  Cost measure() {
    Cost cost;
    cost.point = p_;
    Footprint& footprint = thread_footprint();
    if (record_) footprint.reserve(std::size_t(1) << 14);  // before heap0: not the step's memory
    cost.cycle_steps = t_->landmarks == LandmarkKind::kContinual ? p_.n : 1;
    std::vector<bool> updated;  // per measured step; reserved before the heap is watched
    updated.reserve(static_cast<std::size_t>(cost.cycle_steps));
    std::vector<Liveness> traces(static_cast<std::size_t>(p_.heads), Liveness(sizeof(S)));
    const Config c = config();
    heap0_ = heap::current();
    MultiHead<E> mh(p_.variant, c, p_.heads, int(p_.layers));
    // One trace per object stepped: one for batched heads (shrinking allocates nothing).
    traces.resize(static_cast<std::size_t>(mh.objects()), Liveness(sizeof(S)));
    mh.attach(&traces);
    {
      const Skipping skip(skip_ ? ops::Skip::kAll
                                : ops::Skip::kNone);  // no figure reads its values
      for (auto& t : traces) t.warm_up(skip_);
      for (std::int64_t i = 0; i < p_.n; ++i) step(mh);
      for (auto& t : traces) t.warm_up(false);
    }
    if (heap::enabled()) cost.heap_retained_bytes = heap::current() - heap0_;
    bool measured = false;
    struct Ended {  // no stretch outlives measure(), thrown out of or not
      ~Ended() { settling_stretch() = {}; }
    } ended;
    for (std::int64_t s = 0; s < cost.cycle_steps; ++s) {
      const bool replay = cycle_.replays(skip_, s, cost);
      if (const bool m = !cycle_.unmeasured(replay, s); m != measured) {
        if (s > 0)
          for (auto& t : traces) m ? t.resume() : t.mark_pending();
        mh.measure_steps(measured = m);
        // Replays whose bytes are not recorded may repeat the second block (models/two_block.hpp).
        settling_stretch() = {}, settling_stretch().on = !m && !record_;
      }
      const bool u = cycle_step(mh, s, replay, cost);
      if (measured) updated.push_back(u);
    }
    mh.measure_steps(false);
    settling_stretch() = {}, settling_stretch().on = skip_ && !record_;  // the look-ahead settles
    look_ahead(traces, p_, [&] { step(mh); });
    settling_stretch() = {};
    memory_figures(traces, updated, cost);
    if (heap::enabled()) {
      cost.heap_peak_bytes = heap_peak_;
      cost.steady_allocations = allocs_;
    }
    return cost;
  }

 private:
  Config config() {
    Config c;
    c.n = p_.n;
    c.d = p_.d;
    c.m = t_->landmarks == LandmarkKind::kNone ? 1 : p_.m;
    if (p_.stabilised) c.exp_shift = 0.0;  // any C: the count is one subtraction per exp
    if (t_->landmarks == LandmarkKind::kFixed) {
      c.fixed_q.resize(c.m, c.d);
      for (std::int64_t i = 0; i < c.fixed_q.size(); ++i) c.fixed_q.data()[i] = 0.5 * normal_(rng_);
      c.fixed_k = c.fixed_q;
    }
    return c;
  }

  // q, k and v of a token are three separate rows, as a stream with projections passes them.
  // A step without arithmetic reads no value, so it gets no new one.
  bool step(MultiHead<E>& mh) {
    if (ops::skipping() != ops::Skip::kAll)
      for (auto& x : token_) x = S(0.5 * normal_(rng_));
    const S* x = token_.data();
    return mh.step(x, x + p_.d, x + 2 * p_.d);
  }

  // Step s of the cycle; returns whether it updated landmarks.
  bool cycle_step(MultiHead<E>& mh, std::int64_t s, bool replay, Cost& cost) {
    Footprint& footprint = thread_footprint();
    const OpCounts before = thread_counts();
    heap::reset_peak();
    const std::int64_t a0 = heap::allocations();
    if (record_) footprint.start();
    {
      // A measured step keeps the arithmetic that takes heap, for the heap figures.
      const Skipping skip(replay ? ops::Skip::kAll
                                 : (skip_ ? ops::Skip::kHeapFree : ops::Skip::kNone));
      step(mh);
    }
    const std::int64_t bytes = record_ ? footprint.stop() : 0;
    const OpCounts ops = thread_counts() - before;
    // A replay's allocations are the first plain step's.
    const std::int64_t allocations = replay ? cycle_.plain_allocations : heap::allocations() - a0;
    allocs_ += allocations;
    heap_peak_ = std::max(heap_peak_, heap::peak() - heap0_);
    cost.cycle_total += ops;
    cost.cycle_bytes += bytes;
    const bool updated = mh.updated_landmarks();
    cycle_.check(s, updated, ops, allocations, cost);
    if (updated) {
      if (cost.update_steps++ == 0 || ops.flops() > cost.update_step.flops()) {
        cost.update_step = ops;
        cost.update_bytes = bytes;
      }
    } else if (cost.plain_steps++ == 0) {
      cost.plain_step = ops;
      cost.plain_bytes = bytes;
    }
    return updated;
  }

  const Point& p_;
  const VariantTraits* t_;
  std::mt19937_64 rng_;
  std::normal_distribution<double> normal_{0.0, 1.0};
  bool record_, skip_ = false;
  std::vector<S> token_;
  LandmarkCycle cycle_;
  std::int64_t heap0_ = 0, heap_peak_ = 0, allocs_ = 0;
};

}  // namespace

Cost measure(const Point& p, Counting counting, Precision precision, Touched touched,
             Shortcut shortcut) {
  if (std::string why = skip_reason(p); !why.empty()) throw std::invalid_argument(why);
  return with_policy(counting, precision,
                     [&]<class E>() { return Run<E>(p, touched, shortcut).measure(); });
}

}  // namespace cosda
