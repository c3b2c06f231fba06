// The roofline's inputs and figure: cosda-bench's measured points; roofs, bandwidths and points.
#include <fmt/format.h>

#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "analysis/roofline.hpp"
#include "attention/registry.hpp"
#include "io/errors.hpp"
#include "io/plot.hpp"

namespace cosda::roofline {

std::vector<MeasuredPoint> read_points(const std::string& path, std::string* measured_on) {
  std::vector<MeasuredPoint> pts;
  std::ifstream in(path);
  std::string line;
  int row = 0;
  measured_on->clear();
  while (std::getline(in, line)) {
    ++row;
    if (line.rfind(kPointsMachine, 0) == 0) *measured_on = line.substr(std::strlen(kPointsMachine));
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
  auto text = [&](const char* key, const char* fallback) {
    return m.strings.count(key) ? m.strings.at(key) : std::string(fallback);
  };
  std::string data,
      body = fmt::format("set title {}\n",
                         gp_quote("Roofline of " + text("cpu", "this machine") + " (one thread; " +
                                  text("vector_isa", "") + "), measured steady-state steps"));
  body +=
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
  // One point set per variant and scalar, in the variant's colour and marker (the registry's, as
  // in every figure): filled for float, open for double; smaller for double where the marker is
  // drawn with lines only (+, x, *).
  std::map<std::string, std::vector<std::vector<std::string>>> groups;
  std::vector<const MeasuredPoint*> order;
  for (const auto& p : pts) {
    auto& rows = groups[p.variant + " " + p.scalar];
    if (rows.empty()) order.push_back(&p);
    rows.push_back({fmt::format("{}", p.intensity), fmt::format("{}", p.gflops)});
  }
  for (std::size_t i = 0; i < order.size(); ++i) {
    const MeasuredPoint& p = *order[i];
    const std::string key = p.variant + " " + p.scalar;
    const VariantTraits* v = find_variant(p.variant);
    const PlotStyle s = v != nullptr ? v->style : PlotStyle{"#777777", 1};
    const bool single = p.scalar == "float", lines_only = s.point < 4;  // +, x, *: no open form
    const int pt = lines_only ? s.point : (single ? s.point | 1 : s.point & ~1);
    data += datablock(fmt::format("P{}", i), groups[key]);
    plots.push_back(fmt::format("$P{} u 1:2 w p pt {} ps {} lc rgb '{}' t {}", i, pt,
                                lines_only && !single ? 1.0 : 1.6, s.colour, gp_quote(key)));
  }
  body += data + "plot ";
  for (std::size_t i = 0; i < plots.size(); ++i) body += (i ? ", \\\n  " : "") + plots[i];
  render_png(png, body + "\n", 1400, 900);
}

}  // namespace cosda::roofline
