// Physical heap accounting: malloc, calloc, realloc, the aligned allocators and free are
// wrapped (Eigen allocates with malloc, bypassing operator new) and the bytes in use counted
// per thread, by malloc_usable_size. Builds with sanitizers leave the allocator alone
// (COSDA_NO_HEAP_HOOKS); enabled() then returns false and nothing is counted.
#pragma once

#include <cstdint>

namespace cosda::heap {

bool enabled();
std::int64_t current();      // bytes in use, allocated on this thread minus freed on it
std::int64_t peak();         // most bytes in use since reset_peak()
std::int64_t allocations();  // malloc-family calls on this thread so far
void reset_peak();

}  // namespace cosda::heap
