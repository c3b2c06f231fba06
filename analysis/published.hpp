// The closed-form costs and printed numbers of the two reference papers, as data.
//
//  - "Nystrom paper": "Continual Low-Rank Scaled Dot-product Attention" (Appendix A
//    computational costs, Appendix B memory costs, Table I asymptotic orders, Tables III and
//    IV printed FLOPs).
//  - "CoTrans paper": "Continual Transformers: Redundancy-Free Attention for Online
//    Inference" (Tables 5-7 operation counts, Sec. 3.1-3.4 running text).
//
// Contract:
//  - Everything is transcribed exactly as printed, including the places where a stated total
//    disagrees with the sum of its own items or a printed number disagrees with its
//    neighbours. Nothing is corrected here; analysis/published_findings.md lists the
//    disagreements and tests/published_test.cpp pins them.
//  - Variant ids are the registry's (attention/registry.hpp kVariantIds). Look-ups with an unknown
//  id (or an id a
//    source does not cover) return nullptr or an empty span.
//  - All returned pointers and spans refer to static storage and stay valid for the lifetime
//    of the program.
//  - Beyond the plain transcription: Published::printed_total keeps the total as typeset
//    (e.g. "3(nd - 1)"), PrintedCell carries the printed number of decimals so the rounding
//    of a cell can be bounded, and cotrans_table() is the column sum of cotrans_rows().
#pragma once

#include <array>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "attention/counting/poly.hpp"

namespace cosda::published {

// Entries are keyed by registry id (attention/registry.hpp), in App. A/B item order:
// 1) att, 2) ny, 3) ny_fix, 4) co_re, 5) co_si, 6) cony_re_fix, 7) cony_si_fix,
// 8) cony_re_cont, 9) cony_si_cont.

// ---------------------------------------------------------------------------------------
// Nystrom paper, Appendices A and B.

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

// ---------------------------------------------------------------------------------------
// CoTrans paper.

struct MulAddExp {
  Poly mul, add, exp;
};
// mul + add + exp: the FLOP count used by the CoTrans paper in Sec. 3.4.
Poly total_flops(const MulAddExp& c);

struct TableRow {
  std::string_view eq;  // e.g. "Table 5, Eq. (1.1)"
  MulAddExp cost;
};
// Rows of Table 5 (att, Eqs. 1.1-1.3), Table 6 (co_re, Eqs. 2-6), Table 7 (co_si, Eqs.
// 7.1-7.2), as printed. Empty for other ids.
std::span<const TableRow> cotrans_rows(std::string_view id);
// The column sums of those rows (computed from cotrans_rows, not quoted anywhere).
const MulAddExp* cotrans_table(std::string_view id);
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

// ---------------------------------------------------------------------------------------
// Nystrom paper, Tables III and IV: printed FLOPs (M) and Rel. FLOPs.

inline constexpr std::string_view kTable3 = "Nystrom paper, Table III (GTZAN)";
inline constexpr std::string_view kTable4 = "Nystrom paper, Table IV (THUMOS14)";

// The settings the paper states for a table; 0 where the paper does not state a value.
struct TableSetting {
  std::string_view table;
  int n, d, m, heads;
  std::string_view note;
};
std::span<const TableSetting> table_settings();
// Table IV's model, CoOadTR, has 8 heads (configs/models/cooadtr_b1.toml, from OadTR's logs);
// the table itself states no heads.
inline constexpr int kTable4RecordedHeads = 8;

// One (model, layers) cell. For one layer the Continual models are the single-output
// variants; two layers are a retroactive block followed by a single-output block for
// Continual models, and two blocks of the same kind otherwise.
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

// ---------------------------------------------------------------------------------------
// Composition.

// Appendix A operations per step of one block as the Nyström paper composes them: a
// continual-landmark variant refreshes a landmark m times per n steps (Sec. IV-A) and its other
// n - m steps cost as its fixed-landmark counterpart's update (Sec. IV-B), so its Appendix A
// total is averaged over that cycle of n steps, (m update + (n - m) plain) / n; any other
// variant costs its Appendix A total every step. Nullopt where Appendix A has no entry.
std::optional<double> amortized_flops(std::string_view id, double n, double d, double m);

// A short paragraph on the counting convention a paper appears to use. `paper` is
// "nystrom" or "cotrans"; empty for anything else.
std::string_view convention_note(std::string_view paper);

}  // namespace cosda::published
