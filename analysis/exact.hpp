// Evaluation of the exact closed forms (attention/counting/closed_form.hpp; each variant's own
// forms are in attention/variants/<id>.cpp): what measure() reports for a point, from the forms
// alone.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/measure.hpp"
#include "attention/counting/closed_form.hpp"

namespace cosda::exact {

// The forms of a variant id (its description's closed_forms); nullptr for an unknown id.
const Forms* forms(std::string_view id);

// Segment sizes: c = ceil(n/m), f = floor(n/m), r = n mod m (count of segments of size c when
// r > 0).
struct Segments {
  std::int64_t c, f, r;
};
Segments segments(std::int64_t n, std::int64_t m);

// Cycle totals per bucket as polynomials (per_s = 0): m U.base + n U.per_s + (n - m) P for
// continual landmarks, the step itself otherwise.
Buckets cycle_forms(const Forms& f);

// Whether the valley form is exact at p: windows of n >= 3 tokens, and with landmarks or
// features 2 <= m < n. In the degenerate windows outside (n <= 2, a single landmark, a landmark
// per token) a stream carries less, or differently, than the forms say (docs/counting.md).
bool valley_exact(const Point& p);
// Whether valley and peak forms are both exact at p: where the valley is, except for the
// continual-landmark variants, whose peak depends on where in a landmark segment a step falls
// and is measured only, and for h > 1 heads whose batched object's peak has no form yet
// (HeadsMemory::live). Elsewhere evaluate() returns the forms' values as an estimate.
bool memory_exact(const Point& p);

// What measure() reports for a one-layer point, from the forms alone (heads applied: h times
// one head's operations; h heads' memory from Forms::heads where the variant has a batched
// object, else h times one head's). Mirrors
// analysis/measure.hpp's Cost: update_step is the most expensive update step (size c),
// plain_step is zero when the cycle has none, update_step zero for variants without updates.
// Heap fields stay -1. Throws std::invalid_argument for a point with a skip reason, with
// layers != 1 or in the stabilised mode.
Cost evaluate(const Point& p);

// The memory of one batched object for all p.heads heads (Forms::heads, h > 1): valley, and the
// live beside it on a plain step. Throws std::invalid_argument where evaluate() would, and for
// a variant without a batched kernel.
HeadsMemory heads_memory(const Point& p);

}  // namespace cosda::exact
