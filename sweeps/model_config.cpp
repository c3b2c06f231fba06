#include "sweeps/model_config.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "io/errors.hpp"
#include "io/strict_toml.hpp"

namespace cosda {
namespace {

constexpr std::int64_t kMaxExtent = std::int64_t{1} << 16;

bool valid_name(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
  });
}

std::string name_key(TomlTable& t, const std::string& key) {
  std::string v = t.str(key);
  if (!valid_name(v)) t.fail(key, "must match [a-z0-9_]+, got '" + v + "'");
  return v;
}

CounterProfile profile_of(const std::string& id) {
  for (std::size_t i = 0; i < kCounterProfileIds.size(); ++i)
    if (kCounterProfileIds[i] == id) return static_cast<CounterProfile>(i);
  return CounterProfile::kOadtr;
}

// Every other *.toml beside report.toml, by file name; names and printed ids (into `ids`) unique.
std::vector<ModelConfig> read_models(const std::filesystem::path& report_toml,
                                     std::map<std::string, std::string>& ids) {
  namespace fs = std::filesystem;
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(
           report_toml.parent_path().empty() ? fs::path(".") : report_toml.parent_path()))
    if (e.path().extension() == ".toml" && !fs::equivalent(e.path(), report_toml))
      files.push_back(e.path());
  std::sort(files.begin(), files.end());
  std::set<std::string> names;
  std::vector<ModelConfig> models;
  for (const auto& f : files) {
    ModelConfig m = load_model_config(f);
    if (!names.insert(m.name).second)
      throw InputError(
          fmt::format("{}: model name '{}' is used by another file in {}; names "
                      "must be unique",
                      m.source, m.name, report_toml.parent_path().string()));
    for (const auto& p : m.printed)
      if (!ids.emplace(p.id, m.name).second)
        throw InputError(fmt::format("{}: [[printed]] id '{}' is used twice; ids must be unique",
                                     m.source, p.id));
    models.push_back(std::move(m));
  }
  return models;
}

void read_ratios(TomlTable& t, const std::map<std::string, std::string>& ids, ReportConfig& r) {
  for (auto& x : t.tables("ratio", false)) {
    RatioEntry e;
    e.label = x.str("label");
    e.printed = x.number("printed", 0.0, 1e9);
    e.numerator = x.str("numerator");
    e.denominator = x.str("denominator");
    e.source = x.str("source", "");
    for (const auto& [key, id] :
         {std::pair{"numerator", &e.numerator}, {"denominator", &e.denominator}})
      if (ids.count(*id) == 0)
        x.fail(key, "'" + *id +
                        "' is not the id of any [[printed]] entry; use one of the model "
                        "files' printed ids");
    x.finish();
    r.ratios.push_back(e);
  }
}

void read_not_modelled(TomlTable& t, ReportConfig& r) {
  for (auto& x : t.tables("not_modelled", false)) {
    NotModelled e;
    e.table = x.str("table");
    e.row = x.str("row");
    e.flops_m = x.number("flops_m", 0.0, 1e9);
    e.reason = x.str("reason");
    x.finish();
    r.not_modelled.push_back(e);
  }
}

void read_alternatives(TomlTable& t, const std::map<std::string, std::string>& ids,
                       ReportConfig& r) {
  for (auto& x : t.tables("alternative", false)) {
    Alternative e;
    e.id = x.str("id");
    e.label = x.str("label");
    e.mlp_dim = x.integer("mlp_dim", 1, kMaxExtent, -1);
    e.input_dim = x.integer("input_dim", 1, kMaxExtent, -1);
    if (ids.count(e.id) == 0) x.fail("id", "'" + e.id + "' is not the id of any [[printed]] entry");
    x.finish();
    r.alternatives.push_back(e);
  }
}

// At most one [[figure]]; each of its models must run at each of its n.
void read_figures(TomlTable& t, ReportConfig& r) {
  std::vector<TomlTable> figs = t.tables("figure", false);
  if (figs.size() > 1) t.fail("figure", "must be at most one [[figure]] section");
  std::vector<std::string> model_names;
  for (const auto& m : r.models) model_names.push_back(m.name);
  std::sort(model_names.begin(), model_names.end());
  for (auto& x : figs) {
    FigureEntry f;
    f.file = name_key(x, "file");
    f.title = x.str("title");
    f.models = x.choices("models", model_names);
    f.n = x.integers("n", 1, kMaxExtent);
    std::vector<std::string> convs;
    for (const auto& c : conventions::kConventions) convs.emplace_back(c.id);
    const std::string conv = x.choice("convention", convs, "all");
    for (const auto& c : conventions::kConventions)
      if (c.id == conv) f.convention = c.convention;
    x.finish();
    for (const auto& name : f.models) {
      const auto it = std::find_if(r.models.begin(), r.models.end(),
                                   [&](const ModelConfig& m) { return m.name == name; });
      for (const std::int64_t n : f.n)
        if (const std::string why = check(spec_at(*it, n)); !why.empty())
          x.fail("n", fmt::format("holds {}, at which model '{}' cannot run: {}", n, name, why));
    }
    r.figures.push_back(f);
  }
}

}  // namespace

