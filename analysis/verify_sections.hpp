// Internal to the verification library: the report's numbered sections, each appending to Text.
#pragma once

#include <vector>

#include "analysis/verify.hpp"
#include "analysis/verify_runs.hpp"
#include "analysis/verify_text.hpp"

namespace cosda::verify {

// 1 and 2 (analysis/verify_appendix.cpp): the exact forms, against execution and as printed.
void section_exact(Text& r, const std::vector<Check>& checks);
void section_forms(Text& r);
// 3: the Nyström paper's Appendices A and B against execution.
void section_nystrom(Text& r, Runs& runs, const Grid& g);
// 4 and 5 (analysis/verify_cotrans.cpp): CoTrans Sec. 3.1-3.3 and its Sec. 3.4 ratios.
void section_cotrans(Text& r, Runs& runs, const Grid& g);
void section_ratios(Text& r, Runs& runs);
// 6 (analysis/verify_orders.cpp): Table I's orders against fitted exponents.
void section_orders(Text& r, Runs& runs, const Grid& g);
// 7 and 8 (analysis/verify_tables.cpp): Tables III and IV, and the two-block models.
void section_tables(Text& r, Runs& runs);
void section_two_block(Text& r, Runs& runs, const Grid& g);
// Fig. 4(d)'s composed two-layer peak against the executed two-block stream.
void section_fig4d(Text& r, Runs& runs);
// 10 (analysis/verify_claims.cpp): every cost sentence of the papers, with its class.
void section_claims(Text& r, Runs& runs);
// 10b (analysis/verify_internal.cpp): sentence, cell and equation of a paper against another.
void section_internal(Text& r);
// Every claim of section 10 with its computed verdict (nullopt: not computed), in report order.
std::vector<std::pair<std::string, std::optional<bool>>> claim_verdicts(Runs& runs);
// How far a printed equation lands from the quantity it defines (analysis/verify_equations.cpp):
// eq24, eq19, eq13, eq4, eq23, co eq2; on degenerate data each coincides (residual 0).
double printed_residual(const std::string& eq, bool degenerate);

}  // namespace cosda::verify
