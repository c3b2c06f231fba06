// att for h heads in one object: every head's Att(Q_i, K_i, V_i) = D_i^-1 A_i V_i over the
// window, A_i = exp(Q_i K_i^T / sqrt(dh)) (CoTrans Eq. 1, per head; Eq. 9 without the
// projections). MultiHead (models/multi_head.hpp) steps this object instead of h Att objects
// in the plain build. Two layouts, by head width:
//  - heads of at most ops::kSingleQueryMaxWidth features (dh = 12 at Table III), h > 1: Q, K
//    and V are rings in head panels (ops::heads_panels_enter), so every product, exponential
//    and sum of the step runs a packet of heads wide (ops::heads_panels_attention); with
//    several threads the query rows are shared out (step_split);
//  - one head, or wider heads: Q, K and V are n x d rings, a token per row, and each head runs
//    Att's six ops (att.hpp) on its columns, one head after another with one A and one D; with
//    several threads the products split by size (step_split).
// The operations are exactly those of h Att heads (tests/heads_test.cpp). Input: q, k, v of
// width d, head i's features at [i dh, (i+1) dh). Output n x d in window order, the heads'
// outputs side by side.
#pragma once

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "attention/attention.hpp"
#include "attention/families/window.hpp"
#include "attention/ops/heads_attention.hpp"
#include "attention/variants/att.hpp"

namespace cosda {

template <class E>
class AttHeads final : public Attention<E> {
 public:
  using S = typename E::Scalar;

  // c.d is the full width; heads must divide it.
  AttHeads(const Config& c, std::int64_t heads)
      : n_(c.n),
        h_(heads),
        dh_(head_width(c, heads)),
        panels_(heads > 1 && dh_ <= ops::kSingleQueryMaxWidth),
        inv_sqrt_dh_(1.0 / std::sqrt(double(dh_))),
        q_(std::size_t(panels_ ? c.n * c.d : 0)),
        k_(q_.size()),
        v_(q_.size()),
        qr_(panels_ ? 0 : c.n, panels_ ? 0 : c.d),
        kr_(qr_.rows(), qr_.cols()),
        vr_(qr_.rows(), qr_.cols()),
        a_(panels_ ? 0 : c.n, panels_ ? 0 : c.n),
        rs_(std::size_t(panels_ ? 0 : c.n)),
        out_(c.n, c.d) {}

  bool step(const S* q, const S* k, const S* v) override {
    if (!enter(q, k, v)) return false;
    if (!panels_) {
      for (std::int64_t i = 0; i < h_; ++i) attend_head(i);
      return true;
    }
    ops::heads_panels_attention<E>(n_, dh_, h_, q_.data(), k_.data(), v_.data(), inv_sqrt_dh_,
                                   seen_ % n_, 0, n_, out_, scratch(0));
    return true;
  }
  MatCRef<S> output() const override { return out_; }

  // Head panels: query rows shared out among the threads in blocks of whole register tiles.
  // Rings by row: each head's products split among the threads by their size
  // (ops::split_products). Either way the same bits.
  bool splits_heads() const override { return true; }
  bool step_split(const S* q, const S* k, const S* v) override {
    if (!panels_) {
      const ops::SplitScope split;
      return step(q, k, v);
    }
    if (!enter(q, k, v)) return false;
    const std::int64_t blocks = (n_ + ops::detail::kAttQueries - 1) / ops::detail::kAttQueries;
    scratch(omp_get_max_threads() - 1);
#pragma omp parallel
    {
      const std::int64_t t = omp_get_thread_num(), threads = omp_get_num_threads();
      const std::int64_t first = std::min(n_, t * blocks / threads * ops::detail::kAttQueries),
                         last = std::min(n_, (t + 1) * blocks / threads * ops::detail::kAttQueries);
      if (last > first)
        ops::heads_panels_attention<E>(n_, dh_, h_, q_.data(), k_.data(), v_.data(), inv_sqrt_dh_,
                                       seen_ % n_, first, last - first, out_,
                                       scratch_[std::size_t(t)].data());
    }
    return true;
  }

 private:
  // The token enters its ring slot; true once the window is full.
  bool enter(const S* q, const S* k, const S* v) {
    if (!panels_) {
      ring_row<E>(qr_, q, seen_);  // no shifting: the queries are put in window order as they
      ring_row<E>(kr_, k, seen_);  // are scaled, and attention is invariant under permuting
      ring_row<E>(vr_, v, seen_);  // keys and values together (att.hpp)
      return ++seen_ >= n_;
    }
    const std::int64_t slot = seen_ % n_;
    ops::heads_panels_enter<E>(h_, dh_, n_, q, q_.data(), slot);
    ops::heads_panels_enter<E>(h_, dh_, n_, k, k_.data(), slot);
    ops::heads_panels_enter<E>(h_, dh_, n_, v, v_.data(), slot);
    return ++seen_ >= n_;
  }
  // Head i by att's six ops on its columns of the rings and the output (CoTrans Eq. 1).
  void attend_head(std::int64_t i) {
    const std::int64_t f = i * dh_;
    attend_rows<E>(qr_.middleCols(f, dh_), kr_.middleCols(f, dh_), vr_.middleCols(f, dh_),
                   seen_ % n_, inv_sqrt_dh_, a_, rs_.data(), out_.middleCols(f, dh_));
  }
  // Thread t's scratch, made for threads 0..t on first use.
  S* scratch(std::int64_t t) {
    while (std::ssize(scratch_) <= t)
      scratch_.emplace_back(std::size_t(ops::heads_attention_scratch<E>(n_, dh_)));
    return scratch_[std::size_t(t)].data();
  }

  std::int64_t n_, h_, dh_, seen_ = 0;
  bool panels_;  // the rings in head panels (short heads, h > 1)
  S inv_sqrt_dh_;
  std::vector<S> q_, k_, v_;
  Mat<S> qr_, kr_, vr_, a_;  // the rings by row and A (one head, or wide heads)
  std::vector<S> rs_;
  Mat<S> out_;
  std::vector<std::vector<S>> scratch_;
};

}  // namespace cosda
