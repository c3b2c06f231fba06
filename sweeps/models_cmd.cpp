// cosda models: every FLOPs number of the Continual Transformers paper's Tables 1-4 against our
// counts and models of the authors' counters, the savings ratios and the cost-by-part figure.
#include <fmt/format.h>

#include "analysis/model_report.hpp"
#include "analysis/study_output.hpp"
#include "io/atomic_file.hpp"
#include "io/errors.hpp"
#include "io/output_transaction.hpp"
#include "io/plot.hpp"
#include "sweeps/args.hpp"
#include "sweeps/commands.hpp"
#include "sweeps/config_kinds.hpp"
#include "sweeps/meta.hpp"
#include "sweeps/model_config.hpp"

namespace cosda {

int cmd_models(const Argv& argv) {
  namespace fs = std::filesystem;
  const Clock::time_point start = Clock::now();
  Args a("models",
         {{"config", "FILE", "report settings (default configs/models/report.toml)"},
          {"out", "DIR", "output folder (default results/models)"},
          {"no-figures", "", "write the tables and the .gp script but do not run gnuplot"}},
         argv);
  if (a.print_help(
          "usage: cosda models [--config FILE] [--out DIR] [--no-figures]\n"
          "Measures every model of the config's folder at each printed row, and writes\n"
          "report.md (every FLOPs number of the Continual Transformers paper's Tables 1-4:\n"
          "printed, our executed counts in each convention, the model of the authors' counter,\n"
          "verdict), printed.csv, ratios.csv, parts.csv and the cost-by-part figure."))
    return 0;
  a.reject_positional("cosda models --help");
  if (!a.has("no-figures")) require_gnuplot("models", "pass --no-figures");
  const ReportConfig r = read_config_as(
      "models report", a.get("config").value_or("configs/models/report.toml"), load_report_config);
  // Every file published together or none; the folder and the fixed names checked first.
  OutputTransaction out(a.get("out").value_or("results/models"));
  out.check_files({"printed.csv", "ratios.csv", "parts.csv", "report.md", "meta.json"});
  for (const auto& f : r.figures)
    out.check_files({f.file + ".csv", f.file + ".png", f.file + ".gp"});
  const ModelsReport report = models_report(r, out.target());
  out.stage([&](const fs::path& dir) {
    for (const auto& f : report.figures) {
      write_file_atomic(dir / (f.file + ".csv"), f.csv);
      if (a.has("no-figures"))  // the script that draws the figure, as render_png saves it
        write_file_atomic(dir / (f.file + ".gp"),
                          png_script(f.file + ".png", f.script, 1400, 1000));
      else
        render_png(dir / (f.file + ".png"), f.script, 1400, 1000);
    }
    write_file_atomic(dir / "printed.csv", report.printed_csv);
    write_file_atomic(dir / "ratios.csv", report.ratios_csv);
    write_file_atomic(dir / "parts.csv", report.parts_csv);
    write_file_atomic(dir / "report.md", report.markdown);
    std::vector<std::string> inputs;
    for (const ModelConfig& m : r.models) inputs.push_back(m.source);
    write_file_atomic(dir / "meta.json", study_meta_json("models", "models", r.source, r.text,
                                                         inputs, seconds_since(start)));
  });
  out.commit();
  fmt::print("wrote {}\n", (out.target() / "report.md").string());
  return 0;
}

}  // namespace cosda
