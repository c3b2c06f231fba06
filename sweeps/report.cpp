#include "sweeps/report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <stdexcept>

#include "analysis/published.hpp"
#include "attention/registry.hpp"
#include "io/atomic_file.hpp"
#include "io/errors.hpp"
#include "io/plot.hpp"
#include "sweeps/figure_text.hpp"
#include "sweeps/published_cost.hpp"

namespace cosda {
namespace {

namespace fs = std::filesystem;
namespace pub = published;

constexpr const char* kFlag = " ✗";
constexpr double kFormulaTolerance = 1e-9;

std::string g10(double v) { return fmt::format("{:.10g}", v); }

// Exact for whole numbers (counts), two decimals otherwise (amortized counts).
std::string exact(double v) {
  if (v == std::floor(v) && std::fabs(v) < 1e15)
    return fmt::format("{}", static_cast<long long>(v));
  return fmt::format("{:.2f}", v);
}

bool matches_formula(double value, double formula) {
  return std::fabs(value - formula) <= kFormulaTolerance * std::max(1.0, std::fabs(formula));
}

// |value - printed| <= half a unit in the last printed place (a little slack for binary).
bool matches_printed(double value, double printed, int decimals) {
  return std::fabs(value - printed) <= 0.5 * std::pow(10.0, -decimals) * (1 + 1e-9) + 1e-12;
}

std::string flagged(const std::string& cell, bool ok) { return ok ? cell : cell + kFlag; }

// Text from the config (titles, the file name) for table.md: a | would split a table cell and a
// line break would end a heading or a row, so | is escaped and control characters become spaces.
std::string md(const std::string& s) {
  std::string out;
  for (const char ch : s) {
    const auto b = static_cast<unsigned char>(ch);
    if (ch == '|')
      out += "\\|";
    else
      out += b < 0x20 || b == 0x7f ? ' ' : ch;
  }
  return out;
}

std::string formulas_text(const SweepConfig& c) {
  if (c.formulas == "cotrans")
    return "FLOPs from the CoTrans paper, Sec. 3.1-3.3, as mul + add + exp (its Sec. 3.4 "
           "convention); memory from the Nyström paper, App. B (the CoTrans paper gives no memory "
           "formulas for all three variants)";
  return "FLOPs from the Nyström paper, App. A (continual landmarks: one refresh every n/m "
         "steps, the other steps as the fixed-landmark update); memory from App. B";
}

std::string preamble(const SweepConfig& c) {
  return fmt::format(
      "# {}\n\n"
      "Written by `cosda report {}` from `points.csv` in this folder (`cosda sweep {}` "
      "regenerates both). Do not edit.\n\n"
      "- **Executed**: the kernels run under counting (fast path, `analysis/measure.hpp`), "
      "per steady-state step, amortized over a landmark cycle; memory in values held. "
      "Executed FLOPs are shown in convention `{}` ({}); the published formulas count in "
      "convention `{}` ({}), and every exec./formula ratio and ✗ against a formula compares "
      "executed FLOPs in that convention (`cosda report --convention` switches the shown "
      "one; `results/verification/report.md` classes every difference).\n"
      "- **Formula**: our evaluation of the published closed forms: {}. Several heads: heads x "
      "the formula at d / heads. Two layers: the first block plus the second (a retroactive "
      "block then a single-output one for the continual models, two equal blocks otherwise; "
      "`sweeps/published_cost.hpp`).\n"
      "- **Printed**: the number as typeset in the paper (`analysis/published.hpp`).\n"
      "- **Exact** (points tables): our own closed forms of what the kernels execute "
      "(`analysis/exact.hpp`, one layer); ✗ there would mean they disagree with the count.\n"
      "- ✗ marks a value that does not reproduce the one it is compared with. Against a "
      "printed number: it must round to the printed number at the printed decimals. Against a "
      "formula (figures print no numbers): equal within a relative 1e-9.\n",
      md(c.title), md(c.source), md(c.source), c.convention, convention_words(c.convention),
      paper_convention(c), convention_words(paper_convention(c)), formulas_text(c));
}

// Executed FLOPs in the config's convention; exec./formula and its ✗ compare the executed
// FLOPs in the paper's convention with the formula; exact FLOPs are in `all`, as executed.
std::string points_table(const SweepConfig& c, const TableSpec& t,
                         const std::vector<SweepRow>& rows) {
  const std::string paper = paper_convention(c);
  std::string out = fmt::format(
      "\n## {}\n\n"
      "| variant | layers | heads | n | d | m | executed FLOPs ({}) | formula FLOPs ({}) | "
      "exec. ({})/formula | exact FLOPs (all) | executed peak | formula peak | exec./formula |\n"
      "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n",
      t.title.empty() ? "Every point: executed next to the published formula" : md(t.title),
      c.convention, paper, paper);
  for (const SweepRow& r : rows) {
    const Point& p = r.point;
    out +=
        fmt::format("| {} | {} | {} | {} | {} | {} |", p.variant, p.layers, p.heads, p.n, p.d, p.m);
    auto pair = [&](std::optional<double> shown, std::optional<double> exec,
                    std::optional<double> formula) {
      std::string e = !r.executed() ? "skipped: " + r.skip_reason : shown ? exact(*shown) : "";
      if (exec && formula) e = flagged(e, matches_formula(*exec, *formula));
      const std::string f = formula ? exact(*formula) : "no formula";
      const std::string ratio =
          exec && formula && *formula != 0 ? fmt::format("{:.4f}", *exec / *formula) : "";
      return fmt::format(" {} | {} | {} |", e, f, ratio);
    };
    out += pair(flops_in(r, c.convention), flops_in(r, paper), r.published_flops);
    // Our exact closed form must equal the executed count: ✗ if it does not.
    const auto e = r.value("flops");
    out +=
        r.exact_flops
            ? flagged(" " + exact(*r.exact_flops), e && matches_formula(*e, *r.exact_flops)) + " |"
            : std::string("  |");
    out += pair(r.value("peak"), r.value("peak"), r.published_peak) + "\n";
  }
  return out;
}

const SweepRow* find_row(const std::vector<SweepRow>& rows, const std::string& id, int layers,
                         std::int64_t heads) {
  const SweepRow* found = nullptr;
  for (const SweepRow& r : rows) {
    if (r.point.variant != id || r.point.layers != layers || r.point.heads != heads) continue;
    if (found != nullptr)
      throw InputError("a printed table needs one n, d and m per variant; " + id +
                       " has several (fix n, d and m in the config)");
    found = &r;
  }
  return found;
}

std::string printed_table(const TableSpec& t, const std::vector<SweepRow>& rows) {
  const std::string_view key = t.printed == "nystrom_table3" ? pub::kTable3 : pub::kTable4;
  std::set<std::int64_t> heads;
  for (const SweepRow& r : rows) heads.insert(r.point.heads);
  const SweepRow* any = rows.empty() ? nullptr : &rows.front();
  std::string out = fmt::format(
      "\n## {}\n\n"
      "Printed: {} (FLOPs in millions, Rel. = Att FLOPs / model FLOPs at the same number of "
      "layers). Ours at n = {}, d = {}, m = {}.\n\n"
      "| model | variant | layers | heads | printed FLOPs (M) | printed Rel. | formula FLOPs "
      "(M) | formula Rel. | executed FLOPs (M) | executed Rel. | exec./formula |\n"
      "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n",
      t.title.empty() ? std::string(key) : md(t.title), key, any ? any->point.n : 0,
      any ? any->point.d : 0, any ? any->point.m : 0);
  for (const pub::PrintedCell& cell : pub::printed_cells()) {
    if (cell.table != key) continue;
    for (std::int64_t h : heads) {
      const std::string id(cell.variant_1layer);
      const SweepRow* r = find_row(rows, id, cell.layers, h);
      const SweepRow* att = find_row(rows, std::string(reference_variant().id), cell.layers, h);
      out +=
          fmt::format("| {} | {} | {} | {} | {:.{}f} | x{:.{}f} |", cell.model, id, cell.layers, h,
                      cell.flops_millions, cell.flops_decimals, cell.rel_flops, cell.rel_decimals);
      auto pair = [&](std::optional<double> v, std::optional<double> att_v) {
        if (!v) return std::string(" | |");
        const double m = *v / 1e6;
        std::string s = flagged(fmt::format(" {:.4f}", m),
                                matches_printed(m, cell.flops_millions, cell.flops_decimals));
        if (att_v && *v != 0) {
          const double rel = *att_v / *v;
          s += " |" + flagged(fmt::format(" x{:.2f}", rel),
                              matches_printed(rel, cell.rel_flops, cell.rel_decimals));
        } else {
          s += " |";
        }
        return s + " |";
      };
      if (r == nullptr) {
        out += " not in the grid | | not in the grid | | |\n";
        continue;
      }
      out += pair(r->published_flops, att ? att->published_flops : std::nullopt);
      if (!r->executed()) {
        out += " skipped: " + r->skip_reason + " | | |\n";
        continue;
      }
      out += pair(r->value("flops"), att ? att->value("flops") : std::nullopt);
      out += r->published_flops && *r->published_flops != 0
                 ? fmt::format(" {:.3f} |\n", r->flops / *r->published_flops)
                 : std::string(" |\n");
    }
  }
  return out;
}

std::string ratios_table(const TableSpec& t, const std::vector<SweepRow>& rows) {
  std::string out = fmt::format(
      "\n## {}\n\n"
      "FLOPs(numerator) / FLOPs(denominator) at one layer and one head. Formula: CoTrans Sec. "
      "3.1-3.3 as mul + add + exp. Executed: our counts of every operation.\n\n"
      "| statement | ratio | n | d | printed | formula | executed |\n"
      "|---|---|--:|--:|--:|--:|--:|\n",
      t.title.empty() ? "CoTrans paper, Sec. 3.4 ratios" : md(t.title));
  auto find = [&](std::string_view id, int n, int d) -> const SweepRow* {
    for (const SweepRow& r : rows)
      if (r.point.variant == id && r.point.n == n && r.point.d == d && r.point.layers == 1 &&
          r.point.heads == 1)
        return &r;
    return nullptr;
  };
  for (const pub::QuotedRatio& q : pub::cotrans_ratios()) {
    const Point a{.variant = std::string(q.numerator_id), .n = q.n, .d = q.d};
    const Point b{.variant = std::string(q.denominator_id), .n = q.n, .d = q.d};
    const auto fa = published_flops(a, "cotrans"), fb = published_flops(b, "cotrans");
    const int decimals = 0;  // printed as whole numbers ("31x")
    std::string formula, executed = "not in the grid";
    if (fa && fb)
      formula = flagged(fmt::format("{:.2f}", *fa / *fb),
                        matches_printed(*fa / *fb, q.printed, decimals));
    const SweepRow* ra = find(q.numerator_id, q.n, q.d);
    const SweepRow* rb = find(q.denominator_id, q.n, q.d);
    if (ra && rb && ra->executed() && rb->executed())
      executed = flagged(fmt::format("{:.2f}", ra->flops / rb->flops),
                         matches_printed(ra->flops / rb->flops, q.printed, decimals));
    else if (ra && rb)
      executed = "skipped";
    out += fmt::format("| {} | {} / {} | {} | {} | {:g} | {} | {} |\n", q.what, q.numerator_id,
                       q.denominator_id, q.n, q.d, q.printed, formula, executed);
  }
  return out;
}

// The points.csv column of the published formula for column y ("" where there is none).
std::string published_column(const std::string& y) {
  const std::string name = "published_" + y;
  return find_points_column(name) != nullptr ? name : "";
}

std::int64_t coord(const Point& p, const std::string& c) {
  if (c == "n") return p.n;
  if (c == "d") return p.d;
  if (c == "m") return p.m;
  if (c == "layers") return p.layers;
  return p.heads;
}

// A figure's inline data and plot clauses (executed and formula lines per variant), and its xs.
struct FigureLines {
  std::string data, plots, formulas;
  std::set<std::int64_t> xs;
  double y_min = 0, y_max = 0;  // of the drawn values (all positive); 0 when none
  void add(std::int64_t x, double y) {
    xs.insert(x);
    y_min = y_min > 0 ? std::min(y_min, y) : y;
    y_max = std::max(y_max, y);
  }
};

// The x values a row of variant `id` stands for: its own coordinate, or, for a variant without
// landmarks (one row, m = 1) in a figure against m, every m of the grids that hold it.
std::vector<std::int64_t> row_xs(const SweepConfig& c, const FigureSpec& f, const std::string& id,
                                 const Point& p) {
  if (f.x != "m" || uses_landmarks(id)) return {coord(p, f.x)};
  std::set<std::int64_t> ms;
  for (const SweepGrid& g : c.grids)
    if (std::find(g.variants.begin(), g.variants.end(), id) != g.variants.end())
      ms.insert(g.m.begin(), g.m.end());
  return {ms.begin(), ms.end()};
}

// One variant's figure points as "x y" lines: executed (config's convention), the formula, and
// where it differs executed in the paper's convention (counts the formula can match).
struct VariantLines {
  std::string measured, formula, paper;
};
VariantLines variant_points(const SweepConfig& c, const FigureSpec& f, const std::string& id,
                            const std::vector<SweepRow>& rows, FigureLines& l) {
  const std::string pub_col = published_column(f.y);
  const bool flops = f.y == "flops", other = flops && c.convention != paper_convention(c);
  VariantLines out;
  for (const SweepRow& r : rows) {
    if (r.point.variant != id) continue;
    bool keep = true;
    for (const auto& [k, v] : f.fixed)
      keep = keep && (coord(r.point, k) == v || (k == "m" && !uses_landmarks(id)));
    if (!keep) continue;
    auto add = [&](std::string& to, std::int64_t x, std::optional<double> y) {
      if (!y || *y <= 0) return;
      to += fmt::format("{} {}\n", x, g10(*y));
      l.add(x, *y);
    };
    for (const std::int64_t x : row_xs(c, f, id, r.point)) {
      add(out.measured, x, flops ? flops_in(r, c.convention) : r.value(f.y));
      if (pub_col.empty() || !r.value(pub_col)) continue;
      add(out.formula, x, r.value(pub_col));
      if (other) add(out.paper, x, flops_in(r, paper_convention(c)));
    }
  }
  return out;
}

FigureLines figure_lines(const SweepConfig& c, const FigureSpec& f,
                         const std::vector<SweepRow>& rows) {
  const std::vector<std::string>& ids = f.variants.empty() ? c.variants : f.variants;
  FigureLines l;
  for (const std::string& id : ids) {
    const auto [measured, formula, paper] = variant_points(c, f, id, rows, l);
    const PlotStyle& s = variant(id).style;
    if (!paper.empty()) {
      l.data += fmt::format("$c_{} << EOD\n{}EOD\n", id, paper);
      l.plots +=
          fmt::format("  $c_{} with lines lw 1 lc rgb '{}' dt 3 notitle, \\\n", id, s.colour);
    }
    if (!measured.empty()) {
      l.data += fmt::format("$e_{} << EOD\n{}EOD\n", id, measured);
      l.plots += fmt::format(
          "  $e_{} with linespoints lw 2 lc rgb '{}' pt {} ps 1.1 dt 1 title '{}', \\\n", id,
          s.colour, s.point, id);
    }
    if (!formula.empty()) {
      l.data += fmt::format("$p_{} << EOD\n{}EOD\n", id, formula);
      // Drawn first, wide and translucent, so that a formula line hidden by the executed one
      // still shows as a halo around it.
      l.formulas += fmt::format("  $p_{} with lines lw 4 lc rgb '#70{}' dt (9,6) {}, \\\n", id,
                                s.colour.substr(1),
                                measured.empty() ? "title '" + id + " (formula only)'" : "notitle");
    }
  }
  return l;
}

}  // namespace

std::string table_md(const SweepConfig& c, const std::vector<SweepRow>& rows) {
  std::string out = preamble(c);
  for (const TableSpec& t : c.tables) {
    if (t.kind == "printed")
      out += printed_table(t, rows);
    else if (t.kind == "cotrans_ratios")
      out += ratios_table(t, rows);
    else
      out += points_table(c, t, rows);
  }
  if (!c.figures.empty()) {
    out += "\n## Figures\n\n";
    for (const FigureSpec& f : c.figures)
      out += fmt::format("- `{}.png` (`.pdf`, script `{}.gp`): {}\n", f.file, f.file, md(f.title));
  }
  return out;
}

std::string gnuplot_script(const SweepConfig& c, const FigureSpec& f,
                           const std::vector<SweepRow>& rows) {
  const FigureLines l = figure_lines(c, f, rows);
  const bool paper_line = l.data.find("$c_") != std::string::npos;
  std::string xtics;
  for (std::int64_t x : l.xs) xtics += (xtics.empty() ? "" : ", ") + fmt::format("'{}' {}", x, x);
  std::string fixed;
  for (const auto& [k, v] : f.fixed)
    fixed += (fixed.empty() ? "" : ", ") + fmt::format("{} = {}", k, v);
  return fmt::format(
      "# {comment}\n"
      "# Written by cosda report {source} from points.csv; data inline. Executed counts solid\n"
      "# (FLOPs in convention {convention}), published formulas dashed ({formulas}), in the\n"
      "# paper's convention {paper}{paper_line}.\n"
      "# Fixed: {fixed}.\n"
      "if (!exists(\"png\")) png = '{file}.png'\n"
      "if (!exists(\"pdf\")) pdf = '{file}.pdf'\n"
      "{data}"
      "set title {title} noenhanced\n"
      "set xlabel '{xlabel}'\n"
      "set ylabel '{ylabel}'\n"
      "{y_axis}"
      "set xtics ({xtics})\n"
      "set mxtics default\n"
      "set grid xtics ytics mytics lc rgb '#dddddd'\n"
      "set key outside right top noenhanced spacing 1.2\n"
      "set autoscale fix\n"
      "set offsets graph 0.04, graph 0.04, graph 0.06, graph 0.06\n"
      "set border lw 1.2\n"
      "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {{\n"
      "  set terminal pngcairo size 1100,680 font 'DejaVu Sans,12'\n"
      "}} else {{\n"
      "  set terminal png size 1100,680\n"
      "}}\n"
      "set output png\n"
      "plot \\\n{formula_plots}{plots}"
      "  NaN with lines lw 2 lc rgb 'black' dt 1 title 'executed (counted)', \\\n"
      "  NaN with lines lw 4 lc rgb '#70000000' dt (9,6) title 'published formula "
      "({paper})'{paper_key}\n"
      "set output\n"
      "if (strstrt(GPVAL_TERMINALS, 'pdfcairo') > 0) {{\n"
      "  set terminal pdfcairo size 7in,4.3in font 'DejaVu Sans,9'\n"
      "  set output pdf\n"
      "  replot\n"
      "  set output\n"
      "}}\n",
      fmt::arg("comment", gp_comment(figure_title(c, f))),
      fmt::arg("title", gp_title(figure_title(c, f))), fmt::arg("convention", c.convention),
      fmt::arg("paper", paper_convention(c)),
      fmt::arg("paper_line", paper_line ? ", beside executed FLOPs in it dotted" : ""),
      fmt::arg("paper_key",
               paper_line ? ", \\\n  NaN with lines lw 1 lc rgb 'black' dt 3 title 'executed (" +
                                paper_convention(c) + ")'"
                          : ""),
      fmt::arg("source", gp_comment(c.source)), fmt::arg("formulas", formulas_text(c)),
      fmt::arg("fixed", fixed.empty() ? "-" : fixed), fmt::arg("file", f.file),
      fmt::arg("data", l.data), fmt::arg("xlabel", axis_label(f.x)),
      fmt::arg("ylabel",
               f.y == "flops" ? axis_label(f.y) + " (" + c.convention + ")" : axis_label(f.y)),
      fmt::arg("xtics", xtics), fmt::arg("plots", l.plots), fmt::arg("formula_plots", l.formulas),
      fmt::arg("y_axis", y_axis(l.y_min, l.y_max)));
}

ReportFiles write_report(const SweepConfig& c, const std::vector<SweepRow>& rows,
                         const fs::path& dir, bool figures) {
  ReportFiles files;
  write_file_atomic(dir / "table.md", table_md(c, rows));
  files.written.push_back(dir / "table.md");
  if (c.figures.empty()) return files;
  for (const FigureSpec& f : c.figures) {
    write_file_atomic(dir / (f.file + ".gp"), gnuplot_script(c, f, rows));
    files.written.push_back(dir / (f.file + ".gp"));
  }
  if (!figures) return files;
  if (!gnuplot_available()) {
    files.note = "gnuplot not found (apt-get install gnuplot-nox): wrote " +
                 (dir / "table.md").string() + " and the .gp scripts, no figures";
    return files;
  }
  for (const FigureSpec& f : c.figures) {
    const std::string png_tmp = "." + f.file + ".png.tmp", pdf_tmp = "." + f.file + ".pdf.tmp";
    // gnuplot runs without a shell, in `dir`; the names are stems ([a-z0-9_]+) and quoted.
    const GnuplotRun run = run_gnuplot(
        dir, {"-e", "png=" + gp_quote(png_tmp) + "; pdf=" + gp_quote(pdf_tmp), f.file + ".gp"});
    if (run.status != 0 || !fs::exists(dir / png_tmp)) {
      std::error_code ec;
      fs::remove(dir / png_tmp, ec);
      fs::remove(dir / pdf_tmp, ec);
      throw std::runtime_error("gnuplot failed on " + (dir / (f.file + ".gp")).string() + ": " +
                               one_line(run.output));
    }
    fs::rename(dir / png_tmp, dir / (f.file + ".png"));
    files.written.push_back(dir / (f.file + ".png"));
    if (fs::exists(dir / pdf_tmp)) {
      drop_pdf_creation_date(dir / pdf_tmp);
      fs::rename(dir / pdf_tmp, dir / (f.file + ".pdf"));
      files.written.push_back(dir / (f.file + ".pdf"));
    }
  }
  return files;
}

void check_report_outputs(const SweepConfig& c, const fs::path& dir, bool figures) {
  check_output_dir(dir);
  check_output_file(dir / "table.md");
  for (const FigureSpec& f : c.figures)
    for (const char* ext : {".gp", ".png", ".pdf"})
      if (figures || std::string_view(ext) == ".gp") check_output_file(dir / (f.file + ext));
}

std::string write_listed_report(const SweepConfig& c, const std::vector<SweepRow>& rows,
                                OutputTransaction& out, bool figures, const std::string& indent,
                                const std::string& command) {
  ReportFiles files;
  fs::path stage;
  out.stage([&](const fs::path& dir) {
    files = write_report(c, rows, dir, figures);
    stage = dir;
  });
  std::string listing;
  for (const auto& f : files.written)
    if (f.extension() != ".gp") listing += indent + (out.target() / f.filename()).string() + "\n";
  std::string note = files.note;
  if (const auto at = note.find(stage.string()); !stage.empty() && at != std::string::npos)
    note.replace(at, stage.string().size(), out.target().string());
  if (!note.empty()) fmt::print(stderr, "{}: {}\n", command, note);
  return listing;
}

}  // namespace cosda
