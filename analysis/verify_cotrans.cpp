// Report sections 4 and 5: CoTrans Sec. 3.1-3.3 counts and Sec. 3.4 ratios against execution.
#include <cmath>
#include <tuple>

#include "analysis/published.hpp"
#include "analysis/verify_sections.hpp"

namespace cosda::verify {
namespace {

namespace pub = published;
using conventions::Convention;

double executed_part(const conventions::MulAddExp& e, const std::string& what) {
  return double(what == "mul" ? e.mul : what == "add" ? e.add : what == "exp" ? e.exp : e.total());
}

// One variant of Sec. 3.1-3.3: mul, add, exp and their sum, symbolically and at each point.
void cotrans_variant(Text& r, Runs& runs, const Grid& g, const pub::CoTransSection& s) {
  const std::string id(s.id);
  const pub::MulAddExp& t = *pub::cotrans_text(id);
  const exact::Buckets& b = exact::forms(id)->step;
  const exact::Form mul{b.mul.base + b.div.base, {}}, add{b.add.base + b.other.base, {}};
  const std::tuple<const char*, Poly, exact::Form> parts[] = {
      {"mul", t.mul, mul},
      {"add", t.add, add},
      {"exp", t.exp, b.exp},
      {"FLOPs (mul+add+exp)", pub::total_flops(t), b.flops()}};
  r.p("### {} (Sec. {})\n\n| quantity | published | ours | verdict | n | d | published | "
      "executed | ratio |\n|---|---|---|---|---|---|---|---|---|\n",
      id, s.section);
  for (const auto& [what, published, ours] : parts) {
    const std::string verdict = verdict_name(compare_forms(published, ours));
    r.verdicts.push_back({"cotrans", id + " " + what, verdict});
    bool first = true;
    for (const auto& pt : g.cotrans) {
      const Cost& c = runs.get({id, pt[0], pt[1], 1, 1});
      const std::string w = what;
      const double ev = executed_part(conventions::cotrans_triple(c.plain_step), w);
      const double pv = published.eval(double(pt[0]), double(pt[1]), 1);
      r.p("| {} | {} | {} | {} | {} | {} | {} | {} | {} |\n", first ? w : "",
          first ? "`" + published.str() + "`" : "", first ? "`" + ours.str() + "`" : "",
          first ? verdict : "", pt[0], pt[1], num(pv), num(ev), ratio(ev, pv));
      r.csv.row("cotrans", "CoTrans paper, Sec. 3.1-3.3", id, w, "cotrans", pt[0], pt[1], 1, 1, 1,
                pv, ev, std::nullopt, verdict, r.cls("cotrans", id + " cotrans " + w, verdict));
      first = false;
    }
  }
  r.p("\n");
  const std::string why = explain(id, "cotrans");
  if (!why.empty()) r.p("Why: {}\n\n", why);
}

}  // namespace

void section_cotrans(Text& r, Runs& runs, const Grid& g) {
  r.p("## 4. CoTrans paper, Sec. 3.1-3.3 (= Tables 5-7), against execution\n\n{}\n\n",
      required_note("cotrans intro"));
  for (const pub::CoTransSection& s : pub::cotrans_sections()) cotrans_variant(r, runs, g, s);
  // Memory: Sec. 3.1's cache against the executed valley of the variant it describes.
  const pub::QuotedMemory& cache = pub::cotrans_memory()[0];
  const std::string id(cache.id);
  bool equal = true;
  for (const auto& pt : g.cotrans)
    equal = equal && cache.size.eval(double(pt[0]), double(pt[1]), 1) ==
                         double(runs.get({id, pt[0], pt[1], 1, 1}).valley);
  const std::string verdict = equal ? "equal" : "different";
  r.p("**{} — memory.** {} states {} = `{}`; ours: valley `{}`, {} at every point of the grid.\n\n",
      id, cache.source, cache.what, cache.size.str(), exact::forms(id)->valley.str(), verdict);
  for (const auto& pt : g.cotrans) {
    const Cost& c = runs.get({id, pt[0], pt[1], 1, 1});
    r.csv.row("cotrans", std::string(cache.source), id, "cache (valley)", "elements", pt[0], pt[1],
              1, 1, 1, cache.size.eval(double(pt[0]), double(pt[1]), 1), double(c.valley),
              std::nullopt, verdict, r.cls("cotrans", id + " cotrans_cache", verdict));
  }
  r.p("Why: {}\n\n", explain(id, "cotrans_cache"));
}

void section_ratios(Text& r, Runs& runs) {
  r.p("## 5. CoTrans paper, Sec. 3.4: the four FLOPs ratios\n\n{}\n\n",
      required_note("ratios intro"));
  r.p("| ratio | n = d | printed | paper formulas | verdict | executed (cotrans) | executed "
      "(mac) |\n|---|---|---|---|---|---|---|\n");
  for (const pub::QuotedRatio& q : pub::cotrans_ratios()) {
    const double num_f = pub::total_flops(*pub::cotrans_text(q.numerator_id)).eval(q.n, q.d, 0);
    const double den_f = pub::total_flops(*pub::cotrans_text(q.denominator_id)).eval(q.n, q.d, 0);
    const Cost& a = runs.get({std::string(q.numerator_id), q.n, q.d, 1, 1});
    const Cost& b = runs.get({std::string(q.denominator_id), q.n, q.d, 1, 1});
    const double ex = double(conventions::count(a.plain_step, Convention::kCoTrans)) /
                      double(conventions::count(b.plain_step, Convention::kCoTrans));
    const double mac = double(conventions::count(a.plain_step, Convention::kMac)) /
                       double(conventions::count(b.plain_step, Convention::kMac));
    const bool ok = std::fabs(num_f / den_f - q.printed) <= 0.5;
    const bool ok_ex = std::fabs(ex - q.printed) <= 0.5;
    r.p("| {}/{} | {} | {}x | {:.2f}x | {} | {:.2f}x{} | {:.2f}x |\n", q.numerator_id,
        q.denominator_id, q.n, q.printed, num_f / den_f, ok ? "reproduced" : "not reproduced", ex,
        ok_ex ? " (reproduced)" : " (not reproduced)", mac);
    r.csv.row("cotrans_ratio", std::string(q.what), std::string(q.denominator_id), "FLOPs ratio",
              "cotrans", q.n, q.d, 1, 1, 1, q.printed, ex, num_f / den_f,
              ok ? "reproduced" : "not reproduced",
              r.cls("cotrans_ratio", "cotrans_ratio " + std::string(q.denominator_id),
                    ok && ok_ex ? "reproduced" : "not reproduced"));
    r.findings.push_back(fmt::format(
        "CoTrans Sec. 3.4 {}x ({}/{}, n = d = {}): {} by the paper's formulas ({:.2f}x); "
        "executed counts give {:.2f}x.",
        q.printed, q.numerator_id, q.denominator_id, q.n, ok ? "reproduced" : "not reproduced",
        num_f / den_f, ex));
  }
  r.p("\n");
}

}  // namespace cosda::verify
