// corf_re: Continual Retroactive random-feature attention (no paper; random_features.hpp):
// out_t = phi(q_t) S_i / (phi(q_t) . z_i) for every query q_t of the window and head i, from
// corf_si's sums. Output n x d in window order. State (heads_state.hpp): W, S, z, rings of key
// features, query features (computed on arrival) and values. Per step: O(nmd), the n queries'
// products with S (ops/heads_rf.hpp).
#pragma once

#include "attention/families/heads_state.hpp"
#include "attention/ops/heads_rf.hpp"

namespace cosda {

const exact::Forms& closed_forms_corf_re();

template <class E>
class CoRfRe final : public Attention<E> {
 public:
  using S = typename E::Scalar;
  static constexpr VariantTraits kTraits{.id = "corf_re",
                                         .paper_name = "Att_CoRFRe",
                                         .family = Family::kRandomFeatures,
                                         .single_output = false,
                                         .continual = true,
                                         .landmarks = LandmarkKind::kRandomFeatures,
                                         .style = {"#aa4499", 10},
                                         .closed_forms = &closed_forms_corf_re};

  explicit CoRfRe(const Config& c, std::int64_t heads = 1)
      : st_(c, heads),
        by_row_(st_.h == 1),
        phi_qt_(by_row_ ? Mat<S>(st_.n, st_.m)
                        : Mat<S>::Zero(st_.h * st_.m, kernels::padded_cols<S>(st_.n))),
        den_(Mat<S>::Zero(st_.h, kernels::padded_cols<S>(st_.n))),
        out_(st_.n, st_.d) {}

  bool step(const S* q, const S* k, const S* v) override {
    const std::int64_t j = seen_ % st_.n;
    st_.slide(seen_, k, v);  // S_i, z_i lose the leaving token's terms and gain the new token's
    // u_i = phi(q_i), computed once and kept for the window's later steps
    st_.query_features(q);
    if (by_row_)
      ops::copy<E>(st_.u.data(), st_.u.data() + st_.m, &phi_qt_(j, 0));
    else
      ops::copy_to_column<E>(st_.u.data(), phi_qt_, j);
    if (++seen_ < st_.n) return false;
    // every query's out_i = u_i S_i / (u_i . z_i), in window order
    ops::heads_attend_cols<E>(phi_qt_, st_.s, st_.z, seen_ % st_.n, den_, out_, by_row_);
    return true;
  }
  MatCRef<S> output() const override { return out_; }

 private:
  FeatureSumsHeads<E> st_;
  std::int64_t seen_ = 0;
  // Query features by column (h m x n), or one head's by row (n x m, depth m for its kernels); by
  // column they and den_ are padded to whole packets (heads_attend_cols).
  bool by_row_;
  Mat<S> phi_qt_, den_, out_;
};

}  // namespace cosda
