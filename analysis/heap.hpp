// Physical heap accounting: malloc, calloc, realloc, aligned allocators and free are wrapped
// (Eigen uses malloc, not operator new); bytes in use are counted per thread by malloc_usable_size.
// Sanitizer builds (COSDA_NO_HEAP_HOOKS) wrap nothing: enabled() is false, nothing is counted.
#pragma once

#include <cstdint>

namespace cosda::heap {

bool enabled();
std::int64_t current();      // bytes in use, allocated on this thread minus freed on it
std::int64_t peak();         // most bytes in use since reset_peak()
std::int64_t allocations();  // malloc-family calls on this thread so far
void reset_peak();

}  // namespace cosda::heap
