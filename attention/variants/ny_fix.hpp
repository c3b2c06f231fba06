// ny_fix: Nyström SDA re-run over the window every step with fixed landmarks (Att_Ny^Fix, Nyström
// Sec. IV-B, Fig. 4), Gamma_phi^+ computed at construction; nystrom_heads.hpp. Output n x d.
// State: the last n tokens, the landmarks and Gamma_phi^+. Per step: O(ndm + nm^2).
#pragma once

#include "attention/families/nystrom_heads.hpp"

namespace cosda {

const exact::Forms& closed_forms_ny_fix();

template <class E>
class NyFix final : public NystromHeads<E, LandmarkKind::kFixed> {
 public:
  static constexpr VariantTraits kTraits{.id = "ny_fix",
                                         .paper_name = "Att_Ny^Fix",
                                         .family = Family::kNystrom,
                                         .single_output = false,
                                         .continual = false,
                                         .landmarks = LandmarkKind::kFixed,
                                         .style = {"#56b4e9", 9},
                                         .closed_forms = &closed_forms_ny_fix};

  // c.fixed_q and c.fixed_k are m x d, sliced per head as MultiHead slices them.
  explicit NyFix(const Config& c, std::int64_t heads = 1)
      : NystromHeads<E, LandmarkKind::kFixed>(c, heads) {}
};

}  // namespace cosda
