#include "sweeps/config.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <optional>
#include <set>
#include <tuple>

#include "attention/registry.hpp"
#include "io/strict_toml.hpp"
#include "sweeps/run_checks.hpp"

namespace cosda {
namespace {

const std::vector<std::string> kIds(kVariantIds.begin(), kVariantIds.end());
const std::vector<std::string_view> kCoordinates = {"layers", "heads", "n", "d", "m"};

bool is_stem(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
  });
}

const std::vector<std::int64_t>& coordinate(const SweepGrid& g, std::string_view c) {
  if (c == "n") return g.n;
  if (c == "d") return g.d;
  if (c == "m") return g.m;
  if (c == "layers") return g.layers;
  return g.heads;
}

// The grid keys of t over g (the top level's, or the defaults), then t finished. m is checked
// here, where a variant needs it: a grid without m (its own or the top level's) may list only
// variants without a rank.
SweepGrid read_grid(TomlTable& t, SweepGrid g, bool top_has_m) {
  const bool has_m = top_has_m || t.has("m");
  auto over = [](const auto& v) { return v.empty() ? std::nullopt : std::optional(v); };
  g.variants = t.choices("variants", kIds, over(g.variants));
  // The ranges of cosda count (sweeps/run_checks.hpp): a grid point is a count's arguments.
  for (const auto& [key, list] :
       {std::pair{"n", &g.n}, {"d", &g.d}, {"m", &g.m}, {"layers", &g.layers}, {"heads", &g.heads}})
    *list = t.integers(key, range_of(key).lo, range_of(key).hi, over(*list));
  t.finish();
  for (const std::string& v : g.variants)
    if (!has_m && find_variant(v)->landmarks != LandmarkKind::kNone)
      t.fail("m", "is missing: " + v + " has a rank (landmarks or random features); add m = [...]");
  return g;
}

// The top-level grid, then each [[grid]] over it; c.variants in first appearance order.
void read_grids(TomlTable& top, std::vector<TomlTable>& grids, SweepConfig& c) {
  SweepGrid base;
  base.layers = {1};
  base.heads = {1};
  base.m = {1};  // m is optional where no listed variant has a rank
  c.grids.push_back(read_grid(top, base, top.has("m")));
  for (TomlTable& t : grids) c.grids.push_back(read_grid(t, c.grids.front(), top.has("m")));
  for (const SweepGrid& g : c.grids)
    for (const std::string& v : g.variants)
      if (std::find(c.variants.begin(), c.variants.end(), v) == c.variants.end())
        c.variants.push_back(v);
}

void read_tables(std::vector<TomlTable>& tables, SweepConfig& c) {
  for (TomlTable& t : tables) {
    TableSpec s;
    s.kind = t.choice("kind", {"points", "printed", "cotrans_ratios"});
    s.title = t.str("title", "");
    if (s.kind == "printed")
      s.printed = t.choice("printed", {"nystrom_table3", "nystrom_table4"});
    else if (!t.str("printed", "").empty() || t.has("printed"))  // read: a known key here
      t.fail("printed", "only applies to kind = \"printed\"; remove it");
    t.finish();
    c.tables.push_back(s);
  }
  if (c.tables.empty()) c.tables.push_back({"points", "", ""});
}

// The coordinates a figure fixes; all but x with several grid values must be (one line a variant).
void read_fixed(TomlTable& t, const SweepConfig& c, FigureSpec& f) {
  for (std::string_view coord : kCoordinates) {
    const std::string key(coord);
    if (const auto v = t.integer_if(key, range_of(key).lo, range_of(key).hi)) f.fixed[key] = *v;
    if (f.fixed.count(key) && coord == f.x)
      t.fail(key, "is the figure's x axis; remove the key or change x");
  }
  t.finish();
  for (std::string_view coord : kCoordinates) {
    const std::string key(coord);
    std::set<std::int64_t> values;
    for (const SweepGrid& g : c.grids)
      for (std::int64_t v : coordinate(g, coord)) values.insert(v);
    if (const auto it = f.fixed.find(key); it != f.fixed.end()) {
      if (!values.count(it->second))  // else every point is swept, then the figure has none
        t.fail(key, fmt::format("is {}, which no grid sweeps; use one of {}", it->second,
                                fmt::join(values, ", ")));
    } else if (coord != f.x && values.size() > 1) {
      t.fail(key, fmt::format("is missing: it takes {} values in the grid and a figure draws one "
                              "line a variant; add e.g. {} = {}",
                              values.size(), key, *values.begin()));
    }
  }
}

