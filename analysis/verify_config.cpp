// configs/verification.toml, read through the strict TOML front end (io/strict_toml.hpp).
#include <fmt/format.h>

#include "analysis/verify.hpp"
#include "io/errors.hpp"
#include "io/strict_toml.hpp"

namespace cosda::verify {
namespace {

template <std::size_t N>
std::vector<std::array<std::int64_t, N>> tuples(TomlTable& t, const std::string& key) {
  std::vector<std::array<std::int64_t, N>> out;
  for (const std::vector<std::int64_t>& row : t.integer_rows(key, N, 1, 1 << 14)) {
    std::array<std::int64_t, N> v{};
    std::copy(row.begin(), row.end(), v.begin());
    out.push_back(v);
  }
  return out;
}

// [orders]: for each axis, the swept values and the two fixed parameters.
std::vector<Axis> read_axes(TomlTable& orders, const std::string& file) {
  std::vector<Axis> axes;
  for (const char axis : {'n', 'd', 'm'}) {
    const std::string key(1, axis);
    Axis a{axis, orders.integer_array(key, 1, 1 << 14), 0, 0};
    const std::vector<std::int64_t> at = orders.integer_array(key + "_at", 1, 1 << 14);
    if (at.size() != 2 || a.values.size() < 2)
      throw InputError(
          fmt::format("{}: [orders] {} needs two or more values and {}_at two", file, key, key));
    a.a = at[0];
    a.b = at[1];
    axes.push_back(a);
  }
  return axes;
}

}  // namespace

Grid read_grid(const std::filesystem::path& path) {
  TomlTable root = TomlTable::parse_file(path, "configs/verification.toml");
  Grid g;
  TomlTable exact = root.table("exact");
  g.n = exact.integer_array("n", 1, 4096);
  g.d = exact.integer_array("d", 1, 4096);
  g.m = exact.integer_array("m", 1, 4096);
  g.heads = exact.integer_array("heads", 1, 64);
  TomlTable compare = root.table("compare");
  g.nystrom = tuples<3>(compare, "nystrom");
  g.cotrans = tuples<2>(compare, "cotrans");
  for (const auto& p : g.nystrom)
    if (p[2] > p[0])
      throw InputError(fmt::format("{}: [compare] nystrom point ({}, {}, {}) needs m <= n",
                                   path.string(), p[0], p[1], p[2]));
  TomlTable orders = root.table("orders");
  g.axes = read_axes(orders, path.string());
  TomlTable paper = root.table("paper");
  g.tables = paper.boolean("tables");
  for (const TomlTable* t : {&exact, &compare, &orders, &paper}) t->finish();
  root.finish();
  g.text = root.text();
  return g;
}

}  // namespace cosda::verify
