// The part every head-batched kernel that re-runs over its window shares
// (attention/families/nystrom_heads.hpp, attention/variants/rf.hpp): the window's Q, K and V
// as d x n rings (a token per column, head i's features at rows [i dh, (i+1) dh)), and the step, on
// one thread or with the heads shared out among the OpenMP threads (step_split: a range of heads
// each, the token's column stores included, which touch d cache lines the thread then reads;
// the same bits). Derived::attend(first, count) computes heads [first, first + count) over the
// full window, oldest token in ring slot seen() % n.
#pragma once

#include <omp.h>

#include "attention/attention.hpp"
#include "attention/ops/seam.hpp"

namespace cosda {

template <class E, class Derived>
class WindowHeads : public Attention<E> {
 public:
  using S = typename E::Scalar;

  bool step(const S* q, const S* k, const S* v) override {
    const std::int64_t slot = seen_ % n_;
    enter(q, k, v, slot, 0, h_);
    if (++seen_ < n_) return false;
    static_cast<Derived*>(this)->attend(0, h_);
    return true;
  }
  bool splits_heads() const override { return true; }
  bool step_split(const S* q, const S* k, const S* v) override {
    const std::int64_t slot = seen_ % n_;
    const bool ready = ++seen_ >= n_;
#pragma omp parallel
    {
      const std::int64_t t = omp_get_thread_num(), threads = omp_get_num_threads();
      const std::int64_t first = t * h_ / threads, count = (t + 1) * h_ / threads - first;
      enter(q, k, v, slot, first, count);
      if (ready && count > 0) static_cast<Derived*>(this)->attend(first, count);
    }
    return ready;
  }

 protected:
  // n tokens of d features in h heads; heads must divide d (head_width). rings: whether the
  // d x n rings are kept (a Derived that steps one head its own way needs none).
  WindowHeads(const Config& c, std::int64_t heads, bool rings = true)
      : n_(c.n),
        h_(heads),
        dh_(head_width(c, heads)),
        q_(rings ? c.d : 0, rings ? c.n : 0),
        k_(q_.rows(), q_.cols()),
        v_(q_.rows(), q_.cols()) {}

  // The tokens entered so far: the window's oldest is in ring slot seen() % n.
  std::int64_t seen() const { return seen_; }

  std::int64_t n_, h_, dh_;
  Mat<S> q_, k_, v_;
  std::int64_t seen_ = 0;

 private:
  // The token's features of heads [first, first + count) enter ring slot `slot`.
  void enter(const S* q, const S* k, const S* v, std::int64_t slot, std::int64_t first,
             std::int64_t count) {
    const std::int64_t f = first * dh_, w = count * dh_;
    ops::copy_to_column<E>(q + f, q_.middleRows(f, w), slot);
    ops::copy_to_column<E>(k + f, k_.middleRows(f, w), slot);
    ops::copy_to_column<E>(v + f, v_.middleRows(f, w), slot);
  }
};

}  // namespace cosda
