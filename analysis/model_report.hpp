// Whole models against the CoTrans paper's printed numbers: model and report settings
// (configs/models; fields in sweeps/model_config.hpp), the report (cosda models), count --model.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "analysis/model_cost.hpp"
#include "models/encoder.hpp"

namespace cosda {

struct PrintedEntry {
  std::string id, table, row, note;
  double flops_m = 0;
  std::int64_t log_flops = -1;  // the authors' own run log for this row, if one exists
  double params_k = -1;         // printed parameters (thousands), if the row has them
  std::string log_source;
  CounterProfile counter = CounterProfile::kOadtr;
  std::int64_t input_dim = -1;  // -1: the model's
};

struct ModelConfig {
  std::string source;  // file, for messages and provenance
  std::string name, title;
  ModelSpec spec;
  bool positions_2n = false;        // T = 2n - 1 (else n)
  std::int64_t position_count = 0;  // explicit T (0: from the rule)
  std::vector<PrintedEntry> printed;
};

// The model's spec at window n (T follows n) and input width (-1: the model's).
ModelSpec spec_at(const ModelConfig& m, std::int64_t n, std::int64_t input_dim = -1);

struct RatioEntry {
  std::string label, numerator, denominator, source;
  double printed = 0;
};
struct NotModelled {
  std::string table, row, reason;
  double flops_m = 0;
};
struct Alternative {
  std::string id, label;
  std::int64_t mlp_dim = -1, input_dim = -1;  // -1: unchanged
};
struct FigureEntry {
  std::string file, title;
  std::vector<std::string> models;
  std::vector<std::int64_t> n;
  conventions::Convention convention = conventions::Convention::kAll;
};
struct ReportConfig {
  std::string source, title;
  std::string text;                 // report.toml as parsed, for meta.json
  std::vector<ModelConfig> models;  // every other *.toml of the folder, by name
  std::vector<RatioEntry> ratios;
  std::vector<NotModelled> not_modelled;
  std::vector<Alternative> alternatives;
  std::vector<FigureEntry> figures;  // at most one
};

// The cost-by-part figure: its data (<file>.csv) and the gnuplot script body that draws it.
struct ModelFigure {
  std::string file, csv, script;
};
// The files of results/models: report.md, printed.csv, ratios.csv, parts.csv and the figure.
struct ModelsReport {
  std::string markdown, printed_csv, ratios_csv, parts_csv;
  std::vector<ModelFigure> figures;
};

// Measures every model at each printed row (and the alternatives and figure points) and builds
// the report; `out` is the folder named in report.md's provenance line.
ModelsReport models_report(const ReportConfig& r, const std::filesystem::path& out);

// cosda count --model: one JSON object (and a newline) of c, measured for m.
std::string model_count_json(const ModelConfig& m, const ModelCost& c, Counting counting);

}  // namespace cosda
