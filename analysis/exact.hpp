// Evaluation of the exact closed forms (attention/counting/closed_form.hpp; each variant's in
// attention/variants/<id>.cpp): what measure() reports for a point, from the forms alone.
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

// Segment sizes: c = ceil(n/m), f = floor(n/m), r = n mod m (segments of size c when r > 0).
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
// Whether valley and peak forms are both exact at p: where the valley is, except for
// continual-landmark variants (the peak depends on where in a segment a step falls; measured only)
// and h > 1 heads (no form yet for the batched peak, HeadsMemory::live). Else evaluate() estimates.
bool memory_exact(const Point& p);

// What measure() reports for a one-layer point, from the forms: h times one head's operations;
// memory from Forms::heads for a batched object, else h times one head's. update_step is the
// costliest update (size c), a step kind the cycle lacks is zero, heap fields -1. Throws
// std::invalid_argument for a point with a skip reason, layers != 1 or the stabilised mode.
Cost evaluate(const Point& p);
// evaluate() of one block of p (one layer, not stabilised); nullopt where it throws.
std::optional<Cost> evaluate_block(Point p);

// One batched object's memory for p.heads > 1 heads (Forms::heads): valley and plain-step live.
// Throws std::invalid_argument where evaluate() would, and without a batched kernel.
HeadsMemory heads_memory(const Point& p);

}  // namespace cosda::exact
