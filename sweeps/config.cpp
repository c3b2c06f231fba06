#include "sweeps/config.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <toml++/toml.h>

#include <algorithm>
#include <set>
#include <tuple>

#include "attention/registry.hpp"
#include "io/errors.hpp"
#include "io/strict_toml.hpp"
#include "sweeps/run_checks.hpp"

namespace cosda {
namespace {

const std::vector<std::string_view> kTopKeys = {
    "name",  "title",  "variants", "n",          "d",    "m",     "layers",
    "heads", "scalar", "formulas", "convention", "grid", "table", "figure"};
const std::vector<std::string_view> kGridKeys = {"variants", "n", "d", "m", "layers", "heads"};
const std::vector<std::string_view> kTableKeys = {"kind", "printed", "title"};
const std::vector<std::string_view> kFigureKeys = {"file",   "title", "x", "y", "variants",
                                                   "layers", "heads", "n", "d", "m"};
const std::vector<std::string_view> kCoordinates = {"layers", "heads", "n", "d", "m"};

std::string join(const std::vector<std::string_view>& items) {
  std::string s;
  for (auto i : items) s += (s.empty() ? "" : ", ") + std::string(i);
  return s;
}

std::string describe(const toml::node& node) {
  switch (node.type()) {
    case toml::node_type::string:
      return "a string";
    case toml::node_type::integer:
      return "an integer";
    case toml::node_type::floating_point:
      return "a floating-point number";
    case toml::node_type::boolean:
      return "a boolean";
    case toml::node_type::array:
      return "a list";
    case toml::node_type::table:
      return "a table";
    default:
      return "a date or time";
  }
}

class Reader {
 public:
  explicit Reader(std::string source) : source_(std::move(source)) {}

  [[noreturn]] void fail(const toml::source_region& where, const std::string& what) const {
    std::string at = source_;
    if (where.begin.line > 0) at += ":" + std::to_string(where.begin.line);
    throw InputError(at + ": " + what);
  }

  // Rejects keys not in `valid`, suggesting the closest one.
  void check_keys(const toml::table& t, const std::vector<std::string_view>& valid,
                  std::string_view where) const {
    for (auto&& [key, node] : t) {
      const std::string_view k = key.str();
      if (std::find(valid.begin(), valid.end(), k) != valid.end()) continue;
      const std::string near = closest_key(k, valid);
      fail(key.source().begin.line > 0 ? key.source() : node.source(),
           "unknown key '" + std::string(k) + "' in " + std::string(where) +
               (near.empty() ? "" : "; did you mean '" + near + "'?") +
               " (valid keys: " + join(valid) + ")");
    }
  }

  std::string string(const toml::table& t, std::string_view key, std::string_view where,
                     const std::string& fallback, bool required) const {
    const toml::node* node = t.get(key);
    if (node == nullptr) {
      if (required)
        fail(t.source(), "missing key '" + std::string(key) + "' in " + std::string(where) +
                             "; add " + std::string(key) + " = \"...\"");
      return fallback;
    }
    if (!node->is_string())
      fail(node->source(), "key '" + std::string(key) + "' must be a string, got " +
                               describe(*node) + "; write " + std::string(key) + " = \"...\"");
    return std::string(**node->as_string());
  }

  std::string choice(const toml::table& t, std::string_view key, std::string_view where,
                     const std::vector<std::string_view>& choices, const std::string& fallback,
                     bool required) const {
    std::string v = string(t, key, where, fallback, required);
    if (std::find(choices.begin(), choices.end(), v) != choices.end()) return v;
    const std::string near = closest_key(v, choices);
    fail(t.get(key)->source(), "key '" + std::string(key) + "' must be one of " + join(choices) +
                                   ", got \"" + v + "\"" +
                                   (near.empty() ? "" : "; did you mean \"" + near + "\"?"));
  }

