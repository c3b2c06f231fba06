// Logical memory measured from what the kernels read and write (docs/counting.md, "Memory").
// Under the counting policies every seam op starts a new op time and reports the element ranges
// it reads and writes (ops/core.hpp: Tally its operands' ranges, Exact each Counted element).
// Per element address:
//   a value is live from the op writing it to the last op reading it before the next write; a
//   value never read is never live. Reads of an element written earlier in the same op are
//   ignored; an element read then written by one op (in place) is live through it once.
//   valley  the elements whose value crosses a step boundary (written before it, read after it)
//   peak    the most elements live at once during a step (valley included)
// The caller (models/multi_head.hpp) writes a step's input token at its start and reads its
// output at its end: both count during the step, neither crosses a boundary. Op T occupies
// instants 4T+1 (writes begin) and 4T+2 (reads end); a boundary before op T is instant 4T.
#pragma once

#include <sys/mman.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <iterator>
#include <map>
#include <new>
#include <utility>
#include <vector>

namespace cosda {

// The trace's memory comes from mmap, unseen by the heap accounting (analysis/heap.hpp), so tracing
// leaves the heap figures unchanged. Map nodes come from reused 1 MiB chunks, vectors one by one.
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
    if (fold_ == 0 && !resolving_) ++op_;  // a settling stretch is one instant (mark_pending)
  }
  // Inside fold(+1) ... fold(-1) a fused op's inner ops are part of it (ops/core.hpp OneOp):
  // begin_op() keeps the current op, and their accesses, already recorded, are not recorded again.
  void fold(int delta) { fold_ += delta; }
  // A warm-up is traced by its writes alone, each leaving a value from before the trace, live after
  // it if read before overwritten; segments stay few where a full trace splits a ring by row.
  void warm_up(bool on) { warm_ = on, seen_ = {}; }
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

  // Values held at the last measured boundary (written before, unread since) are pending until
  // read (live across it) or overwritten (dead). Until resume() or finish() no step is measured and
  // the ops share one instant just after that boundary: an access settles what it touches, dropping
  // its history (its value counts as written then). Elements first seen here count as pending.
  void mark_pending();
  // Ends what mark_pending() began: values still pending keep their history, and the measured
  // steps' figures are those of a full trace with the steps between unmeasured.
  void resume() { resolving_ = false, seen_ = {}; }
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
  static constexpr std::int64_t kUnread = -1, kOpened = -2;
  struct Seg {
    std::uintptr_t end;
    std::int64_t w;  // instant its live run starts (0: before the trace), kOpened: event out
    std::int64_t r;  // instant of its last read, kUnread if none
    std::int64_t w_op;
    bool pending = false;
  };
  using Segs = std::map<std::uintptr_t, Seg, std::less<>,
                        TraceAllocator<std::pair<const std::uintptr_t, Seg>>>;

  // Ends the current value of s: live over [w, r] if it was ever read.
  void close(std::uintptr_t begin, const Seg& s);
  // Sorts the events by instant; where instants are few per event, as one pass over them that
  // leaves an instant's summed change (what finish() reads), none where it is zero.
  void order_events();

  void apply(std::uintptr_t begin, Seg& s, bool is_write);

  // Splits the segment at `it` at address a inside it; returns the right part.
  Segs::iterator split(Segs::iterator it, std::uintptr_t a);

  // The first segment beginning after address a; as accesses mostly follow one of the last few,
  // the segments just after each finger are tried before a descent from the root.
  Segs::iterator first_after(std::uintptr_t a);

  void access(const void* p, std::int64_t bytes, bool is_write);

  // Joins it with its left neighbour when they touch and hold values of the same history.
  Segs::iterator coalesce(Segs::iterator it);

  std::int64_t elem_;
  std::int64_t op_ = 0;
  using Event = std::pair<std::int64_t, std::int64_t>;
  Segs segs_;
  // The segments the last accesses ended in, one per interleaved stream (an op's operands, row by
  // row); none in a copy (iterators into another map).
  static constexpr int kFingers = 4;
  struct Fingers {
    std::array<Segs::iterator, kFingers> it;
    int size = 0, hit = -1, evict = 0;  // hit: the finger first_after started from, else -1
    Fingers() = default;
    Fingers(const Fingers&) {}
    Fingers& operator=(const Fingers&) { return size = 0, *this; }
  } last_;
  void remember(Segs::iterator it);  // it becomes the finger that found it (else a new one)
  // Ranges accessed in this settling stretch or warm-up (by start): a repeat changes nothing.
  std::array<std::pair<std::uintptr_t, std::uintptr_t>, 256> seen_{};
  std::vector<Event, TraceAllocator<Event>> events_;
  std::vector<std::int64_t, TraceAllocator<std::int64_t>> boundaries_;
  using Span = std::pair<std::int64_t, std::int64_t>;
  std::vector<Span, TraceAllocator<Span>> steps_;  // measured steps' first and last instants
  std::int64_t pending_ = 0, settled_w_ = 0;       // settled_w_: a settled value's write instant
  bool measuring_ = false, warm_ = false, resolving_ = false;
  int fold_ = 0;
};

// The recorder the seam reports to on this thread, or null when nothing is being measured.
inline Liveness*& thread_liveness() {
  thread_local Liveness* l = nullptr;
  return l;
}

}  // namespace cosda
