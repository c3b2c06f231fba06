// The Q, K, V rings and step of kernels re-running over the window (rf, ny, ny_fix). One head:
// n x d rings by row, the step and attend_window Derived::attend_rows (products split by thread).
// h > 1: d x n rings, the step Derived::attend(first, count) over heads [first, first + count),
// all on one thread or a range each (step_split; a thread stores the token columns it then reads).
// The oldest token is in ring slot seen() % n: Derived puts the queries in window order; keys and
// values enter order-free sums (or segment means from the oldest slot).
#pragma once

#include <omp.h>

#include <stdexcept>

#include "attention/attention.hpp"
#include "attention/families/window.hpp"
#include "attention/ops/seam.hpp"

namespace cosda {

template <class E, class Derived>
class WindowHeads : public Attention<E> {
 public:
  using S = typename E::Scalar;

  bool step(const S* q, const S* k, const S* v) override {
    if (h_ == 1) {
      ring_row<E>(qr_, q, seen_);
      ring_row<E>(kr_, k, seen_);
      ring_row<E>(vr_, v, seen_);
      if (++seen_ < n_) return false;
      derived().attend_rows(qr_, kr_, vr_, seen_ % n_);
      return true;
    }
    const std::int64_t slot = seen_ % n_;
    enter(q, k, v, slot, 0, h_);
    if (++seen_ < n_) return false;
    derived().attend(0, h_);
    return true;
  }
  bool splits_heads() const override { return h_ > 1; }
  bool step_split(const S* q, const S* k, const S* v) override {
    if (h_ == 1) {
      const ops::SplitScope split;
      return step(q, k, v);
    }
    const std::int64_t slot = seen_ % n_;
    const bool ready = ++seen_ >= n_;
#pragma omp parallel
    {
      const std::int64_t t = omp_get_thread_num(), threads = omp_get_num_threads();
      const std::int64_t first = t * h_ / threads, count = (t + 1) * h_ / threads - first;
      enter(q, k, v, slot, first, count);
      if (ready && count > 0) derived().attend(first, count);
    }
    return ready;
  }
  // One head: output() = Derived's attention of a window (q, k, v by rows, in window order).
  void attend_window(MatCRef<S> q, MatCRef<S> k, MatCRef<S> v) override {
    if (h_ != 1) throw std::logic_error("attend_window is one head's");
    derived().attend_rows(q, k, v, 0);
  }

 protected:
  // n tokens of d features in h heads; heads must divide d (head_width).
  WindowHeads(const Config& c, std::int64_t heads)
      : n_(c.n),
        h_(heads),
        dh_(head_width(c, heads)),
        q_(of_heads(c.d), of_heads(c.n)),
        k_(q_.rows(), q_.cols()),
        v_(q_.rows(), q_.cols()),
        qr_(of_one_head(c.n), c.d),
        kr_(qr_.rows(), qr_.cols()),
        vr_(qr_.rows(), qr_.cols()) {}

  // The tokens entered so far: the window's oldest is in ring slot seen() % n.
  std::int64_t seen() const { return seen_; }
  // The size r of a buffer that only one head (of_one_head) or only h > 1 (of_heads) keeps.
  std::int64_t of_one_head(std::int64_t r) const { return h_ > 1 ? 0 : r; }
  std::int64_t of_heads(std::int64_t r) const { return h_ > 1 ? r : 0; }

  std::int64_t n_, h_, dh_;
  Mat<S> q_, k_, v_;  // h > 1: d x n

 private:
  Derived& derived() { return static_cast<Derived&>(*this); }

  // h > 1: the token's features of heads [first, first + count) enter ring slot `slot`.
  void enter(const S* q, const S* k, const S* v, std::int64_t slot, std::int64_t first,
             std::int64_t count) {
    const std::int64_t f = first * dh_, w = count * dh_;
    ops::copy_to_column<E>(q + f, q_.middleRows(f, w), slot);
    ops::copy_to_column<E>(k + f, k_.middleRows(f, w), slot);
    ops::copy_to_column<E>(v + f, v_.middleRows(f, w), slot);
  }

  Mat<S> qr_, kr_, vr_;  // one head: n x d
  std::int64_t seen_ = 0;
};

}  // namespace cosda
