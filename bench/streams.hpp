// What a cosda-bench case steps: a warmed-up Plain<T> model of the case's variant, or the
// plain-Eigen ring peer, fed from a pool of seeded tokens (q = k = v = token).
#pragma once

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analysis/policy.hpp"
#include "bench/bench_case.hpp"
#include "bench/plain_ring.hpp"
#include "models/multi_head.hpp"

namespace cosda::bench {

// The tokens every stream of a case is fed, the model's and the ring peer's alike.
template <class T>
Mat<T> token_pool(const Case& c) {
  return seeded_tokens<T>(97, c.shape->d, 7);
}

class StreamBase {
 public:
  virtual ~StreamBase() = default;
  virtual void step() = 0;
  virtual bool next_is_update() const = 0;
  virtual std::int64_t cycle() const = 0;
  virtual bool has_plain_steps() const = 0;
  std::int64_t steps() const { return fed_; }
  virtual std::int64_t parallel_steps() const { return 0; }  // of steps(), on several threads

 protected:
  std::int64_t fed_ = 0;  // tokens fed (steps taken, warm-up included): the next pool row
};

template <class T>
class Stream final : public StreamBase {
 public:
  explicit Stream(const Case& c) : n_(c.shape->n), pool_(token_pool<T>(c)) {
    mh_.emplace(c.variant, config(c), c.shape->heads);
    for (std::int64_t i = 0; i < n_; ++i) feed();  // warm-up: the first output primes
    if (find_variant(c.variant)->landmarks == LandmarkKind::kContinual) {
      updates_.resize(std::size_t(n_));  // one whole cycle: which steps update a landmark
      for (std::int64_t i = 0; i < n_; ++i) {
        feed();
        updates_[std::size_t(i)] = mh_->updated_landmarks();
      }
    }
  }
  void step() override {
    feed();
    phase_ = (phase_ + 1) % n_;
  }
  bool next_is_update() const override {
    return !updates_.empty() && updates_[std::size_t(phase_)];
  }
  std::int64_t cycle() const override { return n_; }
  bool has_plain_steps() const override {
    return std::find(updates_.begin(), updates_.end(), false) != updates_.end();
  }
  std::int64_t parallel_steps() const override { return mh_->parallel_steps(); }

 private:
  static Config config(const Case& c) {
    Config k;
    k.n = c.shape->n;
    k.d = c.shape->d;
    k.m = find_variant(c.variant)->landmarks == LandmarkKind::kNone ? 1 : c.shape->m;
    if (find_variant(c.variant)->landmarks == LandmarkKind::kFixed) {
      k.fixed_q = k.fixed_k = seeded_tokens<double>(k.m, k.d, 11);
    }
    return k;
  }
  void feed() {
    const T* x = &pool_(fed_++ % pool_.rows(), 0);
    mh_->step(x, x, x);
  }

  std::int64_t n_, phase_ = 0;
  std::optional<MultiHead<Plain<T>>> mh_;
  Mat<T> pool_;
  std::vector<bool> updates_;
};

// A warmed-up plain-Eigen ring fed the same tokens, its outputs checked against its partner's on
// that stream (n warm-up tokens and two windows more) before it is timed.
template <class T>
class RingStream final : public StreamBase {
 public:
  explicit RingStream(const Case& c)
      : n_(c.shape->n), ring_(c.shape->n, c.shape->d, c.shape->heads), pool_(token_pool<T>(c)) {
    PlainRing<T> checked(c.shape->n, c.shape->d, c.shape->heads);
    check_against_partner(checked, c.shape->n, c.shape->d, c.shape->heads, pool_, 3 * n_,
                          c.single ? 1e-4 : 1e-10);
    for (std::int64_t i = 0; i < n_; ++i) step();
  }
  void step() override {
    const T* x = &pool_(fed_++ % pool_.rows(), 0);
    ring_.step(x, x, x);
  }
  bool next_is_update() const override { return false; }
  std::int64_t cycle() const override { return n_; }
  bool has_plain_steps() const override { return false; }

 private:
  std::int64_t n_;
  PlainRing<T> ring_;
  Mat<T> pool_;
};

// The stream of the case being run; kept across the calls Google Benchmark makes for one
// benchmark (iteration probes, repetitions) and across thread settings and step kinds.
inline StreamBase& stream_for(const Case& c) {
  static std::unique_ptr<StreamBase> current;
  static std::string key;
  if (key != c.stream_key()) {
    current.reset();
    key = c.stream_key();
    current = with_plain(c.single ? Precision::kFloat : Precision::kDouble,
                         [&]<class E>() -> std::unique_ptr<StreamBase> {
                           using T = typename E::Scalar;
                           if (c.ring) return std::make_unique<RingStream<T>>(c);
                           return std::make_unique<Stream<T>>(c);
                         });
  }
  return *current;
}

}  // namespace cosda::bench
