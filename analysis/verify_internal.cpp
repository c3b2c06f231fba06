// Report section 10b: where a sentence, cell or equation of a paper contradicts another of the
// same paper: a finding of its own, whatever execution says; number sides are compared here.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "analysis/published.hpp"
#include "analysis/verify_sections.hpp"
#include "attention/registry.hpp"

namespace cosda::verify {
namespace {

namespace pub = published;

struct Internal {
  std::string key, where, one, other, evidence;
  bool contradiction = false;
};

// A printed cell against its Rel. column: FLOPs(Att, same layers) / Rel., within printed decimals.
std::vector<Internal> rel_columns() {
  std::vector<Internal> out;
  for (const pub::PrintedCell& c : pub::printed_cells()) {
    double att = 0;
    int att_dec = 2;
    for (const pub::PrintedCell& a : pub::printed_cells())
      if (a.table == c.table && a.layers == c.layers && a.rel_flops == 1)
        att = a.flops_millions, att_dec = a.flops_decimals;
    if (att == 0 || c.rel_flops == 1) continue;
    const double ha = 0.5 * std::pow(10.0, -att_dec), hr = 0.5 * std::pow(10.0, -c.rel_decimals);
    const double hf = 0.5 * std::pow(10.0, -c.flops_decimals);
    const double lo = (att - ha) / (c.rel_flops + hr), hi = (att + ha) / (c.rel_flops - hr);
    if (c.flops_millions + hf >= lo && c.flops_millions - hf <= hi) continue;
    out.push_back({"internal rel column", std::string(c.table),
                   fmt::format("{}, {} layer(s): {} M", c.model, c.layers, c.flops_millions),
                   fmt::format("its Rel. x{}", c.rel_flops),
                   fmt::format("Att's {} M / x{} = {:.4f}-{:.4f} M", att, c.rel_flops, lo, hi),
                   true});
  }
  return out;
}

// The printed cells of `table` with `layers` whose one-layer variant is of family f, continual or
// not (by the registry's traits, not ids).
std::vector<const pub::PrintedCell*> cells(std::string_view table, int layers, Family f,
                                           bool continual) {
  std::vector<const pub::PrintedCell*> out;
  for (const pub::PrintedCell& c : pub::printed_cells()) {
    const VariantTraits* t = find_variant(c.variant_1layer);
    if (c.table == table && c.layers == layers && t != nullptr && t->family == f &&
        t->continual == continual)
      out.push_back(&c);
  }
  return out;
}
double lowest(const std::vector<const pub::PrintedCell*>& v) {
  double x = 1e300;
  for (const pub::PrintedCell* c : v) x = std::min(x, c->flops_millions);
  return x;
}

std::vector<Internal> internals() {
  std::vector<Internal> out;
  double best = 0;
  for (const pub::PrintedCell& c : pub::printed_cells()) best = std::max(best, c.rel_flops);
  out.push_back({"internal orders", "Nystrom paper, abstract and Sec. VI",
                 "\"lower the number of operations by up to three orders of magnitude\"",
                 "\"a reduction of up to two orders of magnitude in the number of operations\"",
                 fmt::format("largest printed Rel. of Tables III/IV: x{} (10^{:.2f})", best,
                             std::log10(best)),
                 true});
  std::string above;
  int n_above = 0, n_cells = 0;
  for (const int layers : {1, 2}) {
    const double co = lowest(cells(pub::kTable4, layers, Family::kSoftmax, true));
    for (const pub::PrintedCell* c : cells(pub::kTable4, layers, Family::kNystrom, true)) {
      ++n_cells, n_above += c->flops_millions > co;
      above += fmt::format("{}{} {} layer(s) {} M vs Att_Co {} M", above.empty() ? "" : "; ",
                           c->model, layers, c->flops_millions, co);
    }
  }
  out.push_back({"internal table4 text", "Nystrom paper, Sec. V-D and Table IV",
                 "\"models using Nystrom-based SDA formulations achieve lower mAP values compared "
                 "to the models using the original SDA and the Continual SDA formulations, in "
                 "exchange for a reduced computational cost\"",
                 "Table IV's FLOPs cells",
                 above + fmt::format(" ({} of {} above Att_Co)", n_above, n_cells), n_above > 0});
  const double two = lowest(cells(pub::kTable3, 2, Family::kNystrom, true));
  const double regular = lowest(cells(pub::kTable3, 1, Family::kNystrom, false));
  out.push_back({"internal sec4c tables", "Nystrom paper, Sec. IV-C and Table III",
                 "\"all SDA blocks except the last one must be of a regular Nystromformer or any "
                 "other non-Continual Transformer\"",
                 "Table III's two-layer continual Nystrom cells",
                 fmt::format("two layers print {} M and up, below one regular Nystrom block's "
                             "{} M and up, so their first block is not regular",
                             two, regular),
                 two < regular});
  out.push_back({"internal fix memory", "Nystrom paper, Sec. V-B and Eq. (25)",
                 "\"Att_CoNy^Fix ... does not require storing any of the previously received "
                 "tokens\"",
                 "Eq. (25) subtracts rho(Qt, k_old) v_old, the token received n steps before",
                 "the update reads k_old and v_old (section 10, claim eq25: the executed valley)",
                 true});
  // CoTrans Table 2 as printed (FLOPs, M): OadTR, CoOadTR-b2, CoOadTR-b1 per feature set.
  const double anet[] = {2445.6, 410.9, 9.6}, kin[] = {2513.5, 411.9, 10.6};
  const auto rounds = [](double x, double printed, double half) {
    return std::fabs(x - printed) <= half;
  };
  const bool anet_ok = rounds(anet[0] / anet[2], 255, 0.5) && rounds(anet[0] / anet[1], 6.1, 0.05);
  const bool kin_ok = rounds(kin[0] / kin[2], 255, 0.5) && rounds(kin[0] / kin[1], 6.1, 0.05);
  out.push_back(
      {"internal co 255x", "CoTrans paper, Sec. 4.1.3 and Table 2",
       "\"CoOadTR-b1 and CoOadTR-b2 reduce FLOPs by 255x and 6.1x\"", "Table 2's cells",
       fmt::format("A.Net: {:.1f}x and {:.2f}x; Kin.: {:.1f}x and {:.2f}x: no feature set "
                   "gives both",
                   anet[0] / anet[2], anet[0] / anet[1], kin[0] / kin[2], kin[0] / kin[1]),
       !anet_ok && !kin_ok});
  out.push_back({"internal co mlp", "CoTrans paper, Sec. 4.2 and Table 4",
                 "\"an embedding dimension of 192 and an MLP dimension of 384\"",
                 "Table 4's 286 K parameters (one block)",
                 "one block has 286.474 K parameters with an MLP dimension of 192 and 360.394 K "
                 "with 384 (results/models/report.md, Parameters)",
                 true});
  for (Internal& i : rel_columns()) out.push_back(std::move(i));
  return out;
}

}  // namespace

void section_internal(Text& r) {
  r.p("## 10b. Internal contradictions of the papers\n\n{}\n\n| where | one side | the other | "
      "compared | class |\n|---|---|---|---|---|\n",
      required_note("internal intro"));
  for (const Internal& i : internals()) {
    const std::string cls = r.claim_cls(i.key, !i.contradiction, i.evidence, "internal");
    r.p("| {} | {} | {} | {} | {} |\n", i.where, i.one, i.other, i.evidence, cls);
    r.csv.row("internal", i.where, "", i.key, "", 0, 0, 0, 1, 1, std::nullopt, std::nullopt,
              std::nullopt, i.contradiction ? "contradiction" : "consistent", cls);
  }
  r.p("\n");
}

}  // namespace cosda::verify
