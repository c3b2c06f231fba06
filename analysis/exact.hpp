// Evaluation of the exact closed forms (attention/closed_form.hpp; each variant's own forms
// are in attention/<id>.cpp): what measure() reports for a point, from the forms alone.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/measure.hpp"
#include "attention/closed_form.hpp"

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

// What measure() reports for a one-layer point, from the forms alone (heads applied). Mirrors
// analysis/measure.hpp's Cost: update_step is the most expensive update step (size c),
// plain_step is zero when the cycle has none, update_step zero for variants without updates.
// Heap fields stay -1. Throws std::invalid_argument for a point with a skip reason, with
// layers != 1 or in the stabilised mode.
Cost evaluate(const Point& p);

}  // namespace cosda::exact