ModelConfig load_model_config(const std::filesystem::path& path) {
  TomlTable t = TomlTable::parse_file(path, "configs/models/gtzan_cotrans_b1.toml");
  ModelConfig m;
  m.source = path.string();
  m.name = name_key(t, "name");
  m.title = t.str("title", m.name);
  ModelSpec& s = m.spec;
  s.n = t.integer("n", 1, kMaxExtent);
  s.d = t.integer("embed_dim", 1, kMaxExtent);
  s.heads = t.integer("heads", 1, kMaxExtent);
  s.mlp = t.integer("mlp_dim", 1, kMaxExtent);
  s.input_dim = t.integer("input_dim", 0, kMaxExtent, 0);
  s.classes = t.integer("classes", 0, kMaxExtent, 0);
  const std::int64_t blocks = t.integer("blocks", 1, 64);
  std::vector<TomlTable> bt = t.tables("block", true);
  if (std::int64_t(bt.size()) != blocks)
    t.fail("blocks", fmt::format("is {} but the file has {} [[block]] sections; give one "
                                 "[[block]] per block",
                                 blocks, bt.size()));
  for (auto& b : bt) {
    s.attention.push_back(b.choice("attention", {kVariantIds.begin(), kVariantIds.end()}));
    b.finish();
  }
  s.m = t.integer("landmarks", 0, kMaxExtent, 0);
  s.pinv_iterations = int(t.integer("pinv_iterations", 1, 100, 6));
  s.activation = t.choice("activation", {"gelu", "relu"}, "gelu") == "relu" ? Activation::kRelu
                                                                            : Activation::kGelu;
  s.norm = t.choice("norm", {"post", "pre"}, "post") == "pre" ? NormPlacement::kPre
                                                              : NormPlacement::kPost;
  s.final_norm = t.boolean("final_norm", false);
  s.qkv_bias = t.boolean("qkv_bias", true);
  s.last_row_only = t.boolean("last_row_only", false);
  const std::string pos = t.choice("positional", {"none", "recycling", "absolute"}, "none");
  s.positional.kind = pos == "recycling"  ? PositionalKind::kRecycling
                      : pos == "absolute" ? PositionalKind::kAbsolute
                                          : PositionalKind::kNone;
  m.positions_2n = t.choice("positions", {"n", "2n-1"}, "n") == "2n-1";
  m.position_count = t.integer("position_count", 1, kMaxExtent, 0);
  s.positional.given = t.choice("encodings", {"fixed", "given"}, "fixed") == "given";
  s.class_token_block = t.integer("class_token_block", 0, 64, 0);
  s.seed = std::uint64_t(t.integer("seed", 0, std::int64_t{1} << 40, 1));
  for (auto& p : t.tables("printed", false)) {
    PrintedEntry e;
    e.id = name_key(p, "id");
    e.table = p.str("table");
    e.row = p.str("row");
    e.flops_m = p.number("flops_m", 0.0, 1e9);
    e.counter = profile_of(p.choice(
        "counter", std::vector<std::string>(kCounterProfileIds.begin(), kCounterProfileIds.end())));
    e.input_dim = p.integer("input_dim", 1, kMaxExtent, -1);
    e.note = p.str("note", "");
    e.log_flops = p.integer("log_flops", 0, std::int64_t{1} << 50, -1);
    e.log_source = p.str("log_source", "");
    e.params_k = p.number("params_k", 0.0, 1e12, -1.0);
    p.finish();
    m.printed.push_back(e);
  }
  t.finish();
  m.spec = spec_at(m, s.n);
  if (const std::string why = check(m.spec); !why.empty()) throw InputError(m.source + ": " + why);
  for (const auto& e : m.printed)
    if (const std::string why = check(spec_at(m, s.n, e.input_dim)); !why.empty())
      throw InputError(m.source + ": [[printed]] '" + e.id + "': " + why);
  return m;
}

ReportConfig load_report_config(const std::filesystem::path& report_toml) {
  TomlTable t = TomlTable::parse_file(report_toml, "configs/models/report.toml");
  ReportConfig r;
  r.source = report_toml.string();
  r.text = t.text();
  r.title = t.str("title");
  std::map<std::string, std::string> ids;  // printed id -> model name
  r.models = read_models(report_toml, ids);
  if (r.models.empty())
    throw InputError(r.source + ": no model files (*.toml) next to it; add configs/models/*.toml");
  read_ratios(t, ids, r);
  read_not_modelled(t, r);
  read_alternatives(t, ids, r);
  read_figures(t, r);
  t.finish();
  return r;
}

}  // namespace cosda
