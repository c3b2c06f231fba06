#include "analysis/heap.hpp"

#include <cstddef>

#ifndef COSDA_NO_HEAP_HOOKS
#include <malloc.h>

#include <algorithm>
#include <cerrno>

// glibc's own allocator entry points, which the wrappers below forward to.
// NOLINTBEGIN(bugprone-reserved-identifier)
extern "C" {
void* __libc_malloc(std::size_t);
void* __libc_calloc(std::size_t, std::size_t);
void* __libc_realloc(void*, std::size_t);
void* __libc_memalign(std::size_t, std::size_t);
void __libc_free(void*);
}
// NOLINTEND(bugprone-reserved-identifier)

namespace {
struct Counters {
  std::int64_t current, peak, allocations;
};
__attribute__((tls_model("initial-exec"))) thread_local Counters counters{0, 0, 0};

void note_alloc(void* p) {
  if (p == nullptr) return;
  counters.current += static_cast<std::int64_t>(malloc_usable_size(p));
  counters.peak = std::max(counters.peak, counters.current);
  ++counters.allocations;
}
void note_free(void* p) {
  if (p != nullptr) counters.current -= static_cast<std::int64_t>(malloc_usable_size(p));
}
}  // namespace

extern "C" {
void* malloc(std::size_t n) {
  void* p = __libc_malloc(n);
  note_alloc(p);
  return p;
}
void* calloc(std::size_t a, std::size_t b) {
  void* p = __libc_calloc(a, b);
  note_alloc(p);
  return p;
}
void* realloc(void* p, std::size_t n) {
  note_free(p);
  void* q = __libc_realloc(p, n);
  if (q == nullptr && n != 0) note_alloc(p);  // failed: p is still ours
  note_alloc(q);
  return q;
}
void free(void* p) {
  note_free(p);
  __libc_free(p);
}
void* memalign(std::size_t align, std::size_t n) {
  void* p = __libc_memalign(align, n);
  note_alloc(p);
  return p;
}
void* aligned_alloc(std::size_t align, std::size_t n) { return memalign(align, n); }
int posix_memalign(void** out, std::size_t align, std::size_t n) {
  if (align % sizeof(void*) != 0 || (align & (align - 1)) != 0) return EINVAL;
  void* p = memalign(align, n);
  if (p == nullptr) return ENOMEM;
  *out = p;
  return 0;
}
}

namespace cosda::heap {
bool enabled() { return true; }
std::int64_t current() { return counters.current; }
std::int64_t peak() { return counters.peak; }
std::int64_t allocations() { return counters.allocations; }
void reset_peak() { counters.peak = counters.current; }
}  // namespace cosda::heap

#else

namespace cosda::heap {
bool enabled() { return false; }
std::int64_t current() { return 0; }
std::int64_t peak() { return 0; }
std::int64_t allocations() { return 0; }
void reset_peak() {}
}  // namespace cosda::heap

#endif
