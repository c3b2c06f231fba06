// The closed-form costs and printed numbers of the two reference papers, as data: the Nyström
// paper ("Continual Low-Rank Scaled Dot-product Attention": App. A, App. B, Tables I, III, IV) and
// the CoTrans paper ("Continual Transformers: Redundancy-Free Attention for Online Inference":
// Tables 5-7, Sec. 3.1-3.4). Transcribed exactly as printed, inconsistencies included
// (analysis/published_findings.md lists them). Keyed by registry id; an unknown or uncovered id
// gives nullptr or an empty span. Returned pointers and spans refer to static storage.
#pragma once

#include <array>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "attention/counting/poly.hpp"

namespace cosda::published {

// Appendix A/B items 1)-9) are att, ny, ny_fix, co_re, co_si, cony_re_fix, cony_si_fix,
// cony_re_cont, cony_si_cont.

// ---- Nyström paper, Appendices A and B ----

// One bullet: `what` is a plain-ASCII paraphrase that starts with the cost as typeset.
struct Item {
  std::string_view what;
  Poly cost;
};

// One appendix entry: the stated total and its bullet items, both as printed.
struct Published {
  std::string_view source;         // e.g. "Nystrom paper, Appendix A, 1) Base Transformer"
  Poly total;                      // the stated total
  std::vector<Item> items;         // every bullet, in printed order
  std::string_view printed_total;  // the total as typeset, e.g. "3(nd - 1) + 2dm + m^2"
};

const Published* flops(std::string_view id);   // Appendix A: operations per step
const Published* valley(std::string_view id);  // Appendix B: valley memory (values stored)
const Published* peak(std::string_view id);    // Appendix B: peak memory (values stored)

// Table I: the O(...) contents, every coefficient 1.
struct Orders {
  Poly compute, valley, peak;
};
const Orders* table1(std::string_view id);

// ---- CoTrans paper ----

struct MulAddExp {
  Poly mul, add, exp;
};
// mul + add + exp: the FLOP count used by the CoTrans paper in Sec. 3.4.
Poly total_flops(const MulAddExp& c);

struct TableRow {
  std::string_view eq;  // e.g. "Table 5, Eq. (1.1)"
  MulAddExp cost;
};
// Rows of Tables 5 (att), 6 (co_re), 7 (co_si) as printed (Eqs. 1.1-1.3, 2-6, 7.1-7.2); else empty.
std::span<const TableRow> cotrans_rows(std::string_view id);
// The totals quoted in the running text: Sec. 3.1 (att), 3.2 (co_re), 3.3 (co_si).
const MulAddExp* cotrans_text(std::string_view id);
// The variants whose counts Sec. 3.1-3.3 quote, in the paper's order, with their section.
struct CoTransSection {
  std::string_view id;
  std::string_view section;  // e.g. "3.1"
};
std::span<const CoTransSection> cotrans_sections();

// Sec. 3.4: "FLOPs are reduced by <printed>x" = FLOPs(numerator) / FLOPs(denominator).
struct QuotedRatio {
  std::string_view what;
  std::string_view numerator_id, denominator_id;
  int n, d;
  double printed;
};
std::span<const QuotedRatio> cotrans_ratios();

// Memory statements of the running text (values stored), e.g. the Sec. 3.1 cache 3(n-1)d.
struct QuotedMemory {
  std::string_view source;
  std::string_view id;
  std::string_view what;
  Poly size;
};
std::span<const QuotedMemory> cotrans_memory();

// ---- Nyström paper, Tables III and IV: printed FLOPs (M) and Rel. FLOPs ----

inline constexpr std::string_view kTable3 = "Nystrom paper, Table III (GTZAN)";
inline constexpr std::string_view kTable4 = "Nystrom paper, Table IV (THUMOS14)";

// The settings the paper states for a table; 0 where the paper does not state a value.
struct TableSetting {
  std::string_view table;
  int n, d, m, heads;
  std::string_view note;
};
std::span<const TableSetting> table_settings();
// Table IV's model, CoOadTR, has 8 heads (configs/models/cooadtr_b1.toml); the table states none.
inline constexpr int kTable4RecordedHeads = 8;

// One (model, layers) cell. One layer: Continual models are single-output variants; two layers: a
// retroactive then a single-output block for Continual models, two of the same kind otherwise.
struct PrintedCell {
  std::string_view table;           // kTable3 or kTable4
  std::string_view model;           // paper model name, e.g. "Att_CoNy^Cont-4"
  std::string_view variant_1layer;  // our id for the one-layer model
  int layers;
  double flops_millions;
  double rel_flops;
  int flops_decimals;  // decimals as printed, so the rounding can be bounded
  int rel_decimals;
};
std::span<const PrintedCell> printed_cells();

// Appendix A operations per step of one block as the Nyström paper composes them: a
// continual-landmark variant averages m landmark updates (Sec. IV-A) and n - m steps of its
// fixed-landmark counterpart (Sec. IV-B) over n; any other variant costs its Appendix A total
// every step. Nullopt where Appendix A has no entry.
std::optional<double> amortized_flops(std::string_view id, double n, double d, double m);

}  // namespace cosda::published