FigureSpec read_figure(TomlTable& t, const SweepConfig& c) {
  FigureSpec f;
  f.file = t.str("file");
  if (!is_stem(f.file))
    t.fail("file", "must use only a-z, 0-9 and _ (no extension), got \"" + f.file + "\"");
  for (const FigureSpec& other : c.figures)
    if (other.file == f.file)
      t.fail("file", "\"" + f.file + "\" is used by two figures; give each its own file");
  f.title = t.str("title", f.file);
  f.x = t.choice("x", {"n", "d", "m"});
  f.y =
      t.choice("y", {"flops", "peak", "valley", "heap_peak_bytes", "update_flops", "plain_flops"});
  f.variants = t.choices("variants", kIds, std::vector<std::string>{});
  for (const std::string& id : f.variants)
    if (std::find(c.variants.begin(), c.variants.end(), id) == c.variants.end())
      t.fail("variants", "lists '" + id +
                             "', which is not in the config's variants; add it "
                             "there or drop it");
  read_fixed(t, c, f);
  return f;
}

}  // namespace

SweepConfig parse_config(std::string_view text, const std::string& source) {
  TomlTable top = TomlTable::parse(std::string(text), source);
  SweepConfig c;
  c.source = source;
  c.text = std::string(text);
  c.name = top.str("name");
  if (!is_stem(c.name))
    top.fail("name",
             "must use only a-z, 0-9 and _ (it names the results folder), got \"" + c.name + "\"");
  c.title = top.str("title", c.name);
  c.scalar = top.choice("scalar", {"double", "float"}, "double");
  c.formulas = top.choice("formulas", {"nystrom", "cotrans"}, "nystrom");
  c.convention = top.choice("convention", {"all", "mul", "mac", "cotrans"}, "all");
  std::vector<TomlTable> grids = top.tables("grid", false), tables = top.tables("table", false),
                         figures = top.tables("figure", false);
  read_grids(top, grids, c);
  read_tables(tables, c);
  for (TomlTable& t : figures) c.figures.push_back(read_figure(t, c));
  return c;
}

SweepConfig load_config(const std::filesystem::path& path) {
  return parse_config(read_config_text(path, "configs/nystrom_table3.toml"), path.string());
}

bool uses_landmarks(const std::string& id) {
  const VariantTraits* t = find_variant(id);
  return t == nullptr || t->landmarks != LandmarkKind::kNone;
}

std::vector<Point> grid_points(const SweepConfig& c) {
  std::vector<Point> out;
  for (const SweepGrid& g : c.grids)
    for (const std::string& v : g.variants)
      for (std::int64_t layers : g.layers)
        for (std::int64_t heads : g.heads)
          for (std::int64_t n : g.n)
            for (std::int64_t d : g.d)
              for (std::int64_t m : g.m)  // no landmarks, no rank m: one row, m = 1 (as count)
                out.push_back({.variant = v,
                               .n = n,
                               .d = d,
                               .m = uses_landmarks(v) ? m : 1,
                               .heads = heads,
                               .layers = layers});
  auto rank = [&](const std::string& id) {
    return std::find(c.variants.begin(), c.variants.end(), id) - c.variants.begin();
  };
  auto key = [&](const Point& p) {
    return std::make_tuple(rank(p.variant), p.layers, p.heads, p.n, p.d, p.m);
  };
  std::sort(out.begin(), out.end(),
            [&](const Point& a, const Point& b) { return key(a) < key(b); });
  out.erase(std::unique(out.begin(), out.end(),
                        [&](const Point& a, const Point& b) { return key(a) == key(b); }),
            out.end());
  return out;
}

}  // namespace cosda
