// Internal to analysis/verify*.cpp: executed costs, measured once per point; cycle averages.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/conventions.hpp"
#include "analysis/measure.hpp"
#include "analysis/verify.hpp"

namespace cosda::verify {

using Triple = std::array<std::int64_t, 3>;  // (n, d, m)

// Measurement, cached; every one-layer point measured is also checked against the exact forms.
class Runs {
 public:
  const Cost& get(const Point& p);
  // What the exact forms give for p (analysis/exact.hpp), under the same perturbation.
  Cost exact(const Point& p);
  std::vector<Check> checks;
  // Tests only: a factor on a point's counts and memory (1: none), and degenerate inputs on
  // which each printed equation coincides with what the kernels implement.
  std::function<double(const Point&)> perturb;
  bool degenerate = false;

 private:
  std::map<std::string, Cost> cache_, perturbed_;
};

bool has_landmarks(std::string_view id);

// Operations per step averaged over the cycle, each step counted in convention `conv`.
double amortized(const Cost& c, conventions::Convention conv);

}  // namespace cosda::verify
