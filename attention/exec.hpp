// Execution policies: how a kernel's arithmetic is run, and whether it is counted.
//
// Every variant is a template over one policy E; the kernel source never changes:
//   Plain<T>  float/double, the timed build. tally() is empty and the ledger is NullLedger,
//             so no counter, no branch and no bookkeeping survives compilation.
//   Tally<T>  the fast counting path: plain arithmetic, and each seam call in ops.hpp adds
//             its exact closed-form count (stated next to the op) to thread_counts().
//   Exact     scalar-level counting: Scalar is Counted, every executed operation counts
//             itself; seam calls run the textbook loops. Tests prove Tally == Exact.
// Tally and Exact also carry a MemLedger for the logical memory model (valley and peak).
#pragma once

#include <Eigen/Core>
#include <algorithm>
#include <cstdint>

#include "attention/counted.hpp"
#include "attention/op_counts.hpp"

namespace cosda {

// Logical memory in elements. hold(): a buffer kept between steps (counts toward the
// valley). acquire()/release(): a buffer live during part of a step. peak() is the most
// elements live at once since the last reset_peak().
class MemLedger {
 public:
  void hold(std::int64_t elems) {
    state_ += elems;
    bump();
  }
  void acquire(std::int64_t elems) {
    live_ += elems;
    bump();
  }
  void release(std::int64_t elems) { live_ -= elems; }
  std::int64_t valley() const { return state_; }
  std::int64_t peak() const { return peak_; }
  std::int64_t live() const { return live_; }
  void reset_peak() { peak_ = state_ + live_; }

 private:
  void bump() { peak_ = std::max(peak_, state_ + live_); }
  std::int64_t state_ = 0;
  std::int64_t live_ = 0;
  std::int64_t peak_ = 0;
};

struct NullLedger {
  void hold(std::int64_t) {}
  void acquire(std::int64_t) {}
  void release(std::int64_t) {}
};

// A buffer live for the enclosing scope of a step.
template <class Ledger>
class Live {
 public:
  Live(Ledger& l, std::int64_t elems) : l_(l), e_(elems) { l_.acquire(e_); }
  ~Live() { l_.release(e_); }
  Live(const Live&) = delete;
  Live& operator=(const Live&) = delete;

 private:
  Ledger& l_;
  std::int64_t e_;
};
template <>
class Live<NullLedger> {
 public:
  Live(NullLedger&, std::int64_t) {}
};

template <class T>
struct Plain {
  using Scalar = T;
  using Ledger = NullLedger;
  static constexpr bool kCounting = false;
  static void tally(const OpCounts&) {}
};

template <class T>
struct Tally {
  using Scalar = T;
  using Ledger = MemLedger;
  static constexpr bool kCounting = true;
  static void tally(const OpCounts& c) { thread_counts() += c; }
};

struct Exact {
  using Scalar = Counted;
  using Ledger = MemLedger;
  static constexpr bool kCounting = true;
  static void tally(const OpCounts&) {}  // Counted counts itself
};

template <class S>
using Mat = Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <class S>
using MatRef = Eigen::Ref<Mat<S>>;
template <class S>
using MatCRef = Eigen::Ref<const Mat<S>>;

}  // namespace cosda
