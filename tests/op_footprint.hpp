// The op-footprint check (tests/op_footprint_test.cpp): a scalar that observes every element
// it reads or writes, a policy that runs the seam's textbook loops on it and sees the seam's
// memory record (attention/ops/core.hpp: in, out, inout), and a checker comparing the two.
#pragma once

#include <Eigen/Core>
#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "attention/exec.hpp"
#include "attention/ops/core.hpp"

namespace cosda::footprint_probe {

// An element of a watched buffer: (buffer number, element index).
using Element = std::pair<int, std::int64_t>;

// What one op run touched and recorded, per element. Reads follow the liveness trace's rule
// (attention/counting/liveness.hpp): a read of an element the same op (begin_op to begin_op) wrote
// earlier is the op's own business, not a read of its operand.
struct Watch {
  std::vector<std::pair<const char*, const char*>> buffers;  // [begin, end) of each
  std::vector<std::string> names;
  std::set<Element> read, written, rec_read, rec_written, written_this_op;
  std::int64_t unknown_records = 0;  // recorded bytes outside every watched buffer
  int fold = 0;

  // The element at address p, or buffer -1 when p lies in no watched buffer.
  Element at(const void* p, std::int64_t size) const;
  void on_read(const void* p, std::int64_t size);
  void on_write(const void* p, std::int64_t size);
  void on_record(const void* p, std::int64_t bytes, ops::Access a);
};
inline Watch*& thread_watch() {
  thread_local Watch* w = nullptr;
  return w;
}

// A double whose reads (copies from it, operands of its arithmetic, value()) and writes
// (assignments, compound assignments: a read and a write) report the element's address.
class Probe {
 public:
  Probe() = default;
  explicit Probe(double v) : v_(v) {}
  Probe(const Probe& o) : v_(o.get()) {}
  Probe& operator=(const Probe& o) {
    const double v = o.get();
    return put(v);
  }
  ~Probe() = default;

  double get() const {
    if (Watch* w = thread_watch()) w->on_read(this, sizeof(Probe));
    return v_;
  }
  Probe& put(double v) {
    if (Watch* w = thread_watch()) w->on_write(this, sizeof(Probe));
    v_ = v;
    return *this;
  }
  double raw() const { return v_; }  // unobserved: filling and checking buffers

  friend Probe operator+(const Probe& a, const Probe& b) { return Probe(a.get() + b.get()); }
  friend Probe operator-(const Probe& a, const Probe& b) { return Probe(a.get() - b.get()); }
  friend Probe operator*(const Probe& a, const Probe& b) { return Probe(a.get() * b.get()); }
  friend Probe operator/(const Probe& a, const Probe& b) { return Probe(a.get() / b.get()); }
  friend Probe operator-(const Probe& a) { return Probe(-a.get()); }
  Probe& operator+=(const Probe& b) { return put(get() + b.get()); }
  Probe& operator-=(const Probe& b) { return put(get() - b.get()); }
  Probe& operator*=(const Probe& b) { return put(get() * b.get()); }
  Probe& operator/=(const Probe& b) { return put(get() / b.get()); }
  friend bool operator<(const Probe& a, const Probe& b) { return a.get() < b.get(); }
  friend bool operator>(const Probe& a, const Probe& b) { return a.get() > b.get(); }
  friend bool operator<=(const Probe& a, const Probe& b) { return a.get() <= b.get(); }
  friend bool operator>=(const Probe& a, const Probe& b) { return a.get() >= b.get(); }
  friend bool operator==(const Probe& a, const Probe& b) { return a.get() == b.get(); }
  friend bool operator!=(const Probe& a, const Probe& b) { return a.get() != b.get(); }
  friend Probe exp(const Probe& a) { return Probe(std::exp(a.get())); }
  friend Probe sqrt(const Probe& a) { return Probe(std::sqrt(a.get())); }
  friend Probe abs(const Probe& a) { return Probe(std::fabs(a.get())); }
  friend Probe max(const Probe& a, const Probe& b) { return a < b ? b : a; }
  friend bool isfinite(const Probe& a) { return std::isfinite(a.get()); }
  friend double value(const Probe& a) { return a.get(); }

