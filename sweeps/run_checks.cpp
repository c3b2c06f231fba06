#include "sweeps/run_checks.hpp"

#include <algorithm>

#include "io/errors.hpp"
#include "sweeps/variant_lists.hpp"

namespace cosda {
namespace {

struct Limit {
  std::string_view key;
  Range range;
};

// n and m up to 2^20 tokens, d and heads up to 2^16, the seed below 2^53 (exact in a double).
constexpr Limit kLimits[] = {{"n", {1, 1 << 20}}, {"d", {1, 1 << 16}},
                             {"m", {1, 1 << 20}}, {"heads", {1, 1 << 16}},
                             {"layers", {1, 2}},  {"feature-seed", {0, (1LL << 53) - 1}}};

std::string ids_with(LandmarkKind kind) {
  std::string s;
  for (const auto& v : kVariants)
    if (v.landmarks == kind) s += (s.empty() ? "" : ", ") + std::string(v.id);
  return s;
}

// `key` applies to the variants `patterns` names, not `id`: drop it.
[[noreturn]] void not_for(const Spelling& s, std::string_view key, const std::string& which,
                          const std::string& patterns, const std::string& id) {
  throw InputError(s.error(s.subject(key) + " applies to the " + which + " (" + patterns +
                           "), not " + id + "; drop " + s.name(key)));
}

void check_range(const Spelling& s, std::string_view key, const std::optional<std::int64_t>& v) {
  const Range r = range_of(key);
  if (v && (*v < r.lo || *v > r.hi))
    throw InputError(s.error(s.subject(key) + " must be an integer in [" + std::to_string(r.lo) +
                             ", " + std::to_string(r.hi) + "], got '" + std::to_string(*v) + "'"));
}

// Which variants each optional argument applies to.
void check_applies(const RunRequest& r, const Spelling& s, const VariantTraits& t) {
  const bool rank = t.landmarks != LandmarkKind::kNone;
  if (!rank && r.m) not_for(s, "m", "variants with landmarks", landmark_patterns(), r.variant);
  if (!has_pinv(t) && r.exact_pinv)
    not_for(s, "exact-pinv", "variants with landmarks", pinv_patterns(), r.variant);
  if (r.landmarks && t.landmarks != LandmarkKind::kFixed)
    not_for(s, "landmarks", "fixed-landmark variants", ids_with(LandmarkKind::kFixed), r.variant);
  if (r.exp_shift && !t.continual)
    not_for(s, "exp-shift", "continual variants",
            id_patterns([](const VariantTraits& v) { return v.continual; }, false), r.variant);
  if (r.feature_seed && t.landmarks != LandmarkKind::kRandomFeatures)
    not_for(s, "feature-seed", "random-feature variants",
            id_patterns(
                [](const VariantTraits& v) { return v.landmarks == LandmarkKind::kRandomFeatures; },
                false),
            r.variant);
}

}  // namespace

std::string Spelling::error(const std::string& text) const {
  return cli ? "cosda " + command + ": " + text : text;
}

std::string Spelling::subject(std::string_view key) const {
  return cli ? "flag " + name(key) : name(key);
}

std::string Spelling::name(std::string_view key) const {
  std::string k(key);
  if (cli) return "--" + k;
  std::replace(k.begin(), k.end(), '-', '_');
  return k;
}

Range range_of(std::string_view key) {
  for (const Limit& l : kLimits)
    if (l.key == key) return l.range;
  throw std::logic_error("no range for argument " + std::string(key));
}

RunPlan check_run(const RunRequest& r, const Spelling& s) {
  RunPlan p;
  p.id = r.variant;
  p.traits = find_variant(r.variant);
  if (p.traits == nullptr)
    throw InputError(s.error(s.subject("variant") + ": unknown id '" + r.variant +
                             "'; known: " + variant_list()));
  if (!r.n) throw InputError(s.error(s.subject("n") + " is required; give " + s.name("n")));
  check_range(s, "n", r.n);
  check_range(s, "d", r.d);
  check_range(s, "m", r.m);
  check_range(s, "heads", r.heads);
  check_range(s, "layers", r.layers);
  check_range(s, "feature-seed", r.feature_seed);
  check_applies(r, s, *p.traits);
  const VariantTraits& t = *p.traits;
  p.n = *r.n;
  p.heads = r.heads.value_or(1);
  p.layers = int(r.layers.value_or(1));
  p.d = r.d.value_or(0);
  if (t.landmarks != LandmarkKind::kNone) {
    if (!r.m && !r.default_m)
      throw InputError(s.error(s.subject("m") + " is required for " + p.id +
                               " (landmarks or random features); give " + s.name("m")));
    p.m = r.m ? *r.m : *r.default_m;
    // Random features are not tokens of the window: any m >= 1 (the Performer estimator
    // needs many); landmarks are at most n.
    if (t.landmarks != LandmarkKind::kRandomFeatures && p.m > p.n)
      throw InputError(s.error(s.subject("m") + " must be at most " + s.name("n") + " for " + p.id +
                               " (m = " + std::to_string(p.m) + ", n = " + std::to_string(p.n) +
                               ")"));
  }
  if (r.d) check_heads_divide(p.heads, p.d, "", s);
  if (r.feature_seed) p.feature_seed = std::uint64_t(*r.feature_seed);
  p.one_row = p.layers == 2 ? t.continual : t.single_output;
  return p;
}

void check_heads_divide(std::int64_t heads, std::int64_t d, const std::string& of,
                        const Spelling& s) {
  if (d % heads != 0)
    throw InputError(s.error(s.subject("heads") + " (" + std::to_string(heads) +
                             ") must divide d = " + std::to_string(d) +
                             (of.empty() ? " (" + s.name("d") + ", the width of all heads)" : of)));
}

RunRequest request_of(const Args& a) {
  RunRequest r;
  r.variant = a.require("variant");
  auto read = [&](const std::string& key) -> std::optional<std::int64_t> {
    if (!a.has(key)) return std::nullopt;
    const Range g = range_of(key);
    return a.integer(key, g.lo, g.hi);
  };
  const Range n = range_of("n");
  r.n = a.integer("n", n.lo, n.hi);
  r.d = read("d");
  r.m = read("m");
  r.heads = read("heads");
  r.layers = read("layers");
  r.feature_seed = read("feature-seed");
  r.landmarks = a.has("landmarks");
  r.exact_pinv = a.has("exact-pinv");
  r.exp_shift = a.has("exp-shift");
  return r;
}

}  // namespace cosda
