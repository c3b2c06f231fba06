// cosda count --model FILE: executed counts of a whole model per step, by part and block.
// cosda models: the whole-model report (results/models): every FLOPs number the Continual
// Transformers paper prints in its Tables 1-4 against our executed counts and the models of
// the authors' counters, the savings ratios, and the cost-by-part figure.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>
#include <tuple>

#include "analysis/model_cost.hpp"
#include "io/atomic_file.hpp"
#include "io/errors.hpp"
#include "io/plot.hpp"
#include "sweeps/args.hpp"
#include "sweeps/commands.hpp"
#include "sweeps/model_config.hpp"

namespace cosda {
namespace {

using conventions::Convention;

std::string num(double v) { return fmt::format("{}", v); }

std::string counts_json(const ModelCost& c, const OpCounts& o) {
  const double k = double(c.cycle_steps);
  const auto t = conventions::cotrans_triple(o);
  return fmt::format(
      R"({{"buckets": {{"mul": {}, "add": {}, "div": {}, "exp": {}, "other": {}}}, "all": {}, )"
      R"("mul": {}, "mac": {}, "cotrans": {{"mul": {}, "add": {}, "exp": {}}}}})",
      num(o.mul / k), num(o.add / k), num(o.div / k), num(o.exp / k), num(o.other / k),
      num(c.per_step(o, Convention::kAll)), num(c.per_step(o, Convention::kMul)),
      num(c.per_step(o, Convention::kMac)), num(t.mul / k), num(t.add / k), num(t.exp / k));
}

std::string parts_json(const ModelCost& c, const PartCounts& p) {
  std::string s = "{";
  for (int i = 0; i < kParts; ++i)
    s += fmt::format("{}\"{}\": {}", i ? ", " : "", kPartNames[i], counts_json(c, p[i]));
  return s + "}";
}

// The paper prints every FLOPs count in millions with one decimal. Ratios: the digits after
// the decimal point of the printed value.
constexpr int kFlopsPlaces = 1;
int decimals(double v) {
  const std::string s = fmt::format("{}", v);
  const auto dot = s.find('.');
  return dot == std::string::npos ? 0 : int(s.size() - dot - 1);
}
bool rounds_to(double value, double printed, int places) {
  const double scale = std::pow(10.0, places);
  return std::abs(std::round(value * scale) - std::round(printed * scale)) < 0.5;
}
std::string fixed(double v, int places) { return fmt::format("{:.{}f}", v, places); }
std::string millions(double v) { return fixed(v / 1e6, 3); }

struct Row {
  const ModelConfig* model = nullptr;
  const PrintedEntry* printed = nullptr;
  const ModelCost* cost = nullptr;
  double counter = 0;
  std::vector<CounterTerm> terms;
  std::string verdict;
};

std::string verdict_of(const ModelCost& c, double counter, double printed_m) {
  const OpCounts t = c.total();
  for (const auto& conv : conventions::kConventions)
    if (rounds_to(c.per_step(t, conv.convention) / 1e6, printed_m, kFlopsPlaces))
      return fmt::format("reproduced ({})", conv.id);
  if (rounds_to(counter / 1e6, printed_m, kFlopsPlaces)) return "explained by the counter model";
  if (std::abs(std::round(counter / 1e5) - std::round(printed_m * 10)) <= 1)
    return "counter model within 0.1 M";
  return "not reproduced";
}

}  // namespace

int cmd_count_model(const Argv& argv) {
  Args a("count",
         {{"model", "FILE", "whole-model config (configs/models/*.toml)"},
          {"n", "N", "window length (default: the config's)"},
          {"input-dim", "D", "raw token width (default: the config's; 0: no embedding)"},
          {"exact", "", "count at scalar level (Counted scalars) instead of the fast path"}},
         argv);
  if (a.help()) {
    fmt::print(
        "usage: cosda count --model FILE [--n N] [--input-dim D] [--exact]\n"
        "Runs the whole model of FILE (embedding, positional encodings, Transformer Encoder\n"
        "blocks, head) under counting and prints one JSON object: operations per steady-state\n"
        "step in total, by part (embedding, projections, attention, feed_forward, activation,\n"
        "normalisation, head, other) and by block, each as the five buckets and in every\n"
        "convention: all operations, multiplications only (ptflops-style), multiply-\n"
        "accumulate pairs, and the CoTrans mul/add/exp triple.\n\n{}",
        a.usage());
    return 0;
  }
  if (!a.positional().empty())
    throw InputError("cosda count: unexpected argument '" + a.positional()[0] +
                     "'; all inputs are flags (see cosda count --model FILE --help)");
  const ModelConfig m = load_model_config(a.require("model"));
  const std::int64_t n = a.integer("n", 1, 1 << 16, m.spec.n);
  const std::int64_t in = a.integer("input-dim", 0, 1 << 16, m.spec.input_dim);
  const ModelSpec spec = spec_at(m, n, in);
  if (const std::string why = check(spec); !why.empty())
    throw InputError("cosda count: " + m.source + " with --n " + std::to_string(n) + ": " + why);
  const ModelCost c = measure_model(spec, a.has("exact") ? Counting::kExact : Counting::kTally);
  PartCounts by_part;
  for (int p = 0; p < kParts; ++p) by_part[p] = c.part(static_cast<Part>(p));
  std::string blocks;
  for (std::size_t b = 0; b < c.plans.size(); ++b) {
    const BlockPlan& p = c.plans[b];
    blocks += fmt::format(
        R"({}{{"attention": "{}", "mode": "{}", "rows_in": {}, "rows_out": {}, "total": {}, )"
        R"("parts": {}}})",
        b ? ", " : "", p.attention, kBlockModeNames[static_cast<int>(p.mode)], p.rows_in,
        p.rows_out, counts_json(c, c.level(b + 1)), parts_json(c, c.cycle[b + 1]));
  }
  fmt::print(
      R"({{"model": "{}", "source": "{}", "n": {}, "embed_dim": {}, "heads": {}, "mlp_dim": {}, )"
      R"("input_dim": {}, "classes": {}, "counting": "{}", "cycle_steps": {}, "per_step": )"
      R"({{"total": {}, "parts": {}, "model_level": {}, "blocks": [{}]}}}})"
      "\n",
      m.name, m.source, spec.n, spec.d, spec.heads, spec.mlp, spec.input_dim, spec.classes,
      a.has("exact") ? "scalar-level" : "fast", c.cycle_steps, counts_json(c, c.total()),
      parts_json(c, by_part), parts_json(c, c.cycle[0]), blocks);
  return 0;
}

int cmd_models(const Argv& argv) {
  namespace fs = std::filesystem;
  Args a("models",
         {{"config", "FILE", "report settings (default configs/models/report.toml)"},
          {"out", "DIR", "output folder (default results/models)"},
          {"no-figures", "", "write the tables and the .gp script but do not run gnuplot"}},
         argv);
  if (a.help()) {
    fmt::print(
        "usage: cosda models [--config FILE] [--out DIR] [--no-figures]\n"
        "Measures every model of the config's folder at each printed row, and writes\n"
        "report.md (every FLOPs number of the Continual Transformers paper's Tables 1-4:\n"
        "printed, our executed counts in each convention, the model of the authors' counter,\n"
        "verdict), printed.csv, ratios.csv, parts.csv and the cost-by-part figure.\n\n{}",
        a.usage());
    return 0;
  }
  if (!a.positional().empty())
    throw InputError("cosda models: unexpected argument '" + a.positional()[0] +
                     "'; all inputs are flags (see cosda models --help)");
  const ReportConfig r = load_report_config(a.get("config").value_or("configs/models/report.toml"));
  const fs::path out = a.get("out").value_or("results/models");

  // One measurement per (model, n, input_dim, mlp_dim).
  std::map<std::string, ModelCost> cache;
  auto cost_of = [&](const ModelConfig& m, const ModelSpec& s) -> const ModelCost& {
    const std::string key = fmt::format("{}/{}/{}/{}", m.name, s.n, s.input_dim, s.mlp);
    auto it = cache.find(key);
    if (it == cache.end()) it = cache.emplace(key, measure_model(s)).first;
    return it->second;
  };

  std::vector<Row> rows;
  std::map<std::string, const Row*> by_id;
  for (const auto& m : r.models)
    for (const auto& p : m.printed) {
      Row row;
      row.model = &m;
      row.printed = &p;
      row.cost = &cost_of(m, spec_at(m, m.spec.n, p.input_dim));
      row.terms = counter_terms(*row.cost, p.counter);
      row.counter = counter_total(row.terms);
      row.verdict = verdict_of(*row.cost, row.counter, p.flops_m);
      rows.push_back(std::move(row));
    }
  std::sort(rows.begin(), rows.end(), [](const Row& x, const Row& y) {
    return std::tie(x.printed->table, x.printed->id) < std::tie(y.printed->table, y.printed->id);
  });
  for (const auto& row : rows) by_id[row.printed->id] = &row;

  std::ostringstream md, printed_csv, ratios_csv, parts_csv;
  md << "# " << r.title << "\n\n"
     << "Generated by `build/bin/cosda models --config " << r.source << " --out " << out.string()
     << "` from the model files in `" << fs::path(r.source).parent_path().string()
     << "/`; do not edit by hand.\n\n"
     << "Every count is executed: the model runs under `Tally<double>` and each step's "
        "operations are attributed to parts (analysis/model_cost.hpp). Columns, per "
        "steady-state step, in millions: **all** (every executed operation), **mul** "
        "(multiplications only, what ptflops-based tables report), **mac** (multiply-"
        "accumulate pairs counted once), **cotrans** (the CoTrans mul/add/exp triple). "
        "**counter model**: our executed multiplications of the parts the authors' counter "
        "sees, plus or minus what that counter does differently (the terms are listed per "
        "row below). **log**: the count the authors' own run log shows for the row, where "
        "one exists.\n\n"
     << "Verdicts: *reproduced (conv)* — our executed count in that convention rounds to the "
        "printed number; *explained by the counter model* — the counter model rounds to it; "
        "*counter model within 0.1 M* — off by one unit in the last printed digit; *not "
        "reproduced* — neither (see the note).\n\n";

  md << "The authors' counters (analysis/model_cost.hpp), as their code and run logs show "
        "them:\n\n"
     << "- **oadtr**: ptflops on OadTR's regular model. Its linear hook charges the input size "
        "times the output's last axis plus one bias per output feature once per call; "
        "activations one per element; the attention products sit inside a custom module and "
        "LayerNorm has no hook, so neither is counted. Where the authors' logs exist this model "
        "of the counter reproduces them to the unit.\n"
     << "- **continual**: ptflops with the continual-inference attention hooks (step mode): "
        "projections and attention multiplications per step; a single-output block after a "
        "retroactive one is charged Q projections for every window row and nothing for its "
        "feed-forward (the authors' two-block log shows 0 MACs there).\n"
     << "- **regular_t**: the same modules in forward mode over GTZAN's channel-first "
        "(N, C, T) tensors, where the linear hook's last axis is time.\n\n";
  md << "## Every printed FLOPs number\n\n"
     << "| table | row | printed (M) | all | mul | mac | cotrans mul / add / exp | counter "
        "model | log | verdict |\n|---|---|---|---|---|---|---|---|---|---|\n";
  printed_csv << "id,table,row,model,n,input_dim,printed_m,all,mul,mac,cotrans_mul,cotrans_add,"
                 "cotrans_exp,counter_profile,counter_model,log_flops,verdict\n";
  for (const auto& row : rows) {
    const ModelCost& c = *row.cost;
    const OpCounts t = c.total();
    const auto tr = conventions::cotrans_triple(t);
    const double k = double(c.cycle_steps);
    const PrintedEntry& p = *row.printed;
    std::string log = "—";
    if (p.log_flops >= 0)
      log = fmt::format(
          "{} ({})", millions(double(p.log_flops)),
          std::llround(row.counter) == p.log_flops
              ? "= counter model"
              : fmt::format("counter model {:+}", std::llround(row.counter) - p.log_flops));
    md << fmt::format(
        "| {} | {} | {} | {} | {} | {} | {} / {} / {} | {} | {} | {} |\n", p.table, p.row,
        fixed(p.flops_m, kFlopsPlaces), millions(c.per_step(t, Convention::kAll)),
        millions(c.per_step(t, Convention::kMul)), millions(c.per_step(t, Convention::kMac)),
        millions(tr.mul / k), millions(tr.add / k), millions(tr.exp / k), millions(row.counter),
        log, row.verdict);
    printed_csv << fmt::format(
        "{},{},\"{}\",{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n", p.id, p.table, p.row,
        row.model->name, c.spec.n, c.spec.input_dim, num(p.flops_m),
        num(c.per_step(t, Convention::kAll)), num(c.per_step(t, Convention::kMul)),
        num(c.per_step(t, Convention::kMac)), num(tr.mul / k), num(tr.add / k), num(tr.exp / k),
        kCounterProfileIds[static_cast<int>(p.counter)], num(row.counter),
        p.log_flops >= 0 ? std::to_string(p.log_flops) : "", row.verdict);
  }
  for (const auto& x : r.not_modelled)
    md << fmt::format("| {} | {} | {} | — | — | — | — | — | — | not modelled: {} |\n", x.table,
                      x.row, fixed(x.flops_m, kFlopsPlaces), x.reason);
  md << "\nNotes on rows:\n\n";
  for (const auto& row : rows)
    if (!row.printed->note.empty())
      md << "- **" << row.printed->table << ", " << row.printed->row << "**: " << row.printed->note
         << "\n";

  md << "\n## Savings ratios\n\n"
     << "| ratio | printed | ours: all | ours: mul | counter model | printed numbers | verdict "
        "|\n|---|---|---|---|---|---|---|\n";
  ratios_csv << "label,printed,all,mul,counter_model,printed_numbers,verdict\n";
  for (const auto& x : r.ratios) {
    const Row& a1 = *by_id.at(x.numerator);
    const Row& b1 = *by_id.at(x.denominator);
    auto ratio = [&](Convention conv) {
      return a1.cost->per_step(a1.cost->total(), conv) / b1.cost->per_step(b1.cost->total(), conv);
    };
    const double cm = a1.counter / b1.counter;
    const int places = decimals(x.printed);
    const double pr = a1.printed->flops_m / b1.printed->flops_m;  // of the rounded numbers
    std::string verdict = "not reproduced";
    if (rounds_to(ratio(Convention::kMul), x.printed, places))
      verdict = "reproduced (mul)";
    else if (rounds_to(cm, x.printed, places))
      verdict = "explained by the counter model";
    else if (rounds_to(pr, x.printed, places))
      verdict = "the ratio of the printed (rounded) numbers";
    md << fmt::format("| {} ({}) | {}x | {}x | {}x | {}x | {}x | {} |\n", x.label, x.source,
                      num(x.printed), fixed(ratio(Convention::kAll), places + 1),
                      fixed(ratio(Convention::kMul), places + 1), fixed(cm, places + 1),
                      fixed(pr, places + 1), verdict);
    ratios_csv << fmt::format("\"{}\",{},{},{},{},{},{}\n", x.label, num(x.printed),
                              num(ratio(Convention::kAll)), num(ratio(Convention::kMul)), num(cm),
                              num(pr), verdict);
  }

  if (!r.alternatives.empty()) {
    md << "\n## Architecture choices tested against the printed numbers\n\n"
       << "Each row re-measures a printed model with one dimension changed; the printed number "
          "decides between the choices only where one of them matches it and the other does "
          "not.\n\n"
       << "| printed row | printed (M) | choice | mul | counter model | matches | printed "
          "parameters (K) | parameters (K) |\n|---|---|---|---|---|---|---|---|\n";
    for (const auto& alt : r.alternatives) {
      const Row& base = *by_id.at(alt.id);
      ModelSpec s = spec_at(*base.model, base.model->spec.n, base.printed->input_dim);
      if (alt.mlp_dim > 0) s.mlp = alt.mlp_dim;
      if (alt.input_dim > 0) s.input_dim = alt.input_dim;
      if (const std::string why = check(s); !why.empty())
        throw InputError(r.source + ": [[alternative]] '" + alt.label + "': " + why);
      const ModelCost& c = cost_of(*base.model, s);
      const double cm = counter_total(counter_terms(c, base.printed->counter));
      for (const auto* cs : {base.cost, &c}) {
        const bool is_base = cs == base.cost;
        const double v = is_base ? base.counter : cm;
        const double pk = base.printed->params_k;
        md << fmt::format("| {} | {} | {} (mlp_dim {}, input_dim {}) | {} | {} | {} | {} | {} |\n",
                          base.printed->row, fixed(base.printed->flops_m, kFlopsPlaces),
                          is_base ? "as configured" : alt.label, cs->spec.mlp, cs->spec.input_dim,
                          millions(cs->per_step(cs->total(), Convention::kMul)), millions(v),
                          rounds_to(v / 1e6, base.printed->flops_m, kFlopsPlaces) ? "yes" : "no",
                          pk >= 0 ? num(pk) : "—",
                          fixed(double(parameter_count(cs->spec)) / 1e3, 3));
      }
    }
  }

  md << "\n## Parameters\n\n"
     << "Trainable parameters of each row's model as configured (linear layers, LayerNorms, the "
        "class token, a learned positional table), against the count the paper prints.\n\n"
     << "| printed row | printed (K) | ours (K) | of which positional table | matches |\n"
        "|---|---|---|---|---|\n";
  for (const auto& row : rows) {
    if (row.printed->params_k < 0) continue;
    const ModelSpec& s = row.cost->spec;
    const std::int64_t p = parameter_count(s);
    const std::int64_t table = s.positional.given ? s.positional.count * s.d : 0;
    md << fmt::format(
        "| {} | {} | {} | {} | {} |\n", row.printed->row, num(row.printed->params_k),
        fixed(double(p) / 1e3, 3), table,
        std::llround(double(p) / 1e3) == std::llround(row.printed->params_k) ? "yes" : "no");
  }

  // Per-part breakdown of each measured model.
  md << "\n## Executed operations per step by part (millions, all operations / multiplications)"
        "\n\n| model | n | input | mlp | blocks |";
  for (const auto& p : kPartNames) md << " " << p << " |";
  md << " total |\n|---|---|---|---|---|";
  for (int i = 0; i < kParts + 1; ++i) md << "---|";
  md << "\n";
  parts_csv << "model,n,input_dim,mlp_dim,level,part,mul,add,div,exp,other\n";
  for (const auto& [key, c] : cache) {
    std::string kinds;
    for (const auto& p : c.plans) kinds += (kinds.empty() ? "" : ", ") + p.attention;
    const auto name = key.substr(0, key.find('/'));
    md << fmt::format("| {} | {} | {} | {} | {} |", name, c.spec.n, c.spec.input_dim, c.spec.mlp,
                      kinds);
    for (int p = 0; p < kParts; ++p) {
      const OpCounts o = c.part(static_cast<Part>(p));
      md << " " << fixed(c.per_step(o, Convention::kAll) / 1e6, 3) << " / "
         << fixed(c.per_step(o, Convention::kMul) / 1e6, 3) << " |";
    }
    md << " " << fixed(c.per_step(c.total(), Convention::kAll) / 1e6, 3) << " / "
       << fixed(c.per_step(c.total(), Convention::kMul) / 1e6, 3) << " |\n";
    for (std::size_t l = 0; l < c.cycle.size(); ++l)
      for (int p = 0; p < kParts; ++p) {
        const OpCounts& o = c.cycle[l][p];
        const double k = double(c.cycle_steps);
        parts_csv << fmt::format(
            "{},{},{},{},{},{},{},{},{},{},{}\n", name, c.spec.n, c.spec.input_dim, c.spec.mlp,
            l == 0 ? std::string("model") : "block" + std::to_string(l), kPartNames[p],
            num(o.mul / k), num(o.add / k), num(o.div / k), num(o.exp / k), num(o.other / k));
      }
  }

  md << "\n## Counter model terms per printed row\n\n";
  for (const auto& row : rows) {
    md << "<details><summary>" << row.printed->table << ", " << row.printed->row << ": "
       << millions(row.counter) << " M</summary>\n\n| term | per step | counted |\n|---|---|---|\n";
    for (const auto& t : row.terms)
      md << fmt::format("| {} | {} | {} |\n", t.what, fmt::format("{:.0f}", t.value),
                        t.counted ? "yes" : "no");
    md << "\n</details>\n\n";
  }

  md << "## Closing note: which printed numbers reproduce\n\n";
  for (const auto& row : rows)
    md << "- " << row.printed->table << ", " << row.printed->row << ", "
       << fixed(row.printed->flops_m, kFlopsPlaces) << " M: " << row.verdict << "\n";
  for (const auto& x : r.not_modelled)
    md << "- " << x.table << ", " << x.row << ", " << fixed(x.flops_m, kFlopsPlaces)
       << " M: not modelled\n";

  // The figure: per-step cost by part against n.
  for (const auto& f : r.figures) {
    const std::string conv_id(conventions::info(f.convention).id);
    std::string body = fmt::format(
        "set multiplot layout 2,2 title {}\nset logscale xy\nset grid\nset key left top "
        "font ',9'\nset xrange [{}:{}]\nset xlabel 'window n'\nset ylabel 'operations per "
        "step ({})'\n",
        gp_quote(f.title), num(double(*std::min_element(f.n.begin(), f.n.end())) / 1.5),
        num(double(*std::max_element(f.n.begin(), f.n.end())) * 1.5), conv_id);
    std::ostringstream fig_csv;
    fig_csv << "model,n,part,value\n";
    for (const auto& name : f.models) {
      const auto it = std::find_if(r.models.begin(), r.models.end(),
                                   [&](const ModelConfig& m) { return m.name == name; });
      std::vector<std::vector<std::string>> data;
      for (const std::int64_t n : f.n) {
        const ModelCost& c = cost_of(*it, spec_at(*it, n));
        std::vector<std::string> line{std::to_string(n)};
        for (int p = 0; p < kParts; ++p) {
          const double v = c.per_step(c.part(static_cast<Part>(p)), f.convention);
          line.push_back(v > 0 ? num(v) : "NaN");
          fig_csv << fmt::format("{},{},{},{}\n", name, n, kPartNames[p], num(v));
        }
        line.push_back(num(c.per_step(c.total(), f.convention)));
        data.push_back(line);
      }
      body += datablock(name, data);
      body += fmt::format("set title {}\nplot ", gp_quote(it->title));
      for (int p = 0; p < kParts; ++p)
        body +=
            fmt::format("${} using 1:{} with linespoints title '{}', ", name, p + 2, kPartNames[p]);
      body += fmt::format("${} using 1:{} with lines lw 3 dt 2 title 'total'\n", name, kParts + 2);
    }
    body += "unset multiplot\n";
    write_file_atomic(out / (f.file + ".csv"), fig_csv.str());
    if (a.has("no-figures"))
      write_file_atomic(out / (f.file + ".gp"), body);
    else
      render_png(out / (f.file + ".png"), body, 1400, 1000);
    md << "\n## Figure\n\n![" << f.title << "](" << f.file << ".png)\n\n"
       << f.title << ", convention " << conv_id << "; data in `" << f.file << ".csv`.\n";
  }

  write_file_atomic(out / "printed.csv", printed_csv.str());
  write_file_atomic(out / "ratios.csv", ratios_csv.str());
  write_file_atomic(out / "parts.csv", parts_csv.str());
  write_file_atomic(out / "report.md", md.str());
  fmt::print("wrote {}\n", (out / "report.md").string());
  return 0;
}

}  // namespace cosda
