// Logical memory measured from what the kernels read and write (docs/counting.md, "Memory").
//
// Under the counting policies every seam op starts a new op time and reports the element
// ranges it reads and writes (ops/core.hpp: Tally reports its operands' ranges, Exact reports
// each Counted element it reads or assigns). From that trace, per element address:
//   a value is live from the op that writes it to the last op that reads it before the next
//   write; a value never read is never live. Reads of an element written earlier in the same
//   op are the op's own business and ignored; an element read and then written by one op (in
//   place) is live through it once, not twice.
//   valley  the elements whose value crosses a step boundary (written before it, read after it)
//   peak    the most elements live at once during a step (valley included)
// A step's input token is written at the step's start, and its output read at its end
// (Liveness::input and ::output), so both count while the step runs and neither crosses a
// boundary. Times: op T occupies instants 4T+1 (its writes begin) and 4T+2 (its reads end);
// a step boundary before op T is the instant 4T.
#pragma once

#include <sys/mman.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <iterator>
#include <map>
#include <new>
#include <utility>
#include <vector>

namespace cosda {

// The trace's own memory comes straight from mmap, which the physical heap accounting
// (analysis/heap.hpp, a malloc wrapper) does not see: measuring a step must not change the
// heap figures reported beside it. Single elements (map nodes) are carved from 1 MiB chunks
// and reused; larger blocks (vectors) are mapped one by one.
template <class T>
class TraceAllocator {
 public:
  using value_type = T;
  TraceAllocator() = default;
  template <class U>
  TraceAllocator(const TraceAllocator<U>&) {}  // NOLINT(google-explicit-constructor)

  T* allocate(std::size_t n) {
    if (n == 1) {
      Pool& p = pool();
      if (p.free != nullptr) {
        void* x = p.free;
        p.free = *static_cast<void**>(x);
        return static_cast<T*>(x);
      }
      if (p.left < kSlot) {
        p.next = static_cast<char*>(map(kChunk));
        p.left = kChunk;
      }
      void* x = p.next;
      p.next += kSlot, p.left -= kSlot;
      return static_cast<T*>(x);
    }
    return static_cast<T*>(map(n * sizeof(T)));
  }
  void deallocate(T* x, std::size_t n) {
    if (n == 1) {
      *reinterpret_cast<void**>(x) = pool().free;
      pool().free = x;
    } else {
      ::munmap(x, n * sizeof(T));
    }
  }
  friend bool operator==(const TraceAllocator&, const TraceAllocator&) { return true; }
  friend bool operator!=(const TraceAllocator&, const TraceAllocator&) { return false; }

 private:
  static constexpr std::size_t kSlot = (sizeof(T) + sizeof(void*) + 15) / 16 * 16;
  static constexpr std::size_t kChunk = std::size_t(1) << 20;
  struct Pool {
    void* free = nullptr;
    char* next = nullptr;
    std::size_t left = 0;
  };
  static Pool& pool() {  // per thread and node type; chunks live as long as the thread
    thread_local Pool p;
    return p;
  }
  static void* map(std::size_t bytes) {
    void* x = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (x == MAP_FAILED) throw std::bad_alloc();
    return x;
  }
};

class Liveness {
 public:
  explicit Liveness(std::int64_t element_bytes = 8) : elem_(element_bytes) {}

  // The next op: what is read and written until the next call happens at its time.
  void begin_op() {
    if (fold_ == 0) ++op_;
  }
  // Inside fold(+1) ... fold(-1) the ops a fused op runs are part of it: begin_op() keeps the
  // current op and their accesses, already recorded by the fused op, are not recorded again
  // (attention/ops/core.hpp OneOp).
  void fold(int delta) { fold_ += delta; }
  // A warm-up (on until warm_up(false)) is traced by its writes alone: each leaves its elements
  // holding a value from before the trace, as if first seen by a read. That value is live after
  // the warm-up if read before it is overwritten, as with every access traced, and the segments
  // stay few where a full trace splits a ring into one per row (analysis/measure.cpp).
  void warm_up(bool on) { warm_ = on; }
  void read(const void* p, std::int64_t bytes) { access(p, bytes, false); }
  void write(const void* p, std::int64_t bytes) { access(p, bytes, true); }

