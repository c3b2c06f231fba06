// att: SDA re-run over the window every step: Att(Q,K,V) = D^-1 A V, A = exp(QK^T/sqrt(d)),
// D = diag(A 1) (CoTrans Eq. 1; Nyström Eq. 1). Output n x d in window order. State: the last n
// tokens. Per step: O(n^2 d). One head or heads wider than ops::kSingleQueryMaxWidth: rings by
// row, head by head on one A and D; else (dh = 12 at Table III) head panels, ops h-packet wide.
#pragma once

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "attention/attention.hpp"
#include "attention/families/window.hpp"
#include "attention/ops/heads_attention.hpp"
#include "attention/ops/seam.hpp"

namespace cosda {

const exact::Forms& closed_forms_att();

template <class E>
class Att final : public Attention<E> {
 public:
  using S = typename E::Scalar;
  static constexpr VariantTraits kTraits{.id = "att",
                                         .paper_name = "Att",
                                         .family = Family::kSoftmax,
                                         .single_output = false,
                                         .continual = false,
                                         .landmarks = LandmarkKind::kNone,
                                         .style = {"#000000", 5},
                                         .closed_forms = &closed_forms_att};

  explicit Att(const Config& c, std::int64_t heads = 1)
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
      for (std::int64_t i = 0; i < h_; ++i) attend_head(i, qr_, seen_ % n_, kr_, vr_);
      return true;
    }
    ops::heads_panels_attention<E>(n_, dh_, h_, q_.data(), k_.data(), v_.data(), inv_sqrt_dh_,
                                   seen_ % n_, 0, n_, out_, scratch(0));
    return true;
  }
  MatCRef<S> output() const override { return out_; }

  // output() = Att over a given window in window order (two-block models); rows layout only.
  void attend_window(MatCRef<S> q, MatCRef<S> k, MatCRef<S> v) override {
    if (panels_) throw std::logic_error("att: attend_window needs the layout by rows");
    for (std::int64_t i = 0; i < h_; ++i) attend_head(i, q, 0, k, v);
  }

  // Head panels: query rows shared out among the threads in whole register tiles; rings by row:
  // each head's products split by size (ops::split_products). The same bits either way.
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
      ring_row<E>(vr_, v, seen_);  // keys and values together
      return ++seen_ >= n_;
    }
    const std::int64_t slot = seen_ % n_;
    ops::heads_panels_enter<E>(h_, dh_, n_, q, q_.data(), slot);
    ops::heads_panels_enter<E>(h_, dh_, n_, k, k_.data(), slot);
    ops::heads_panels_enter<E>(h_, dh_, n_, v, v_.data(), slot);
    return ++seen_ >= n_;
  }
  // Head i's columns of out = Att(q, k, v), q's oldest row `oldest`, with a_ and rs_ for A and
  // its row sums  (CoTrans Eq. 1).
  void attend_head(std::int64_t i, MatCRef<S> q, std::int64_t oldest, MatCRef<S> k, MatCRef<S> v) {
    const std::int64_t f = i * dh_;
    const MatRef<S> out = out_.middleCols(f, dh_);
    scale_in_window_order<E>(q.middleCols(f, dh_), oldest, inv_sqrt_dh_, out);
    ops::gemm_nt<E>(out, k.middleCols(f, dh_), a_);  // A = exp(Q K^T / sqrt(d))
    ops::exp_row_sums<E>(a_, rs_.data());            // D = diag(A 1)
    ops::gemm_nn<E>(a_, v.middleCols(f, dh_), out);  // A V
    ops::reciprocals<E>(rs_.data(), rs_.data(), n_);
    ops::scale_rows<E>(out, rs_.data());  // D^-1 A V
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
  std::vector<S> q_, k_, v_;  // the rings in head panels
  Mat<S> qr_, kr_, vr_, a_;   // the rings by row and A (one head, or wide heads)
  std::vector<S> rs_;
  Mat<S> out_;
  std::vector<std::vector<S>> scratch_;
};

}  // namespace cosda
