// configs/timing.toml: load_timing_config() returns every [[shape]] in file order, then the [fig4]
// grid (one shape per n, named fig4_n<N>). Every key is checked (a bad one is an InputError naming
// file, key and fix); only paper, quick, variants and what are optional.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "attention/exec.hpp"
#include "attention/registry.hpp"
#include "io/errors.hpp"
#include "io/strict_toml.hpp"

namespace cosda::bench {

// The tokens a timed stream is fed: rows x cols values 0.5 N(0, 1) from mt19937_64(seed), each
// side of a comparison its own seed.
template <class T>
Mat<T> seeded_tokens(std::int64_t rows, std::int64_t cols, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  Mat<T> out(rows, cols);
  for (std::int64_t i = 0; i < out.size(); ++i) out.data()[i] = T(0.5 * normal(rng));
  return out;
}

struct TimingShape {
  std::string name, what;
  std::int64_t n = 0, d = 0, m = 1, heads = 1;
  bool paper = false, quick = false;
  std::vector<std::string> variants;  // empty: every variant of the registry

  bool has(std::string_view id) const {
    if (variants.empty()) return true;
    for (const auto& v : variants)
      if (v == id) return true;
    return false;
  }
};

struct TimingConfig {
  std::vector<std::string> scalars;  // "float", "double"
  double warmup_seconds = 0;
  std::vector<TimingShape> shapes;
};

// A shape's cross-field checks, failing at the key in `t` (its [[shape]] or [fig4] table).
inline void check_shape(const TimingShape& s, const TomlTable& t) {
  if (s.d % s.heads != 0)
    t.fail("heads", "must divide d (d = " + std::to_string(s.d) +
                        ", heads = " + std::to_string(s.heads) + ")");
  if (s.m > s.n)
    t.fail("m",
           "must be at most n (m = " + std::to_string(s.m) + ", n = " + std::to_string(s.n) + ")");
}

// Read through the strict reader every config kind uses (io/strict_toml.hpp): unknown keys,
// wrong types and out-of-range values are refused with the key and the fix.
inline TimingConfig load_timing_config(const std::string& file) {
  constexpr std::int64_t kMax = 1 << 20;
  TomlTable root = TomlTable::parse_file(file, "configs/timing.toml");
  TimingConfig c;
  TomlTable run = root.table("run");
  c.scalars = run.choices("scalars", {"float", "double"});
  c.warmup_seconds = run.number("warmup_seconds", 0, 60);
  run.finish();
  for (TomlTable& t : root.tables("shape", false)) {
    TimingShape s;
    s.name = t.str("name");
    if (s.name.empty() || s.name.find_first_of("/ \t") != std::string::npos)
      t.fail("name", "must be a non-empty word without '/'");
    for (const auto& o : c.shapes)
      if (o.name == s.name) t.fail("name", "'" + s.name + "' is used twice");
    s.what = t.str("what", "");
    s.n = t.integer("n", 1, kMax), s.d = t.integer("d", 1, kMax);
    s.m = t.integer("m", 1, kMax), s.heads = t.integer("heads", 1, kMax);
    s.paper = t.boolean("paper", false), s.quick = t.boolean("quick", false);
    s.variants =
        t.choices("variants", {kVariantIds.begin(), kVariantIds.end()}, std::vector<std::string>{});
    t.finish();
    check_shape(s, t);
    c.shapes.push_back(s);
  }
  if (root.has("fig4")) {
    TomlTable fig = root.table("fig4");
    TimingShape s;
    s.d = fig.integer("d", 1, kMax), s.m = fig.integer("m", 1, kMax);
    s.heads = fig.integer("heads", 1, kMax);
    for (const std::int64_t n : fig.integers("n", 1, kMax)) {
      s.n = n;
      s.name = "fig4_n" + std::to_string(n);
      s.what = "Nyström paper Fig. 4, n = " + std::to_string(n);
      check_shape(s, fig);
      c.shapes.push_back(s);
    }
    fig.finish();
  }
  root.finish();
  if (c.shapes.empty())
    throw InputError(file + ": no shapes; add a [[shape]] table or a [fig4] grid");
  return c;
}

}  // namespace cosda::bench