  // Step marks. A measured step contributes its instants to the peak and its boundaries to
  // the valley; unmeasured steps (warm-up, look-ahead) only move values along.
  void begin_step(bool measured) {
    begin_op();
    if (measured) {
      steps_.push_back({4 * op_, 4 * op_});
      boundaries_.push_back(4 * op_);
    }
    measuring_ = measured;
  }
  void end_step() {
    begin_op();
    if (measuring_) {
      steps_.back().second = 4 * op_ + 3;
      boundaries_.push_back(4 * op_ + 4);
    }
    measuring_ = false;
  }

  // Starts waiting for the values held at the last measured boundary: each element whose
  // value was written before it and not yet read after it is pending until it is read
  // (live across it) or overwritten (dead). From here to finish() no step is measured, so
  // an access settles what it touches: a pending value's event is closed, and the elements
  // then hold no history, which keeps them in few segments (elements first seen here count
  // as pending values from before the trace, as they would in a full trace).
  void mark_pending();
  // Elements still pending (bytes / element size).
  std::int64_t pending() const { return pending_ / elem_; }

  // What finish() found over the measured steps, in elements.
  struct Figures {
    std::int64_t valley = 0;               // the most values crossing one boundary
    std::vector<std::int64_t> step_peaks;  // per measured step, in order
  };

  // Closes every value and measures.
  Figures finish();

 private:
  static constexpr std::int64_t kUnread = -1;
  struct Seg {
    std::uintptr_t end;
    std::int64_t w;  // instant the current value's live run starts (0: before the trace)
    std::int64_t r;  // instant of its last read, kUnread if none
    std::int64_t w_op;
    bool pending = false;
  };
  using Segs = std::map<std::uintptr_t, Seg, std::less<>,
                        TraceAllocator<std::pair<const std::uintptr_t, Seg>>>;

  // Ends the current value of s: live over [w, r] if it was ever read.
  void close(std::uintptr_t begin, const Seg& s);

  void apply(std::uintptr_t begin, Seg& s, bool is_write);

  // Splits the segment at `it` at address a inside it; returns the right part.
  Segs::iterator split(Segs::iterator it, std::uintptr_t a);

  // The first segment beginning after address a. Accesses mostly follow the last one (rows
  // in turn, a buffer after the one before it), so the segments just after the last one
  // touched are tried before a descent from the root.
  Segs::iterator first_after(std::uintptr_t a);

  void access(const void* p, std::int64_t bytes, bool is_write);

  // Joins it with its left neighbour when they touch and hold values of the same history.
  Segs::iterator coalesce(Segs::iterator it);

  std::int64_t elem_;
  std::int64_t op_ = 0;
  using Event = std::pair<std::int64_t, std::int64_t>;
  Segs segs_;
  // The segment the last access ended in; a copied or moved trace starts without it (an
  // iterator into another map).
  struct Finger {
    Segs::iterator it;
    bool set = false;
    Finger() = default;
    Finger(const Finger&) {}
    Finger& operator=(const Finger&) {
      set = false;
      return *this;
    }
  };
  Finger last_;
  std::vector<Event, TraceAllocator<Event>> events_;
  std::vector<std::int64_t, TraceAllocator<std::int64_t>> boundaries_;
  using Span = std::pair<std::int64_t, std::int64_t>;
  std::vector<Span, TraceAllocator<Span>> steps_;  // measured steps' first and last instants
  std::int64_t pending_ = 0;
  bool measuring_ = false, warm_ = false, resolving_ = false;
  int fold_ = 0;
};

// The recorder the seam reports to on this thread, or null when nothing is being measured.
inline Liveness*& thread_liveness() {
  thread_local Liveness* l = nullptr;
  return l;
}

}  // namespace cosda
