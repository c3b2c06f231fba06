// h heads of one variant (or its two-block model) side by side (CoTrans Eq. 9 without the
// projections): the token's d features split into h slices of d/h, outputs concatenated.
// Several threads, plain build: heads run in parallel, or one head's large products split by size
// (split_step), only where steady-state steps time that faster (chosen_step).
// Counting policies run heads one after another (counters are per thread). Counts and logical
// memory are summed over heads, all live at once. Variants with a head-batched kernel
// (make_batched) run all heads in one object under every policy, with the same operations: the
// object counted and traced (one trace) is the object timed.
#pragma once

#include <omp.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <memory>
#include <string_view>
#include <vector>

#include "attention/counting/liveness.hpp"
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
    dh_ = head_width(c, heads);
    const VariantTraits& t = variant(id);  // std::invalid_argument naming the known ids
    rows_ = (layers == 2 ? t.continual : t.single_output) ? 1 : c.n;  // see two_block.hpp
    batched_ = make_batched<E>(id, c, heads, layers);  // every policy: what is counted is timed
    if (batched_) return;
    for (std::int64_t i = 0; i < heads; ++i) {
      heads_.push_back(make_model<E>(id, head_config(c, heads, i), layers));
    }
    out_.resize(rows_, c.d);
  }

  bool step(const S* q, const S* k, const S* v) {
    if constexpr (!E::kCounting) {
      if (batched_ && !batched_->splits_heads()) return batched_->step(q, k, v);
      if (!omp_in_parallel()) {
        const int threads = omp_get_max_threads();
        if (threads > 1) return chosen_step(threads, q, k, v);
      }
    }
    return serial_step(q, k, v);
  }

  MatCRef<S> output() const {
    if (batched_) return batched_->output();
    return h_ > 1 ? MatCRef<S>(out_) : heads_[0]->output();
  }
  bool updated_landmarks() const { return first().updated_landmarks(); }
  bool batched() const { return batched_ != nullptr; }
  // The objects stepped, each with its own trace when attached: one batched object, or h heads.
  std::int64_t objects() const { return batched_ ? 1 : h_; }
  const Attention<E>& object(std::int64_t i) const { return batched_ ? *batched_ : *heads_[i]; }
  // Steps taken on several threads so far (parallel heads or split products), for cosda-bench.
  std::int64_t parallel_steps() const { return parallel_steps_; }
  // The thread choice's trials (chosen_step): 2 kTrials steps, blocks of kBlock each way; one
  // head's first choice: kWindow split steps, then kBlock serial ones (kTrialSteps: the longer
  // plan). Parallel steps are timed in windows of kWindow.
  static constexpr std::size_t kTrials = 15, kBlock = 5, kWindow = 64;
  static constexpr std::size_t kTrialSteps = std::max(2 * kTrials, kWindow + kBlock);

  // Logical memory (counting policies): one trace per object stepped (objects()), its token
  // written at the step's start and its output read at its end; heads are all live at once, so
  // their figures add. measured: whether the steps from now on are the ones measured.
  void attach(std::vector<Liveness>* traces) { traces_ = traces; }
  void measure_steps(bool measured) { measured_ = measured; }

 private:
  const Attention<E>& first() const { return batched_ ? *batched_ : *heads_[0]; }

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

  bool serial_step(const S* q, const S* k, const S* v) {
    if (batched_)
      return traces_ != nullptr ? traced(*batched_, 0, q, k, v) : batched_->step(q, k, v);
    bool ready = false;
    for (std::int64_t i = 0; i < h_; ++i) ready = head_step(i, q, k, v) || ready;
    return ready;
  }

  // Heads in parallel (a batched object's shared out among the threads); one head with its
  // large products split among the threads.
  bool parallel_step(const S* q, const S* k, const S* v) {
    if (h_ == 1 && !batched_) return split_step(q, k, v);
    ++parallel_steps_;
    if (batched_) return batched_->step_split(q, k, v);
    bool ready = false;
#pragma omp parallel for reduction(|| : ready)
    for (std::int64_t i = 0; i < h_; ++i) ready = head_step(i, q, k, v) || ready;
    return ready;
  }

  // One head's parallel step: products large enough are split by their size
  // (ops::product_threads); a step that split one counts as parallel.
  bool split_step(const S* q, const S* k, const S* v) {
    const ops::SplitScope split;
    const std::int64_t before = ops::split_count();
    const bool ready = head_step(0, q, k, v);
    parallel_steps_ += ops::split_count() != before;
    return ready;
  }

  // Parallel only where that pays (a small step's fork and join cost more than a core saves; a
  // split product waits on a core another process holds): the first steady-state steps time both
  // ways on the wall clock (trial_parallel), and parallel must beat the serial median
  // (parallel_wins). Parallel steps stay timed: a kWindow window kParallelMargin slower than the
  // serial median reverts to serial, retimed after retime_: kRetime, doubled (up to kRetimeMax)
  // each time trials keep serial again, so a lasting load pays few trials. The same bits.
  bool chosen_step(int threads, const S* q, const S* k, const S* v) {
    if (threads != choice_threads_) {  // new thread count: time both ways again
      choice_threads_ = threads;
      trials_ = 0, trial_parallel_steps_ = parallel_steps_;
      was_ready_ = retimed_ = false;
    }
    if (trials_ == trial_steps()) return chosen_way(q, k, v);
    const bool parallel = trial_parallel(trials_);
    const auto t0 = Clock::now();
    const bool ready = parallel ? parallel_step(q, k, v) : serial_step(q, k, v);
    const double t = std::chrono::duration<double>(Clock::now() - t0).count();
    if (ready && was_ready_) {  // a steady-state step (the first output primes)
      trial_seconds_[std::size_t(trials_)] = t;
      if (++trials_ == trial_steps()) {
        parallel_ = parallel_wins();
        retime_ = parallel_ || !retimed_ ? Clock::duration(kRetime)
                                         : std::min<Clock::duration>(2 * retime_, kRetimeMax);
        chosen_at_ = Clock::now();
        window_seconds_ = 0, window_steps_ = 0;
      }
    }
    was_ready_ = ready;
    return ready;
  }

  // A step the chosen way: parallel steps timed by windows, serial ones timed again after
  // retime_ (the clock looked at every 128 steps).
  bool chosen_way(const S* q, const S* k, const S* v) {
    if (!parallel_) {
      if (++window_steps_ % 128 == 0 && Clock::now() - chosen_at_ > retime_)
        trials_ = 0, trial_parallel_steps_ = parallel_steps_, retimed_ = true;
      return serial_step(q, k, v);
    }
    const auto t0 = Clock::now();
    const bool ready = parallel_step(q, k, v);
    window_seconds_ += std::chrono::duration<double>(Clock::now() - t0).count();
    if (++window_steps_ == std::int64_t(kWindow)) {
      if (window_seconds_ > (1 + kParallelMargin) * double(kWindow) * serial_median_) {
        parallel_ = false;
        chosen_at_ = Clock::now();
      }
      window_seconds_ = 0, window_steps_ = 0;
    }
    return ready;
  }

  // The trials: 2 kTrials steps in kBlock-step blocks, serial first. One head's first choice
  // splits kWindow steps before a serial block: a stream's first steps (and a benchmark's run of
  // steps of tens of milliseconds) split as their size alone would have them.
  bool split_first() const { return h_ == 1 && !batched_ && !retimed_; }
  std::size_t trial_steps() const { return split_first() ? kWindow + kBlock : 2 * kTrials; }
  bool trial_parallel(std::size_t i) const {
    return split_first() ? i < kWindow : i / kBlock % 2 == 1;
  }

  // Median parallel step below (1 - kParallelMargin) times the median serial one, the first
  // step of every block left out: it moves the heads' data between the cores. One head's first
  // choice keeps its split unless serial steps are faster: size alone chose it (product_threads).
  // Trials whose parallel steps all ran on one thread (one head's products all small) keep serial:
  // the same code, without timing every step.
  bool parallel_wins() {
    std::vector<double> serial, parallel;
    for (std::size_t i = 1; i < trial_steps(); ++i)
      if (trial_parallel(i) == trial_parallel(i - 1))
        (trial_parallel(i) ? parallel : serial).push_back(trial_seconds_[i]);
    const auto median = [](std::vector<double>& x) {
      std::nth_element(x.begin(), x.begin() + std::ssize(x) / 2, x.end());
      return x[x.size() / 2];
    };
    serial_median_ = median(serial);
    if (parallel_steps_ == trial_parallel_steps_) return false;
    return median(parallel) < (1 - (split_first() ? 0 : kParallelMargin)) * serial_median_;
  }

  using Clock = std::chrono::steady_clock;
  static constexpr double kParallelMargin = 0.1;
  static constexpr std::chrono::seconds kRetime{1}, kRetimeMax{64};

  bool traced_step(std::int64_t i, const S* q, const S* k, const S* v) {
    return traced(*heads_[i], i, q, k, v);
  }
  // obj's step with trace i attached: its token (one head's width, or all heads' when batched)
  // written at the step's start, its output read at its end.
  bool traced(Attention<E>& obj, std::int64_t i, const S* q, const S* k, const S* v) {
    if constexpr (!E::kCounting) {
      return obj.step(q, k, v);
    } else {
      Liveness& l = (*traces_)[static_cast<std::size_t>(i)];
      const std::int64_t bytes = (batched_ ? h_ * dh_ : dh_) * std::int64_t(sizeof(S));
      thread_liveness() = &l;
      l.begin_step(measured_);
      l.write(q, bytes), l.write(k, bytes), l.write(v, bytes);
      const bool ready = obj.step(q, k, v);
      l.end_step();
      if (ready) read_output(l, obj.output());
      thread_liveness() = nullptr;
      return ready;
    }
  }

  // The output read at the step's end, its rows as one range where they are adjacent in memory:
  // one read of a range at one op time is the reads of its parts (retroactive outputs have n rows).
  static void read_output(Liveness& l, MatCRef<S> o) {
    const std::int64_t row_bytes = o.cols() * std::int64_t(sizeof(S));
    if (o.rows() <= 1 || o.outerStride() == o.cols()) return l.read(o.data(), o.rows() * row_bytes);
    for (std::int64_t r = 0; r < o.rows(); ++r) l.read(o.row(r).data(), row_bytes);
  }

  std::vector<Liveness>* traces_ = nullptr;
  bool measured_ = false;
  std::int64_t h_, dh_, rows_ = 0, parallel_steps_ = 0;
  std::vector<std::unique_ptr<Attention<E>>> heads_;
  std::unique_ptr<Attention<E>> batched_;  // all heads in one object (make_batched), or null
  Mat<S> out_;
  int choice_threads_ = 0;  // the thread count parallel_ was chosen for (0: none yet)
  std::size_t trials_ = 0;
  std::int64_t trial_parallel_steps_ = 0;  // parallel_steps_ when the trials began
  std::int64_t window_steps_ = 0;          // steps since the choice or the last window
  double window_seconds_ = 0, serial_median_ = 0;
  Clock::time_point chosen_at_{};
  Clock::duration retime_ = kRetime;
  bool was_ready_ = false, parallel_ = false;
  bool retimed_ = false;  // the trials after the first choice: heads' plan for one head too
  std::array<double, kTrialSteps> trial_seconds_{};
};

}  // namespace cosda
