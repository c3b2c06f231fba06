#include <cstdio>
#include "analysis/exact.hpp"
#include "analysis/measure.hpp"
#include "attention/registry.hpp"
using namespace cosda;
int main() {
  for (const auto& idv : kVariantIds) {
    std::string id(idv);
    const bool lm = find_variant(id)->landmarks != LandmarkKind::kNone;
    Point p{id, 120, 192, lm ? 4 : 1, 16};
    const Cost c = measure(p);
    const Cost o = exact::evaluate(p);
    std::printf("| %s | %ld | %ld | %+ld | %ld | %ld | %+ld |\n", id.c_str(), o.valley, c.valley, c.valley - o.valley, o.peak, c.peak, c.peak - o.peak);
  }
}
