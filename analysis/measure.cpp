#include "analysis/measure.hpp"

#include <algorithm>
#include <random>

#include "analysis/heap.hpp"
#include "analysis/policy.hpp"
#include "attention/footprint.hpp"
#include "attention/multi_head.hpp"

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
  return "";
}

namespace {

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
  std::vector<S> token(static_cast<std::size_t>(p.d));
  auto next = [&] {
    for (auto& x : token) x = S(0.5 * normal(rng));
    return token.data();
  };

  Cost cost;
  cost.point = p;
  Footprint& footprint = thread_footprint();
  const bool record = touched == Touched::kRecord;
  if (record) footprint.reserve(std::size_t(1) << 14);  // before heap0: not the step's memory
  const std::int64_t heap0 = heap::current();
  MultiHead<E> mh(p.variant, c, p.heads, int(p.layers));
  for (std::int64_t i = 0; i < p.n; ++i) {
    const S* x = next();
    mh.step(x, x, x);
  }
  const bool heap_on = heap::enabled();
  if (heap_on) cost.heap_retained_bytes = heap::current() - heap0;
  cost.cycle_steps = t->landmarks == LandmarkKind::kContinual ? p.n : 1;
  std::int64_t heap_peak = 0, allocs = 0;
  for (std::int64_t s = 0; s < cost.cycle_steps; ++s) {
    const S* x = next();
    const OpCounts before = thread_counts();
    mh.reset_peak();
    heap::reset_peak();
    const std::int64_t a0 = heap::allocations();
    if (record) footprint.start();
    mh.step(x, x, x);
    const std::int64_t bytes = record ? footprint.stop() : 0;
    const OpCounts ops = thread_counts() - before;
    allocs += heap::allocations() - a0;
    heap_peak = std::max(heap_peak, heap::peak() - heap0);
    cost.peak = std::max(cost.peak, mh.peak());
    cost.cycle_total += ops;
    cost.cycle_bytes += bytes;
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
  cost.valley = mh.valley();
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
