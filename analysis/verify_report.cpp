// The verification report assembled: exact-form grid, numbered sections, status line, findings.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <sstream>

#include "analysis/verify_sections.hpp"
#include "attention/registry.hpp"
#include "io/atomic_file.hpp"

namespace cosda::verify {
namespace {

namespace fs = std::filesystem;

// Every variant at every [exact] grid point (m = n added; m > n, heads not dividing d skipped).
void run_exact_grid(Runs& runs, const Grid& g) {
  for (const auto& sid : kVariantIds) {
    const std::string id(sid);
    for (std::int64_t n : g.n)
      for (std::int64_t d : g.d) {
        std::vector<std::int64_t> ms = has_landmarks(id) ? g.m : std::vector<std::int64_t>{1};
        if (has_landmarks(id) && std::find(ms.begin(), ms.end(), n) == ms.end()) ms.push_back(n);
        for (std::int64_t m : ms)
          for (std::int64_t h : g.heads)
            if (m <= n && d % h == 0) runs.get({id, n, d, m, h});
      }
  }
}

void section_corrections(Text& r, const fs::path& path) {
  r.p("## 9. Equation corrections\n\n");
  const std::optional<std::string> text = read_file(path);
  if (!text) {
    r.p("{} is absent: no corrections file was found when this report was written.\n\n",
        path.string());
    r.findings.push_back("Equation corrections: " + path.string() + " absent at report time.");
    return;
  }
  // Its headings are demoted below this section's.
  std::string out;
  std::istringstream lines(*text);
  for (std::string line; std::getline(lines, line);) {
    if (!line.empty() && line[0] == '#') line = "###" + line;
    out += line + "\n";
  }
  r.p("Quoted from {}:\n\n{}\n", path.string(), out);
}

// One line per kind of symbolic comparison: how many are exact, share the leading term or
// differ, naming all but the second.
std::vector<std::string> verdict_lines(const Text& r) {
  std::vector<std::string> lines;
  for (const auto& [section, label] : std::vector<std::pair<std::string, std::string>>{
           {"appendix_a", "Nystrom App. A FLOPs (convention mac)"},
           {"appendix_b", "Nystrom App. B memory"},
           {"cotrans", "CoTrans Sec. 3.1-3.3 mul/add/exp/FLOPs (convention cotrans)"}}) {
    std::map<std::string, std::vector<std::string>> by;
    for (const auto& v : r.verdicts)
      if (v[0] == section) by[v[2]].push_back(v[1]);
    std::string line = label + ":";
    for (const Verdict k : {Verdict::kExact, Verdict::kSameLeading, Verdict::kDifferent}) {
      const auto it = by.find(verdict_name(k));
      const std::size_t count = it == by.end() ? 0 : it->second.size();
      std::string names;
      if (k != Verdict::kSameLeading && it != by.end())
        for (const std::string& x : it->second) names += (names.empty() ? "" : ", ") + x;
      line +=
          fmt::format(" {} {}{};", count, verdict_name(k), names.empty() ? "" : " (" + names + ")");
    }
    line.back() = '.';
    lines.push_back(line);
  }
  return lines;
}

// The counts per class over the compared rows, and the paper errors, one line each.
void class_summary(Text& head, const std::vector<Classified>& classes) {
  head.p("\n## Classes (one per compared row)\n\n{}\n\n| class | rows | keys |\n|---|---|---|\n",
         required_note("classes intro"));
  int total = 0;
  for (const std::string_view c : kClasses) {
    int rows = 0, keys = 0;
    for (const Classified& k : classes)
      if (k.cls == c) rows += k.rows, ++keys;
    total += rows;
    head.p("| {} | {} | {} |\n", c, rows, keys);
  }
  int not_computed = 0, nc_keys = 0;
  for (const Classified& k : classes)
    if (k.cls == kNotComputed) not_computed += k.rows, ++nc_keys;
  head.p("| all | {} | {} |\n| {} (claims, apart from the classes) | {} | {} |\n\n", total,
         std::ssize(classes) - nc_keys, kNotComputed, not_computed, nc_keys);
  for (const std::string_view c : {"paper error (internal)", "paper error"}) {
    head.p("{}:\n\n", c == "paper error" ? "Paper errors" : "Internal contradictions of a paper");
    for (const Classified& k : classes)
      if (k.cls == c) head.p("- `{}` ({} rows): {}\n", k.key, k.rows, k.detail);
    head.p("\n");
  }
}

// The last section: every class key with its section, rows, class and detail.
std::string section_classes(const std::vector<Classified>& classes) {
  Text t;
  t.p("## 11. Class of every compared key\n\n{}\n\n| section | key | rows | class | detail "
      "|\n|---|---|---|---|---|\n",
      required_note("classes table"));
  for (const Classified& k : classes)
    t.p("| {} | `{}` | {} | {} | {} |\n", k.section, k.key, k.rows, k.cls, k.detail);
  return t.md + "\n";
}

// Sections 2-9, in report order; section 1 (the checks) is written last, once all are run.
void sections(Text& r, Runs& runs, const Grid& g, const fs::path& corrections) {
  section_forms(r);
  section_nystrom(r, runs, g);
  section_cotrans(r, runs, g);
  if (g.tables) section_ratios(r, runs);
  section_orders(r, runs, g);
  if (g.tables) {
    section_tables(r, runs);
    section_two_block(r, runs, g);
    section_fig4d(r, runs);
  }
  section_corrections(r, corrections);
  if (g.tables) section_claims(r, runs);
  if (g.tables) section_internal(r);
}

}  // namespace

Report build_report(const Grid& g, const fs::path& config, const fs::path& corrections) {
  Runs runs;
  run_exact_grid(runs, g);
  Text body;
  sections(body, runs, g, corrections);
  const std::vector<std::string> verdicts = verdict_lines(body);
  body.findings.insert(body.findings.begin(), verdicts.begin(), verdicts.end());
  // Headline findings first.
  std::stable_partition(body.findings.begin(), body.findings.end(),
                        [](const std::string& f) { return f.rfind("Headline", 0) == 0; });
  const std::string sections_md = std::move(body.md);
  body.md.clear();
  section_exact(body, runs.checks);  // its CSV rows follow the other sections'

  Report out;
  out.status = status(runs.checks, body.classes);
  out.unexplained = unexplained_rows(body.classes);
  out.checks = runs.checks.size();
  for (const Check& c : runs.checks) out.mismatches += !c.ok();
  Text head;
  head.p("# Verification: published cost formulas against executed counts\n\n");
  head.p(fmt::runtime(required_note("report intro") + "\n\n"), config.string());
  for (const conventions::Info& c : conventions::kConventions) head.p("- `{}`: {}\n", c.id, c.name);
  head.p(
      "\n**Status: {}.** Exact forms against execution: {} points, {} mismatches; paper "
      "comparisons classed unexplained beyond the open questions: {} rows (exit status {}).\n\n",
      out.status == 0 ? "pass" : "FAIL", out.checks, out.mismatches, out.unexplained, out.status);
  head.p("## Findings (one line each)\n\n");
  head.p(
      "- cosda's exact forms (attention/variants/<id>.cpp) equal execution at all {} points run, "
      "field "
      "by field{} (memory where its forms are exact: n >= 3, 2 <= m < n, and valleys only for "
      "the continual-landmark variants, whose peaks are measured only).\n",
      out.checks, out.mismatches ? fmt::format(" except {}", out.mismatches) : "");
  for (const std::string& f : body.findings) head.p("- {}\n", f);
  for (const std::string& f : note_list("findings")) head.p("- {}\n", f);
  class_summary(head, body.classes);
  out.markdown = head.md + "\n" + body.md + sections_md + section_classes(body.classes);
  out.csv = body.csv.text();
  return out;
}

}  // namespace cosda::verify
