// ny: Nyströmformer SDA re-run over the window every step, landmarks the segment means of its Q
// and K (Nyström Eq. 8; Sec. IV-C for n mod m != 0); nystrom_heads.hpp. Output n x d. State: the
// last n tokens. Per step: O(ndm + nm^2 + m^3).
#pragma once

#include "attention/families/nystrom_heads.hpp"

namespace cosda {

const exact::Forms& closed_forms_ny();

template <class E>
class Ny final : public NystromHeads<E, LandmarkKind::kSegmentMeans> {
 public:
  static constexpr VariantTraits kTraits{.id = "ny",
                                         .paper_name = "Att_Ny",
                                         .family = Family::kNystrom,
                                         .single_output = false,
                                         .continual = false,
                                         .landmarks = LandmarkKind::kSegmentMeans,
                                         .style = {"#e69f00", 7},
                                         .closed_forms = &closed_forms_ny};

  explicit Ny(const Config& c, std::int64_t heads = 1)
      : NystromHeads<E, LandmarkKind::kSegmentMeans>(c, heads) {}
};

}  // namespace cosda
