// Executed costs for the verification report, and their checks against the exact forms.
#include "analysis/verify_runs.hpp"

#include <fmt/format.h>

#include <cmath>
#include <iterator>
#include <optional>
#include <utility>

#include "analysis/exact.hpp"
#include "attention/registry.hpp"

namespace cosda::verify {
namespace {

std::string key_of(const Point& p) {
  return fmt::format("{}/{}/{}/{}/{}/{}", p.variant, p.n, p.d, p.m, p.heads, p.layers);
}

// The names of the OpCounts buckets of `what` that differ between a and b.
void compare_buckets(std::vector<std::string>& out, const char* what, const OpCounts& a,
                     const OpCounts& b) {
  const std::pair<const char*, std::int64_t OpCounts::*> f[] = {{"mul", &OpCounts::mul},
                                                                {"add", &OpCounts::add},
                                                                {"div", &OpCounts::div},
                                                                {"exp", &OpCounts::exp},
                                                                {"other", &OpCounts::other}};
  for (const auto& [name, m] : f)
    if (a.*m != b.*m) out.push_back(fmt::format("{}.{}", what, name));
}

Check check_against(const Cost& got) {
  const Cost want = exact::evaluate(got.point);
  Check c;
  c.point = got.point;
  c.executed_cycle_flops = got.cycle_total.flops();
  c.exact_cycle_flops = want.cycle_total.flops();
  compare_buckets(c.mismatches, "update_step", got.update_step, want.update_step);
  compare_buckets(c.mismatches, "plain_step", got.plain_step, want.plain_step);
  compare_buckets(c.mismatches, "cycle_total", got.cycle_total, want.cycle_total);
  const std::pair<const char*, std::pair<std::int64_t, std::int64_t>> scalars[] = {
      {"cycle_steps", {got.cycle_steps, want.cycle_steps}},
      {"update_steps", {got.update_steps, want.update_steps}},
      {"plain_steps", {got.plain_steps, want.plain_steps}},
      {"valley", {got.valley, want.valley}},
      {"peak", {got.peak, want.peak}}};
  // Memory is compared where its forms are exact; degenerate windows are measured only.
  const std::size_t compared = exact::memory_exact(got.point) ? std::size(scalars) : 3;
  for (std::size_t i = 0; i < compared; ++i)
    if (scalars[i].second.first != scalars[i].second.second)
      c.mismatches.push_back(scalars[i].first);
  return c;
}

// The steps of a measured cycle: plain P, update steps of sizes c (r of them) and f (m - r),
// the size-f step solved from the cycle total. Nullopt when the cycle does not decompose so.
struct StepKinds {
  OpCounts plain, big, small;
  std::int64_t n = 1, m = 0, r = 0;
};
std::optional<StepKinds> step_kinds(const Cost& c) {
  StepKinds k;
  if (c.update_steps == 0) {
    k.plain = c.plain_step;
    return k;
  }
  k.n = c.cycle_steps;
  k.m = c.update_steps;
  k.r = c.point.n % k.m;
  k.plain = c.plain_step;
  k.big = c.update_step;
  OpCounts rest = c.cycle_total;
  for (std::int64_t i = 0; i < k.r; ++i) rest -= k.big;
  for (std::int64_t i = 0; i < k.n - k.m; ++i) rest -= k.plain;
  const std::int64_t q = k.m - k.r;
  const std::int64_t* in[] = {&rest.mul, &rest.add, &rest.div, &rest.exp, &rest.other};
  std::int64_t* out[] = {&k.small.mul, &k.small.add, &k.small.div, &k.small.exp, &k.small.other};
  for (int i = 0; i < 5; ++i) {
    if (*in[i] % q != 0) return std::nullopt;
    *out[i] = *in[i] / q;
  }
  return k;
}

// c with its counts and memory times f (rounded).
Cost scaled(Cost c, double f) {
  const auto times = [f](std::int64_t& x) { x = std::llround(double(x) * f); };
  for (OpCounts* o : {&c.update_step, &c.plain_step, &c.cycle_total})
    for (std::int64_t OpCounts::*b :
         {&OpCounts::mul, &OpCounts::add, &OpCounts::div, &OpCounts::exp, &OpCounts::other})
      times(o->*b);
  for (std::int64_t* m : {&c.valley, &c.peak, &c.plain_peak, &c.update_peak}) times(*m);
  return c;
}

}  // namespace

const Cost& Runs::get(const Point& p) {
  const std::string key = key_of(p);
  auto it = cache_.find(key);
  if (it == cache_.end()) {
    it = cache_.emplace(key, measure(p)).first;
    if (p.layers == 1) checks.push_back(check_against(it->second));
  }
  const double f = perturb ? perturb(p) : 1.0;
  if (f == 1.0) return it->second;
  return perturbed_.insert_or_assign(fmt::format("{} x{}", key, f), scaled(it->second, f))
      .first->second;
}

Cost Runs::exact(const Point& p) {
  const double f = perturb ? perturb(p) : 1.0;
  return f == 1.0 ? exact::evaluate(p) : scaled(exact::evaluate(p), f);
}

bool has_landmarks(std::string_view id) {
  return find_variant(id)->landmarks != LandmarkKind::kNone;
}

double amortized(const Cost& c, conventions::Convention conv) {
  const std::optional<StepKinds> k = step_kinds(c);
  if (!k) return double(conventions::count(c.cycle_total, conv)) / double(c.cycle_steps);
  if (k->m == 0) return double(conventions::count(k->plain, conv));
  const double total = double(k->r) * double(conventions::count(k->big, conv)) +
                       double(k->m - k->r) * double(conventions::count(k->small, conv)) +
                       double(k->n - k->m) * double(conventions::count(k->plain, conv));
  return total / double(k->n);
}

Check check_point(const Point& p) {
  Runs runs;
  runs.get(p);
  return runs.checks.front();
}

int status(const std::vector<Check>& checks, const std::vector<Classified>& classes) {
  for (const Check& c : checks)
    if (!c.ok()) return 1;
  return unexplained_rows(classes) == 0 ? 0 : 1;
}

}  // namespace cosda::verify