  std::int64_t integer(const toml::node& node, std::string_view key, std::int64_t lo,
                       std::int64_t hi) const {
    if (!node.is_integer())
      fail(node.source(),
           "key '" + std::string(key) + "' must hold integers, got " + describe(node));
    const std::int64_t v = **node.as_integer();
    if (v < lo || v > hi)
      fail(node.source(), "key '" + std::string(key) + "' must be in [" + std::to_string(lo) +
                              ", " + std::to_string(hi) + "], got " + std::to_string(v));
    return v;
  }

  // A non-empty list of integers in [lo, hi], without repeats.
  std::vector<std::int64_t> integers(const toml::node& node, std::string_view key, std::int64_t lo,
                                     std::int64_t hi) const {
    const std::string example = "; write e.g. " + std::string(key) + " = [" +
                                std::to_string(std::max<std::int64_t>(lo, 1)) + "]";
    const toml::array* a = node.as_array();
    if (a == nullptr)
      fail(node.source(), "key '" + std::string(key) + "' must be a list of integers, got " +
                              describe(node) + example);
    if (a->empty()) fail(node.source(), "key '" + std::string(key) + "' is empty" + example);
    std::vector<std::int64_t> out;
    for (const toml::node& e : *a) {
      const std::int64_t v = integer(e, key, lo, hi);
      if (std::find(out.begin(), out.end(), v) != out.end())
        fail(e.source(), "key '" + std::string(key) + "' lists " + std::to_string(v) +
                             " twice; list each value once");
      out.push_back(v);
    }
    return out;
  }

  std::vector<std::string> variant_ids(const toml::node& node) const {
    const toml::array* a = node.as_array();
    if (a == nullptr || a->empty())
      fail(node.source(), "key 'variants' must be a non-empty list of ids, got " + describe(node) +
                              "; known ids: " + variant_list());
    std::vector<std::string_view> known;
    for (const auto& v : kVariants) known.push_back(v.id);
    std::vector<std::string> out;
    for (const toml::node& e : *a) {
      if (!e.is_string())
        fail(e.source(), "key 'variants' must hold strings, got " + describe(e) +
                             "; known ids: " + variant_list());
      const std::string id(**e.as_string());
      if (find_variant(id) == nullptr) {
        const std::string near = closest_key(id, known);
        fail(e.source(), "unknown variant '" + id + "'" +
                             (near.empty() ? "" : "; did you mean '" + near + "'?") +
                             " (known: " + variant_list() + ")");
      }
      if (std::find(out.begin(), out.end(), id) != out.end())
        fail(e.source(), "variant '" + id + "' listed twice; list each id once");
      out.push_back(id);
    }
    return out;
  }

  // Reads the grid keys present in t into g.
  void grid(const toml::table& t, SweepGrid& g) const {
    if (const toml::node* v = t.get("variants")) g.variants = variant_ids(*v);
    // The ranges of cosda count (sweeps/run_checks.hpp): a grid point is a count's arguments.
    for (const auto& [key, list] : {std::pair{"n", &g.n},
                                    {"d", &g.d},
                                    {"m", &g.m},
                                    {"layers", &g.layers},
                                    {"heads", &g.heads}})
      if (const toml::node* v = t.get(key))
        *list = integers(*v, key, range_of(key).lo, range_of(key).hi);
  }

  // The tables of an array-of-tables key ([[grid]] etc.).
  std::vector<const toml::table*> tables(const toml::table& top, std::string_view key) const {
    std::vector<const toml::table*> out;
    const toml::node* node = top.get(key);
    if (node == nullptr) return out;
    const toml::array* a = node->as_array();
    if (a == nullptr)
      fail(node->source(), "key '" + std::string(key) + "' must be a list of tables; write [[" +
                               std::string(key) + "]] sections");
    for (const toml::node& e : *a) {
      if (!e.is_table())
        fail(e.source(), "key '" + std::string(key) + "' must hold tables, got " + describe(e) +
                             "; write [[" + std::string(key) + "]] sections");
      out.push_back(e.as_table());
    }
    return out;
  }

