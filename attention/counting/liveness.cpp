// Liveness's trace: address segments with their value's history, closed values' events, figures.
#include "attention/counting/liveness.hpp"

namespace cosda {

void Liveness::mark_pending() {
  const std::int64_t b = boundaries_.empty() ? 4 * op_ : boundaries_.back();
  pending_ = 0;
  settled_w_ = b + 1;
  op_ = std::max(op_, b / 4);  // the stretch's reads at b + 2: after b, before any later step
  for (auto& [begin, s] : segs_) {
    s.pending = s.w < b && s.r < b;
    if (s.pending) pending_ += std::int64_t(s.end - begin);
  }
  resolving_ = true, seen_ = {};
}

Liveness::Figures Liveness::finish() {
  for (auto& [begin, s] : segs_) close(begin, s);
  segs_.clear();
  last_.size = 0, resolving_ = false;
  order_events();
  Figures f;
  std::int64_t live = 0;
  std::size_t e = 0;
  for (std::int64_t boundary : boundaries_) {  // boundaries are in increasing order
    for (; e < events_.size() && events_[e].first <= boundary; ++e) live += events_[e].second;
    f.valley = std::max(f.valley, live);
  }
  // A step's peak: the live count after all events at each instant inside the step.
  live = 0, e = 0;
  for (const auto& [lo, hi] : steps_) {
    for (; e < events_.size() && events_[e].first < lo; ++e) live += events_[e].second;
    std::int64_t peak = live;
    for (; e < events_.size() && events_[e].first <= hi; ++e) {
      live += events_[e].second;
      if (e + 1 == events_.size() || events_[e + 1].first != events_[e].first)
        peak = std::max(peak, live);
    }
    f.step_peaks.push_back(peak / elem_);
  }

  f.valley /= elem_;
  events_.clear();
  return f;
}

void Liveness::order_events() {
  if (events_.empty()) return;
  const auto [lo, hi] =
      std::minmax_element(events_.begin(), events_.end(),
                          [](const Event& a, const Event& b) { return a.first < b.first; });
  const std::int64_t first = lo->first, span = hi->first - first + 1;
  if (span > 8 * std::int64_t(events_.size())) return std::sort(events_.begin(), events_.end());
  std::vector<std::int64_t, TraceAllocator<std::int64_t>> sums(std::size_t(span), 0);
  for (const auto& [t, bytes] : events_) sums[std::size_t(t - first)] += bytes;
  events_.clear();
  for (std::int64_t i = 0; i < span; ++i)
    if (sums[std::size_t(i)] != 0) events_.emplace_back(first + i, sums[std::size_t(i)]);
}

void Liveness::close(std::uintptr_t begin, const Seg& s) {
  if (s.r == kUnread) return;
  const std::int64_t bytes = std::int64_t(s.end - begin);
  const std::int64_t lo = s.w, hi = s.r;
  if (!steps_.empty() && hi < steps_.front().first) return;  // before every measured step
  if (lo != kOpened) events_.emplace_back(lo, bytes);
  events_.emplace_back(hi + 1, -bytes);
}

void Liveness::apply(std::uintptr_t begin, Seg& s, bool is_write) {
  const std::int64_t bytes = std::int64_t(s.end - begin);
  if (resolving_) {  // a pending value is live if read first, dead if overwritten
    if (s.pending) {
      pending_ -= bytes;
      if (!is_write) s.r = 4 * op_ + 2;
      close(begin, s);
    }
    s = Seg{s.end, settled_w_, kUnread, -1, false};  // settled: no history left to close
    return;
  }
  if (warm_) {  // a value from before the trace, not yet read
    s.w = 0, s.r = kUnread, s.w_op = -1;
    return;
  }
  if (is_write) {
    if (s.w_op == op_) return;  // written again by the same op: one value
    if (s.pending) pending_ -= bytes, s.pending = false;
    close(begin, s);
    const bool in_place = s.r == 4 * op_ + 2;
    s.w = in_place ? 4 * op_ + 3 : 4 * op_ + 1;
    s.r = kUnread;
    s.w_op = op_;
  } else {
    if (s.w_op == op_) return;  // written earlier in this op
    if (s.pending) pending_ -= bytes, s.pending = false;
    s.r = 4 * op_ + 2;
    // Read while measuring, its run ends after the first measured step: its start event goes out
    // now (its writer is past), so values read alike since join (coalesce).
    if (!steps_.empty() && s.w != kOpened)
      events_.emplace_back(s.w, bytes), s.w = kOpened, s.w_op = -1;
  }
}

Liveness::Segs::iterator Liveness::split(Segs::iterator it, std::uintptr_t a) {
  Seg right = it->second;
  it->second.end = a;
  return segs_.emplace_hint(std::next(it), a, right);
}

Liveness::Segs::iterator Liveness::first_after(std::uintptr_t a) {
  for (last_.hit = 0; last_.hit < last_.size; ++last_.hit) {
    auto it = last_.it[std::size_t(last_.hit)];
    if (it->first > a) continue;
    for (int hop = 0; hop < 4 && ++it != segs_.end(); ++hop)
      if (it->first > a) return it;
    if (it == segs_.end()) return it;
  }
  last_.hit = -1;
  return segs_.upper_bound(a);
}

void Liveness::remember(Segs::iterator it) {
  if (last_.hit < 0) last_.hit = last_.size < kFingers ? last_.size++ : last_.evict++ % kFingers;
  last_.it[std::size_t(last_.hit)] = it;
}

void Liveness::access(const void* p, std::int64_t bytes, bool is_write) {
  if (bytes <= 0 || fold_ > 0) return;  // a fused op recorded its operands at its start
  if (warm_ && !is_write) return;
  const auto b = reinterpret_cast<std::uintptr_t>(p), e = b + std::uintptr_t(bytes);
  auto& seen = seen_[(b >> 3) * 0x9e3779b97f4a7c15u >> 56];
  if ((resolving_ || warm_) && seen == std::pair(b, e)) return;
  if (resolving_ || warm_) seen = {b, e};  // left unchanged or settled below
  // Settling (or warming up) what is already in the state it would leave changes nothing.
  const auto unchanged = [&](Segs::iterator s) {
    const Seg& x = s->second;
    return (resolving_ || warm_) && s->first <= b && e <= x.end && !x.pending && x.r == kUnread &&
           x.w_op == -1 && x.w == (resolving_ ? settled_w_ : 0);
  };
  // it: the segment beginning at b (the one containing b split there), else the first after.
  auto it = first_after(b);
  if (it != segs_.begin()) {
    auto prev = std::prev(it);
    if (unchanged(prev)) {
      remember(prev);
      return;
    }
    if (b < prev->second.end) it = prev->first < b ? split(prev, b) : prev;
  }
  std::uintptr_t at = b;
  while (at < e) {
    if (it == segs_.end() || it->first > at) {  // a gap: elements not seen before
      const std::uintptr_t gap_end = it == segs_.end() ? e : std::min(e, it->first);
      // First seen by a read: a value from before the trace; by a write: a new value.
      it = segs_.emplace_hint(it, at, Seg{gap_end, 0, kUnread, -1, resolving_});
      if (resolving_) pending_ += std::int64_t(gap_end - at);
    } else if (e < it->second.end) {  // the last segment reaches past e: split it there
      split(it, e);
    }
    apply(it->first, it->second, is_write);
    at = it->second.end;
    it = coalesce(it);
    remember(it);
    ++it;
  }
}

Liveness::Segs::iterator Liveness::coalesce(Segs::iterator it) {
  if (it == segs_.begin()) return it;
  auto prev = std::prev(it);
  const Seg &l = prev->second, &r = it->second;
  if (l.end == it->first && l.w == r.w && l.r == r.r && l.w_op == r.w_op &&
      l.pending == r.pending) {
    prev->second.end = r.end;
    std::replace(last_.it.begin(), last_.it.begin() + last_.size, it, prev);  // now joined
    segs_.erase(it);
    return prev;
  }
  return it;
}

}  // namespace cosda