 private:
  double v_ = 0.0;
};

}  // namespace cosda::footprint_probe

namespace Eigen {
template <>
struct NumTraits<cosda::footprint_probe::Probe> : NumTraits<double> {
  using P = cosda::footprint_probe::Probe;
  using Real = P;
  using NonInteger = P;
  using Nested = P;
  using Literal = P;
  enum {
    IsComplex = 0,
    IsInteger = 0,
    IsSigned = 1,
    RequireInitialization = 1,
    ReadCost = 1,
    AddCost = 1,
    MulCost = 1
  };
  static inline P epsilon() { return P(NumTraits<double>::epsilon()); }
  static inline P dummy_precision() { return P(NumTraits<double>::dummy_precision()); }
  static inline P highest() { return P(NumTraits<double>::highest()); }
  static inline P lowest() { return P(NumTraits<double>::lowest()); }
  static inline int digits10() { return NumTraits<double>::digits10(); }
};
}  // namespace Eigen

namespace cosda::footprint_probe {

// The policy: Exact's textbook loops (kScalarLevel) on Probe, the record seen through the
// seam's watch hooks.
struct Watched {
  using Scalar = Probe;
  static constexpr bool kCounting = true;
  static constexpr bool kScalarLevel = true;
  static void tally(const OpCounts&) {}
  static void watch_begin() {
    if (Watch* w = thread_watch(); w != nullptr && w->fold == 0) w->written_this_op.clear();
  }
  static void watch_fold(int delta) {
    if (Watch* w = thread_watch()) w->fold += delta;
  }
  static void watch(const void* p, std::int64_t bytes, ops::Access a) {
    if (Watch* w = thread_watch(); w != nullptr && w->fold == 0) w->on_record(p, bytes, a);
  }
};

using P = Probe;
using M = Mat<P>;
// The exponent shift off and on, for the ops that take one.
inline const ops::Shift<P> kOff{}, kOn{true, P(0.25)};

// The operands of one op run: buffers filled with distinct values, watched while the op runs.
class Bench {
 public:
  // A named rows x cols buffer (a vector when cols is 1), filled before watching starts.
  M& mat(const std::string& name, std::int64_t rows, std::int64_t cols = 1, double base = 0.1);
  P* vec(const std::string& name, std::int64_t n, double base = 0.1) {
    return mat(name, n, 1, base).data();
  }
  // A scratch buffer of the op (a work area): its record may name more writes than the
  // textbook loop makes, the whole packets and query blocks of the fast path, since a value
  // written and never read is never live (attention/counting/liveness.hpp). Its reads, and writes
  // not recorded, are checked as any operand's.
  P* scratch(const std::string& name, std::int64_t n) {
    scratch_.push_back(int(mats_.size()));
    return vec(name, n);
  }
  M& scratch(const std::string& name, std::int64_t rows, std::int64_t cols) {
    scratch_.push_back(int(mats_.size()));
    return mat(name, rows, cols);
  }
  // Runs f with the buffers watched; returns the mismatches, one line each (empty: exact).
  template <class F>
  std::vector<std::string> check(F&& f) {
    Watch w;
    for (std::size_t b = 0; b < mats_.size(); ++b) {
      const char* p = reinterpret_cast<const char*>(mats_[b]->data());
      w.buffers.emplace_back(p, p + mats_[b]->size() * sizeof(P));
      w.names.push_back(names_[b]);
    }
    thread_watch() = &w;
    f();
    thread_watch() = nullptr;
    return compare(w);
  }

 private:
  std::vector<std::string> compare(const Watch& w) const;
  std::vector<std::unique_ptr<M>> mats_;
  std::vector<std::string> names_;
  std::vector<int> scratch_;
};

// One seam op run on a bench (tests/op_footprint_cases.cpp); name is the op's function name,
// optionally followed by '/' and what the case varies.
struct OpCase {
  std::string name;
  std::vector<std::string> (*run)();
};
const std::vector<OpCase>& op_cases();

}  // namespace cosda::footprint_probe
