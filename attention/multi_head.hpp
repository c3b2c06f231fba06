// h heads of one variant (or its two-block model) side by side (CoTrans Eq. 9 without the
// projections): the token's d features are split into h slices of d/h, each fed to its own head;
// outputs are concatenated along features. Heads run in parallel with OpenMP in the plain build
// when there are several heads and threads. Counting policies run them one after another (the
// counters are per thread), and so does the plain build with one head or one thread: entering a
// parallel region, even on one thread, can cost more than a whole small step
// (docs/performance.md). Counts and logical memory are summed over heads: heads running in
// parallel are all live at once.
#pragma once

#include <omp.h>

#include <algorithm>
#include <vector>

#include "attention/liveness.hpp"
#include "attention/registry.hpp"

namespace cosda {

template <class E>
class MultiHead {
 public:
  using S = typename E::Scalar;

  // c.d is the full width; it must be divisible by heads. Fixed landmarks in c are m x d and
  // are sliced per head likewise.
  MultiHead(std::string_view id, const Config& c, std::int64_t heads, int layers = 1)
      : h_(heads), dh_(0) {
    require(heads >= 1 && c.d % heads == 0, "heads must divide d");
    dh_ = c.d / heads;
    const VariantTraits* t = find_variant(id);
    if (t == nullptr)
      throw std::invalid_argument("unknown variant '" + std::string(id) +
                                  "'; known: " + variant_list());
    rows_ = (layers == 2 ? t->continual : t->single_output) ? 1 : c.n;  // see two_block.hpp
    for (std::int64_t i = 0; i < heads; ++i) {
      Config hc = c;
      hc.d = dh_;
      if (c.fixed_q.size() > 0) {
        hc.fixed_q = c.fixed_q.middleCols(i * dh_, dh_);
        hc.fixed_k = c.fixed_k.middleCols(i * dh_, dh_);
      }
      heads_.push_back(make_model<E>(id, hc, layers));
    }
    out_.resize(rows_, c.d);
  }

  bool step(const S* q, const S* k, const S* v) {
    bool ready = false;
    if constexpr (!E::kCounting) {
      if (h_ > 1 && omp_get_max_threads() > 1 && !omp_in_parallel()) {
#pragma omp parallel for reduction(|| : ready)
        for (std::int64_t i = 0; i < h_; ++i) ready = head_step(i, q, k, v) || ready;
        return ready;
      }
    }
    for (std::int64_t i = 0; i < h_; ++i) ready = head_step(i, q, k, v) || ready;
    return ready;
  }

  MatCRef<S> output() const { return h_ > 1 ? MatCRef<S>(out_) : heads_[0]->output(); }
  bool updated_landmarks() const { return heads_[0]->updated_landmarks(); }
  Attention<E>& head(std::int64_t i) { return *heads_[i]; }
  std::int64_t heads() const { return h_; }

  // Logical memory (counting policies; attention/liveness.hpp): with traces attached, one per
  // head, each head's seam ops report to its own trace, its input token written at the step's
  // start and its output read at the step's end. Heads side by side are all live at once, so
  // their figures add. measured: whether the steps from now on are the ones measured.
  void attach(std::vector<Liveness>* traces) { traces_ = traces; }
  void measure_steps(bool measured) { measured_ = measured; }

 private:
  // Head i's step, and its output copied into its columns of the concatenation while it is
  // still in this core's cache.
  bool head_step(std::int64_t i, const S* q, const S* k, const S* v) {
    const bool ready = traces_ != nullptr ? traced_step(i, q + i * dh_, k + i * dh_, v + i * dh_)
                                          : heads_[i]->step(q + i * dh_, k + i * dh_, v + i * dh_);
    if (ready && h_ > 1) {
      const MatCRef<S> o = heads_[i]->output();
      for (std::int64_t r = 0; r < rows_; ++r)
        std::copy_n(o.row(r).data(), dh_, out_.row(r).data() + i * dh_);
    }
    return ready;
  }

  bool traced_step(std::int64_t i, const S* q, const S* k, const S* v) {
    if constexpr (!E::kCounting) {
      return heads_[i]->step(q, k, v);
    } else {
      Liveness& l = (*traces_)[static_cast<std::size_t>(i)];
      const std::int64_t bytes = dh_ * std::int64_t(sizeof(S));
      thread_liveness() = &l;
      l.begin_step(measured_);
      l.write(q, bytes), l.write(k, bytes), l.write(v, bytes);
      const bool ready = heads_[i]->step(q, k, v);
      l.end_step();
      if (ready) {
        const MatCRef<S> o = heads_[i]->output();
        for (std::int64_t r = 0; r < o.rows(); ++r)
          l.read(o.row(r).data(), o.cols() * std::int64_t(sizeof(S)));
      }
      thread_liveness() = nullptr;
      return ready;
    }
  }

  std::vector<Liveness>* traces_ = nullptr;
  bool measured_ = false;
  std::int64_t h_, dh_, rows_ = 0;
  std::vector<std::unique_ptr<Attention<E>>> heads_;
  Mat<S> out_;
};

}  // namespace cosda
