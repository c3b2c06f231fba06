// The papers' two-block models (Nyström paper Sec. V-A, Fig. 4 b, d; CoTrans Sec. 3.8, Fig. 1),
// SDA only (no projections or feed-forward): a first block of the variant's retroactive (or same)
// kind feeds its n outputs per step to a second block: regular after regular, Nyström after
// Nyström, and for continual families (_si or _re ids alike) single-output after retroactive.
// All the second block's inputs change every step, so it recomputes its whole window; the papers
// cost continual families as first block + one single-output step, and this measures the gap.
// Second blocks: att/ny/ny_fix/rf re-run the window; the last query's row only via co_si's
// attend() for co_*, corf_si's for corf_*, a one-query Nyström core for cony_* (window segment
// means for _cont, the fixed set for _fix).
#pragma once

#include "attention/families/landmarks.hpp"
#include "attention/registry.hpp"

namespace cosda {

// A landmark cycle's settling stretch, when measure() is in one (analysis/measure.cpp). There a
// second block, which recomputes from the first block's output alone, touches what it touched at
// its first step in the stretch, all of it settled since: later steps add that step's counts
// without running it (tests/shortcut_test.cpp holds every figure to the run that executes all).
struct SettlingStretch {
  bool on = false;
  const void* owner = nullptr;  // the second block whose counts these are
  OpCounts counts;
};
inline SettlingStretch& settling_stretch() {
  thread_local SettlingStretch stretch;
  return stretch;
}

template <class E>
class TwoBlock final : public Attention<E> {
 public:
  using S = typename E::Scalar;

  // first: the first block (a variant of kind traits.first_block, built by the caller).
  TwoBlock(const VariantTraits& traits, std::unique_ptr<Attention<E>> first, const Config& c)
      : n_(c.n),
        d_(c.d),
        m_(c.m),
        inv_sqrt_d_(1.0 / std::sqrt(double(c.d))),
        first_(std::move(first)),
        random_features_(traits.family == Family::kRandomFeatures) {
    const bool fixed = traits.landmarks == LandmarkKind::kFixed;
    if (!traits.continual) {  // continual families end in a single-output block
      // The registry's factories: the blocks' kernels compile once, in their own units.
      if (traits.landmarks == LandmarkKind::kNone) window_ = make_att<E>(c);
      if (traits.landmarks == LandmarkKind::kSegmentMeans) window_ = make_ny<E>(c);
      if (fixed) window_ = make_ny_fix<E>(c);
      if (random_features_) window_ = make_rf<E>(c);
    } else if (traits.landmarks == LandmarkKind::kNone) {
      single_ = make_co_si<E>(c);
    } else if (random_features_) {
      single_ = make_corf_si<E>(c);
    } else {
      core_ = std::make_unique<NystromCore<E>>(n_, d_, m_, c.pinv_iterations, c.exact_pinv, 1);
      if (fixed) fixed_ = std::make_unique<FixedLandmarks<E>>(c);
      sizes_ = segment_sizes(n_, m_);
      qt_.resize(m_, d_);
      kt_.resize(m_, d_);
      qs_.resize(1, d_);
      out_.resize(1, d_);
    }
  }

  bool step(const S* q, const S* k, const S* v) override {
    if (!first_->step(q, k, v)) return false;
    if constexpr (E::kCounting && !ops::kScalarLevel<E>) {
      SettlingStretch& s = settling_stretch();
      if (s.on && s.owner == this && thread_chain_tally() == nullptr) {
        E::tally(s.counts);
        return true;
      }
      const OpCounts before = thread_counts();
      second_block(first_->output());
      if (s.on) s.owner = this, s.counts = thread_counts() - before;
    } else {
      second_block(first_->output());
    }
    return true;
  }

  MatCRef<S> output() const override {
    if (window_) return window_->output();
    if (single_) return single_->output();
    return out_;
  }
  bool updated_landmarks() const override { return first_->updated_landmarks(); }
  // The first block's landmarks (the second block's are the window's or the fixed set).
  const Mat<S>* landmarks_q_scaled() const override { return first_->landmarks_q_scaled(); }
  const Mat<S>* landmarks_k() const override { return first_->landmarks_k(); }

 private:
  // The second block on the first block's output y (n x d, window order).
  void second_block(MatCRef<S> y) {
    if (window_)
      window_->attend_window(y, y, y);
    else if (single_ && random_features_)
      static_cast<CoRfSi<E>&>(*single_).attend(y.row(n_ - 1).data(), y, y);
    else if (single_)
      static_cast<CoSi<E>&>(*single_).attend(y.row(n_ - 1).data(), y, y);
    else
      nystrom_single(y);
  }

  // The newest query's row of Att_Ny over the window y, one query through the core.
  void nystrom_single(MatCRef<S> y) {
    const Mat<S>* qt = &qt_;
    const Mat<S>* kt = &kt_;
    const Mat<S>* g = nullptr;
    if (fixed_) {
      qt = &fixed_->qt;
      kt = &fixed_->kt;
      g = &fixed_->g;
    } else {  // segment means of the raw queries and keys; only the means are scaled
      std::int64_t first = 0;
      for (std::int64_t i = 0; i < m_; ++i) {
        segment_mean<E>(y, first, sizes_[i], &qt_(i, 0));
        segment_mean<E>(y, first, sizes_[i], &kt_(i, 0));
        first += sizes_[i];
      }
      ops::scale<E>(qt_, inv_sqrt_d_);
    }
    if (!fixed_) ops::scale_into<E>(y.bottomRows(1), inv_sqrt_d_, qs_);  // fixed: Kt comes scaled
    core_->attend(fixed_ ? y.bottomRows(1) : MatCRef<S>(qs_), y, y, *qt, *kt, g, out_);
  }

  std::int64_t n_, d_, m_;
  S inv_sqrt_d_;
  std::unique_ptr<Attention<E>> first_, window_, single_;  // single_: a CoSi<E> or CoRfSi<E>
  bool random_features_;
  std::unique_ptr<NystromCore<E>> core_;
  std::unique_ptr<FixedLandmarks<E>> fixed_;
  std::vector<std::int64_t> sizes_;
  Mat<S> qt_, kt_, qs_, out_;
};

}  // namespace cosda
