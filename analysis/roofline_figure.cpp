// The roofline's inputs and figure: cosda-bench's measured points; roofs, bandwidths and points.
#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "analysis/roofline.hpp"
#include "io/errors.hpp"
#include "io/output_transaction.hpp"
#include "io/plot.hpp"

namespace cosda::roofline {

std::vector<MeasuredPoint> read_points(const std::string& path) {
  std::vector<MeasuredPoint> pts;
  std::ifstream in(path);
  std::string line;
  int row = 0;
  while (std::getline(in, line)) {
    ++row;
    if (line.empty() || line[0] == '#') continue;
    std::istringstream is(line);
    MeasuredPoint p;
    if (!(is >> p.variant >> p.shape >> p.scalar >> p.intensity >> p.gflops))
      throw InputError(path + ": line " + std::to_string(row) +
                       " is not 'variant shape scalar flop_per_byte gflops'; rerun cosda-bench "
                       "with --cosda_report");
    pts.push_back(p);
  }
  return pts;
}

void draw(const Machine& m, const std::vector<MeasuredPoint>& pts,
          const std::filesystem::path& png) {
  std::string script;
  script += "set terminal pngcairo size 1400,900 font ',11'\n";
  const std::filesystem::path tmp =
      png.parent_path() / fmt::format(".{}.tmp.{}", png.filename().string(), ::getpid());
  script += "set output " + gp_quote(tmp.filename().string()) + "\n";
  script +=
      fmt::format("set title 'Roofline of {} (one thread; {}), measured steady-state steps'\n",
                  m.strings.count("cpu") ? m.strings.at("cpu") : "this machine",
                  m.strings.count("vector_isa") ? m.strings.at("vector_isa") : "");
  script +=
      "set logscale xy\nset xlabel 'arithmetic intensity: executed FLOPs / bytes touched per "
      "step'\n"
      "set ylabel 'GFLOP/s'\nset xrange [0.01:1000]\nset yrange [0.05:1000]\n"
      "set key outside right top\nset grid\nset samples 400\n";
  std::vector<std::string> plots;
  const double pf = m.peak_gflops(true, false), pd = m.peak_gflops(false, false);
  plots.push_back(fmt::format("{} w l lw 3 lc rgb 'black' t 'float peak {:.0f} GFLOP/s'", pf, pf));
  plots.push_back(
      fmt::format("{} w l lw 3 dt 2 lc rgb 'black' t 'double peak {:.0f} GFLOP/s'", pd, pd));
  const char* colors[] = {"#1b9e77", "#d95f02", "#7570b3", "#e7298a"};
  for (int l = 0; l < 4; ++l) {
    const std::string level = kLevels[l];
    const double bw = m.read_gbs(level, false);
    if (bw <= 0) continue;
    plots.push_back(
        fmt::format("(x*{} < {} ? x*{} : 1/0) w l lw 2 lc rgb '{}' t '{} read {:.0f} GB/s'", bw, pf,
                    bw, colors[l], level, bw));
  }
  std::map<std::string, std::vector<const MeasuredPoint*>> groups;
  std::vector<std::string> order;
  for (const auto& p : pts) {
    const std::string key = p.variant + " " + p.scalar;
    if (!groups.count(key)) order.push_back(key);
    groups[key].push_back(&p);
  }
  int block = 0, variant_index = 0;
  std::map<std::string, int> variant_style;
  for (const auto& key : order) {
    const auto& g = groups[key];
    const std::string variant = g[0]->variant;
    if (!variant_style.count(variant)) variant_style[variant] = variant_index++;
    const int style = variant_style[variant];
    script += fmt::format("$P{} << EOD\n", block);
    for (const auto* p : g) script += fmt::format("{} {}\n", p->intensity, p->gflops);
    script += "EOD\n";
    const bool single = g[0]->scalar == "float";
    const int pt = 4 + 2 * (style % 4) + (single ? 1 : 0);  // filled for float, open for double
    plots.push_back(
        fmt::format("$P{} u 1:2 w p pt {} ps 1.6 lc {} t '{}'", block, pt, style + 1, key));
    ++block;
  }
  script += "plot ";
  for (std::size_t i = 0; i < plots.size(); ++i) script += (i ? ", \\\n  " : "") + plots[i];
  script += "\nset output\n";
  maybe_inject_failure(png);
  const GnuplotRun run = run_gnuplot(png.parent_path(), {}, script);
  std::string why = run.status == 0 ? incomplete_reason(tmp) : "";
  if (run.status != 0 || !std::filesystem::exists(tmp) || !why.empty()) {
    std::error_code ec;
    std::filesystem::remove(tmp, ec);
    if (run.status != 0)
      why = run.status == 127 ? "gnuplot not found; install gnuplot-nox (make deps)"
                              : "gnuplot exited with status " + std::to_string(run.status) +
                                    "; gnuplot said: " + one_line(run.output);
    throw std::runtime_error("cannot write " + png.string() + ": " +
                             (why.empty() ? "gnuplot wrote no image" : why));
  }
  std::filesystem::rename(tmp, png);
}

}  // namespace cosda::roofline
