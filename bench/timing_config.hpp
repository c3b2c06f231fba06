// configs/timing.toml: load_timing_config() returns every [[shape]] in file order, then the [fig4]
// grid (one shape per n, named fig4_n<N>). Every field is checked (a bad one is an InputError
// naming file, field and fix); only paper, quick, variants and what are optional.
#pragma once

#include <toml++/toml.h>

#include <cstdint>
#include <string>
#include <vector>

#include "attention/registry.hpp"
#include "io/errors.hpp"
#include "io/strict_toml.hpp"

namespace cosda::bench {

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

namespace detail {

inline std::string where(const std::string& file, const std::string& field) {
  return file + ": field " + field;
}

template <class View>
std::int64_t positive(const View& node, const std::string& file, const std::string& field) {
  const auto v = node.template value<std::int64_t>();
  if (!v || *v < 1 || *v > (1 << 20))
    throw InputError(where(file, field) + " must be an integer in [1, 1048576]");
  return *v;
}

template <class View>
bool flag(const View& node, const std::string& file, const std::string& field) {
  if (!node) return false;
  const auto v = node.template value<bool>();
  if (!v) throw InputError(where(file, field) + " must be true or false");
  return *v;
}

inline void check_shape(const TimingShape& s, const std::string& file, const std::string& at) {
  if (s.d % s.heads != 0)
    throw InputError(where(file, at + ".heads") + " must divide d (d = " + std::to_string(s.d) +
                     ", heads = " + std::to_string(s.heads) + ")");
  if (s.m > s.n)
    throw InputError(where(file, at + ".m") + " must be at most n (m = " + std::to_string(s.m) +
                     ", n = " + std::to_string(s.n) + ")");
  for (const auto& v : s.variants)
    if (find_variant(v) == nullptr)
      throw InputError(where(file, at + ".variants") + ": unknown id '" + v +
                       "'; known: " + variant_list());
}

}  // namespace detail

inline TimingConfig load_timing_config(const std::string& file) {
  using detail::where;
  // The strict front end every config kind reads through (io/strict_toml.hpp).
  const toml::table root = parse_toml_file(file, "configs/timing.toml");
  TimingConfig c;
  const auto run = root["run"];
  if (!run.is_table()) throw InputError(where(file, "[run]") + " is missing; add a [run] table");
  const auto* scalars = run["scalars"].as_array();
  if (scalars == nullptr || scalars->empty())
    throw InputError(where(file, "run.scalars") +
                     " must be a non-empty list of \"float\"/\"double\"");
  for (const auto& s : *scalars) {
    const auto v = s.value<std::string>();
    if (!v || (*v != "float" && *v != "double"))
      throw InputError(where(file, "run.scalars") + " entries must be \"float\" or \"double\"");
    c.scalars.push_back(*v);
  }
  const auto warm = run["warmup_seconds"].value<double>();
  if (!warm || *warm < 0 || *warm > 60)
    throw InputError(where(file, "run.warmup_seconds") + " must be a number in [0, 60]");
  c.warmup_seconds = *warm;

  if (const auto* shapes = root["shape"].as_array()) {
    for (std::size_t i = 0; i < shapes->size(); ++i) {
      const std::string at = "shape[" + std::to_string(i) + "]";
      const auto* t = (*shapes)[i].as_table();
      if (t == nullptr) throw InputError(where(file, at) + " must be a table ([[shape]])");
      const toml::node_view<const toml::node> node{*t};
      TimingShape s;
      const auto name = node["name"].value<std::string>();
      if (!name || name->empty() || name->find_first_of("/ \t") != std::string::npos)
        throw InputError(where(file, at + ".name") + " must be a non-empty word without '/'");
      s.name = *name;
      s.what = node["what"].value_or(std::string{});
      s.n = detail::positive(node["n"], file, at + ".n");
      s.d = detail::positive(node["d"], file, at + ".d");
      s.m = detail::positive(node["m"], file, at + ".m");
      s.heads = detail::positive(node["heads"], file, at + ".heads");
      s.paper = detail::flag(node["paper"], file, at + ".paper");
      s.quick = detail::flag(node["quick"], file, at + ".quick");
      if (node["variants"]) {
        const auto* list = node["variants"].as_array();
        if (list == nullptr) throw InputError(where(file, at + ".variants") + " must be a list");
        for (const auto& v : *list) s.variants.push_back(v.value_or(std::string{}));
      }
      detail::check_shape(s, file, at);
      for (const auto& o : c.shapes)
        if (o.name == s.name)
          throw InputError(where(file, at + ".name") + " '" + s.name + "' is used twice");
      c.shapes.push_back(s);
    }
  }
  if (const auto fig = root["fig4"]; fig) {
    if (!fig.is_table()) throw InputError(where(file, "fig4") + " must be a table");
    const std::int64_t d = detail::positive(fig["d"], file, "fig4.d");
    const std::int64_t m = detail::positive(fig["m"], file, "fig4.m");
    const std::int64_t heads = detail::positive(fig["heads"], file, "fig4.heads");
    const auto* ns = fig["n"].as_array();
    if (ns == nullptr || ns->empty())
      throw InputError(where(file, "fig4.n") + " must be a non-empty list of window lengths");
    for (std::size_t i = 0; i < ns->size(); ++i) {
      TimingShape s;
      s.n = detail::positive(toml::node_view<const toml::node>{(*ns)[i]}, file,
                             "fig4.n[" + std::to_string(i) + "]");
      s.d = d, s.m = m, s.heads = heads;
      s.name = "fig4_n" + std::to_string(s.n);
      s.what = "Nyström paper Fig. 4, n = " + std::to_string(s.n);
      detail::check_shape(s, file, "fig4");
      c.shapes.push_back(s);
    }
  }
  if (c.shapes.empty())
    throw InputError(file + ": no shapes; add a [[shape]] table or a [fig4] grid");
  return c;
}

}  // namespace cosda::bench
