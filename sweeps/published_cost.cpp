#include "sweeps/published_cost.hpp"

#include <algorithm>
#include <functional>
#include <utility>

#include "analysis/published.hpp"
#include "attention/registry.hpp"

namespace cosda {
namespace {

namespace pub = published;

// One block of the published per-step FLOPs, per head (d is the head width).
std::optional<double> block_flops(const std::string& id, double n, double d, double m,
                                  const std::string& formulas) {
  if (formulas == "cotrans") {
    const pub::MulAddExp* t = pub::cotrans_text(id);
    if (t == nullptr) return std::nullopt;
    return pub::total_flops(*t).eval(n, d, m);  // CoTrans Sec. 3.4: FLOPs = mul + add + exp
  }
  return pub::amortized_flops(id, n, d, m);  // App. A, a landmark cycle averaged (Sec. IV-A, B)
}

// The two blocks the published two-layer composition adds, for an id.
std::pair<std::string, std::string> two_layer_blocks(const std::string& id) {
  const VariantTraits& v = variant(id);
  return {std::string(first_block(v).id), std::string(second_block(v).id)};
}

using BlockFn = std::function<std::optional<double>(const std::string&, double, double, double)>;

// heads x (one block, or the two-layer composition), at the per-head width d / heads.
std::optional<double> composed(const Point& p, const BlockFn& block) {
  const double n = double(p.n), d = double(p.d) / double(p.heads), m = double(p.m);
  const double h = double(p.heads);
  if (p.layers == 1) {
    const auto v = block(p.variant, n, d, m);
    return v ? std::optional<double>(h * *v) : std::nullopt;
  }
  const auto [first, second] = two_layer_blocks(p.variant);
  const auto a = block(first, n, d, m), b = block(second, n, d, m);
  if (!a || !b) return std::nullopt;
  return h * (*a + *b);
}

std::optional<double> memory(const pub::Published* (*table)(std::string_view),
                             const std::string& id, double n, double d, double m) {
  const pub::Published* f = table(id);
  if (f == nullptr) return std::nullopt;
  return f->total.eval(n, d, m);
}

}  // namespace

std::optional<double> published_flops(const Point& p, const std::string& formulas) {
  return composed(p, [&](const std::string& id, double n, double d, double m) {
    return block_flops(id, n, d, m, formulas);
  });
}

std::optional<double> published_valley(const Point& p) {
  return composed(p, [](const std::string& id, double n, double d, double m) {
    return memory(&pub::valley, id, n, d, m);
  });
}

std::optional<double> published_peak(const Point& p) {
  if (p.layers == 1)
    return composed(p, [](const std::string& id, double n, double d, double m) {
      return memory(&pub::peak, id, n, d, m);
    });
  const auto [first, second] = two_layer_blocks(p.variant);
  const double n = double(p.n), d = double(p.d) / double(p.heads), m = double(p.m);
  const auto p1 = memory(&pub::peak, first, n, d, m), v1 = memory(&pub::valley, first, n, d, m);
  const auto p2 = memory(&pub::peak, second, n, d, m), v2 = memory(&pub::valley, second, n, d, m);
  if (!p1 || !v1 || !p2 || !v2) return std::nullopt;
  return double(p.heads) * std::max(*p1 + *v2, *v1 + *p2);
}

}  // namespace cosda
