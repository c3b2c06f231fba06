#include "analysis/measure.hpp"

#include <algorithm>
#include <random>

#include "analysis/heap.hpp"
#include "analysis/policy.hpp"
#include "attention/counting/footprint.hpp"
#include "attention/counting/liveness.hpp"
#include "models/multi_head.hpp"

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

// Steps on until every value held at the end of the measured steps has been read (it was
// live across that boundary) or overwritten (it was not). These steps record their accesses
// and skip the arithmetic (ops::accesses_only): which elements a step reads and writes does not
// depend on the values, and the stream is not used after them. A value no step reads again is
// never resolved; it is left when a whole landmark cycle (or, without landmark updates, two
// steps) resolves nothing more, and counts as not live. Any value a variant keeps is read
// again within n steps, when its token leaves the window at the latest: that bounds the wait.
template <class Step>
void look_ahead(std::vector<Liveness>& traces, const Point& p, Step&& step) {
  auto pending = [&] {
    std::int64_t s = 0;
    for (const auto& t : traces) s += t.pending();
    return s;
  };
  for (auto& t : traces) t.mark_pending();
  struct AccessesOnly {  // the look-ahead needs the steps' accesses, not their values
    AccessesOnly() { ops::accesses_only() = true; }
    ~AccessesOnly() { ops::accesses_only() = false; }
  } accesses_only;
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

template <class E>
Cost run(const Point& p, Touched touched) {
  using S = typename E::Scalar;
  const VariantTraits* t = find_variant(p.variant);
  std::mt19937_64 rng(20231122);
  std::normal_distribution<double> normal(0.0, 1.0);

  Config c;
  c.n = p.n;
  c.d = p.d;
  c.m = t->landmarks == LandmarkKind::kNone ? 1 : p.m;
  if (p.stabilised) c.exp_shift = 0.0;  // any C: the count is one subtraction per exp
  if (t->landmarks == LandmarkKind::kFixed) {
    c.fixed_q.resize(c.m, c.d);
    for (std::int64_t i = 0; i < c.fixed_q.size(); ++i) c.fixed_q.data()[i] = 0.5 * normal(rng);
    c.fixed_k = c.fixed_q;
  }
  // q, k and v of a token are three separate rows, as a stream with projections passes them.
  std::vector<S> token(static_cast<std::size_t>(3 * p.d));
  auto next = [&] {
    for (auto& x : token) x = S(0.5 * normal(rng));
    return token.data();
  };
  auto step = [&](MultiHead<E>& mh) {
    const S* x = next();
    return mh.step(x, x + p.d, x + 2 * p.d);
  };

  Cost cost;
  cost.point = p;
  Footprint& footprint = thread_footprint();
  const bool record = touched == Touched::kRecord;
  if (record) footprint.reserve(std::size_t(1) << 14);  // before heap0: not the step's memory
  cost.cycle_steps = t->landmarks == LandmarkKind::kContinual ? p.n : 1;
  std::vector<bool> updated;  // per measured step; reserved before the heap is watched
  updated.reserve(static_cast<std::size_t>(cost.cycle_steps));
  std::vector<Liveness> traces(static_cast<std::size_t>(p.heads), Liveness(sizeof(S)));
  const std::int64_t heap0 = heap::current();
  MultiHead<E> mh(p.variant, c, p.heads, int(p.layers));
  mh.attach(&traces);
  for (std::int64_t i = 0; i < p.n; ++i) step(mh);
  const bool heap_on = heap::enabled();
  if (heap_on) cost.heap_retained_bytes = heap::current() - heap0;
  std::int64_t heap_peak = 0, allocs = 0;
  mh.measure_steps(true);
  for (std::int64_t s = 0; s < cost.cycle_steps; ++s) {
    const OpCounts before = thread_counts();
    heap::reset_peak();
    const std::int64_t a0 = heap::allocations();
    if (record) footprint.start();
    step(mh);
    const std::int64_t bytes = record ? footprint.stop() : 0;
    const OpCounts ops = thread_counts() - before;
    allocs += heap::allocations() - a0;
    heap_peak = std::max(heap_peak, heap::peak() - heap0);
    cost.cycle_total += ops;
    cost.cycle_bytes += bytes;
    updated.push_back(mh.updated_landmarks());
    if (mh.updated_landmarks()) {
      if (cost.update_steps++ == 0 || ops.flops() > cost.update_step.flops()) {
        cost.update_step = ops;
        cost.update_bytes = bytes;
      }
    } else if (cost.plain_steps++ == 0) {
      cost.plain_step = ops;
      cost.plain_bytes = bytes;
    }
  }
  mh.measure_steps(false);
  look_ahead(traces, p, [&] { step(mh); });
  memory_figures(traces, updated, cost);
  if (heap_on) {
    cost.heap_peak_bytes = heap_peak;
    cost.steady_allocations = allocs;
  }
  return cost;
}

}  // namespace

Cost measure(const Point& p, Counting counting, Precision precision, Touched touched) {
  if (std::string why = skip_reason(p); !why.empty()) throw std::invalid_argument(why);
  return with_policy(counting, precision, [&]<class E>() { return run<E>(p, touched); });
}

}  // namespace cosda