 private:
  std::string source_;
};

// The fix of a missing variants key: " = [\"<the reference variant>\", ...]".
std::string example_variants() {
  return " = [\"" + std::string(reference_variant().id) + "\", ...]";
}

bool is_stem(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
  });
}

std::vector<std::int64_t> coordinate(const SweepGrid& g, std::string_view c) {
  if (c == "n") return g.n;
  if (c == "d") return g.d;
  if (c == "m") return g.m;
  if (c == "layers") return g.layers;
  return g.heads;
}

}  // namespace

namespace {

// name, title, scalar and formulas, and that the top-level grid keys are there.
void read_top_level(const Reader& r, const toml::table& top, SweepConfig& c) {
  c.name = r.string(top, "name", "the top level", "", true);
  if (!is_stem(c.name))
    r.fail(top.get("name")->source(),
           "key 'name' must use only a-z, 0-9 and _ (it names the results folder), got \"" +
               c.name + "\"");
  c.title = r.string(top, "title", "the top level", c.name, false);
  c.scalar = r.choice(top, "scalar", "the top level", {"double", "float"}, "double", false);
  c.formulas = r.choice(top, "formulas", "the top level", {"nystrom", "cotrans"}, "nystrom", false);
  c.convention =
      r.choice(top, "convention", "the top level", {"all", "mul", "mac", "cotrans"}, "all", false);
  for (std::string_view key : {"variants", "n", "d"})  // m: read_grids, where a variant needs it
    if (!top.contains(key))
      r.fail(top.source(), "missing key '" + std::string(key) + "' at the top level; add " +
                               std::string(key) +
                               (key == "variants" ? example_variants() : " = [...]"));
}

// The top-level grid, then each [[grid]] over it; c.variants in first appearance order.
void read_grids(const Reader& r, const toml::table& top, SweepConfig& c) {
  SweepGrid base;
  base.layers = {1};
  base.heads = {1};
  base.m = {1};  // m is optional where no listed variant has a rank
  // A grid without m (its own or the top level's) may list only variants without a rank.
  auto needs_m = [&](const toml::table& t, const SweepGrid& g) {
    if (top.contains("m") || t.contains("m")) return;
    for (const std::string& v : g.variants)
      if (find_variant(v)->landmarks != LandmarkKind::kNone)
        r.fail(t.source(), "missing key 'm': " + v +
                               " has a rank (landmarks or random features); add m = [...]");
  };
  r.grid(top, base);
  needs_m(top, base);
  c.grids.push_back(base);
  for (const toml::table* t : r.tables(top, "grid")) {
    r.check_keys(*t, kGridKeys, "a [[grid]]");
    SweepGrid g = base;
    r.grid(*t, g);
    needs_m(*t, g);
    c.grids.push_back(g);
  }
  for (const SweepGrid& g : c.grids)
    for (const std::string& v : g.variants)
      if (std::find(c.variants.begin(), c.variants.end(), v) == c.variants.end())
        c.variants.push_back(v);
}

void read_tables(const Reader& r, const toml::table& top, SweepConfig& c) {
  for (const toml::table* t : r.tables(top, "table")) {
    r.check_keys(*t, kTableKeys, "a [[table]]");
    TableSpec s;
    s.kind = r.choice(*t, "kind", "a [[table]]", {"points", "printed", "cotrans_ratios"}, "", true);
    s.title = r.string(*t, "title", "a [[table]]", "", false);
    if (s.kind == "printed") {
      s.printed =
          r.choice(*t, "printed", "a [[table]]", {"nystrom_table3", "nystrom_table4"}, "", true);
    } else if (t->contains("printed")) {
      r.fail(t->get("printed")->source(),
             "key 'printed' only applies to kind = \"printed\"; remove it");
    }
    c.tables.push_back(s);
  }
  if (c.tables.empty()) c.tables.push_back({"points", "", ""});
}

// The coordinates a figure fixes; all but x with several grid values must be (one line a variant).
void read_fixed(const Reader& r, const toml::table& t, const SweepConfig& c, FigureSpec& f) {
  for (std::string_view coord : kCoordinates) {
    const toml::node* v = t.get(coord);
    if (v == nullptr) continue;
    if (coord == f.x)
      r.fail(v->source(), "figure fixes '" + std::string(coord) +
                              "', which is its x axis; remove the key or change x");
    f.fixed[std::string(coord)] = r.integer(*v, coord, range_of(coord).lo, range_of(coord).hi);
  }
  for (std::string_view coord : kCoordinates) {
    if (coord == f.x) continue;
    std::set<std::int64_t> values;
    for (const SweepGrid& g : c.grids)
      for (std::int64_t v : coordinate(g, coord)) values.insert(v);
    if (const auto it = f.fixed.find(std::string(coord)); it != f.fixed.end()) {
      if (!values.count(it->second))  // else every point is swept, then the figure has none
        r.fail(t.get(coord)->source(),
               fmt::format("figure \"{}\" fixes {} = {}, which no grid sweeps; use one of {}",
                           f.file, coord, it->second, fmt::join(values, ", ")));
      continue;
    }
    if (values.size() > 1)
      r.fail(t.source(), "figure \"" + f.file + "\" does not fix '" + std::string(coord) +
                             "', which takes " + std::to_string(values.size()) +
                             " values in the grid; add e.g. " + std::string(coord) + " = " +
                             std::to_string(*values.begin()));
  }
}

FigureSpec read_figure(const Reader& r, const toml::table& t, const SweepConfig& c) {
  r.check_keys(t, kFigureKeys, "a [[figure]]");
  FigureSpec f;
  f.file = r.string(t, "file", "a [[figure]]", "", true);
  if (!is_stem(f.file))
    r.fail(t.get("file")->source(),
           "key 'file' must use only a-z, 0-9 and _ (no extension), got \"" + f.file + "\"");
  for (const FigureSpec& other : c.figures)
    if (other.file == f.file)
      r.fail(t.get("file")->source(),
             "figure file \"" + f.file + "\" is used twice; give each figure its own file");
  f.title = r.string(t, "title", "a [[figure]]", f.file, false);
  f.x = r.choice(t, "x", "a [[figure]]", {"n", "d", "m"}, "", true);
  f.y = r.choice(t, "y", "a [[figure]]",
                 {"flops", "peak", "valley", "heap_peak_bytes", "update_flops", "plain_flops"}, "",
                 true);
  if (const toml::node* v = t.get("variants")) {
    f.variants = r.variant_ids(*v);
    for (const std::string& id : f.variants)
      if (std::find(c.variants.begin(), c.variants.end(), id) == c.variants.end())
        r.fail(v->source(), "figure variant '" + id +
                                "' is not in the config's variants; add it there or drop it");
  }
  read_fixed(r, t, c, f);
  return f;
}

}  // namespace

SweepConfig parse_config(std::string_view text, const std::string& source) {
  const Reader r(source);
  toml::table top = parse_toml(text, source);
  r.check_keys(top, kTopKeys, "the top level");
  SweepConfig c;
  c.source = source;
  c.text = std::string(text);
  read_top_level(r, top, c);
  read_grids(r, top, c);
  read_tables(r, top, c);
  for (const toml::table* t : r.tables(top, "figure")) c.figures.push_back(read_figure(r, *t, c));
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
              for (std::int64_t m : g.m) {
                Point p;
                p.variant = v;
                p.layers = layers;
                p.heads = heads;
                p.n = n;
                p.d = d;
                // A variant without landmarks has no rank m: one row, m = 1 (as count).
                p.m = uses_landmarks(v) ? m : 1;
                out.push_back(p);
              }
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
