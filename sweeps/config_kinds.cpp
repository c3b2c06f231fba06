#include "sweeps/config_kinds.hpp"

#include <toml++/toml.h>

#include <stdexcept>

#include "io/strict_toml.hpp"

namespace cosda {
namespace {

struct Kind {
  std::string_view name, key, run;  // run: the command, before the path
  bool array = false;               // the key must hold an array (a sweep's grid of d)
};

// A sweep is told by its list of d: the stream studies, whose d is one integer, are ruled out by
// their [[stream]] sections, which a sweep never has.
constexpr Kind kKinds[] = {
    {"sweep", "d", "cosda sweep ", true},
    {"sweep", "grid", "cosda sweep "},
    {"accuracy", "pinv_study_iterations", "cosda accuracy "},
    {"drift", "checkpoints", "cosda drift "},
    {"overflow", "sigma_min", "cosda overflow "},
    {"verification", "exact", "cosda verify --config "},
    {"model", "embed_dim", "cosda count --model "},
    {"models report", "not_modelled", "cosda models --config "},
    {"timing", "shape", "cosda-bench --cosda_config="},
    {"timing", "fig4", "cosda-bench --cosda_config="},
};

}  // namespace

std::string other_kind_hint(std::string_view kind, const std::filesystem::path& path) {
  bool known = false;  // a caller's misspelt kind would give every file of its own kind a hint
  for (const Kind& k : kKinds) known = known || k.name == kind;
  if (!known) throw std::logic_error("other_kind_hint: no config kind '" + std::string(kind) + "'");
  toml::table t;
  try {
    t = parse_toml(read_config_text(path, ""), path.string());
  } catch (const InputError&) {
    return "";
  }
  auto is = [&](const Kind& k) {
    const toml::node* n = t.get(k.key);
    return n != nullptr && (!k.array || (n->is_array() && !t.contains("stream")));
  };
  for (const Kind& k : kKinds)  // a key of its own kind: the error is within the kind
    if (k.name == kind && is(k)) return "";
  for (const Kind& k : kKinds) {
    if (!is(k)) continue;
    const std::string what = k.array ? "its '" + std::string(k.key) + "' is a list"
                                     : "it has key '" + std::string(k.key) + "'";
    const bool vowel = std::string_view("aeiou").find(k.name[0]) != std::string_view::npos;
    return "; " + path.string() + " looks like " + (vowel ? "an " : "a ") + std::string(k.name) +
           " config (" + what + "): run " + std::string(k.run) + path.string();
  }
  return "";
}

}  // namespace cosda
