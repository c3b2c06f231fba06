// corf_re: Continual Retroactive random-feature attention (no paper of the suite;
// attention/families/random_features.hpp), for h >= 1 heads in one object: the n outputs of the
// window, out_t = phi(q_t) S_i / (phi(q_t) . z_i) for every query q_t of the window and head i,
// from the running sums S_i = sum_j phi(k_ij) v_ij^T and z_i = sum_j phi(k_ij) of corf_si, slid
// per step; each query's features are computed once, when it arrives (CoTrans Eq. 9 without the
// projections for h > 1). Input: q, k, v of width d, head i's features at [i dh, (i+1) dh).
// Output n x d in window order, oldest first, head i's at columns [i dh, (i+1) dh); the newest
// row is corf_si's output. State: the features W (m x dh, the same for every head), per head i
// the rows [i m, (i+1) m) of S and of z; the rings of the window's key features (n x h m), query
// features (h m x n, a token per column; one head: n x m, a token per row) and values (n x d). Per
// step: O(nmd), the products of the n queries with S; one head's in the timed build by the one-head
// product kernels (ops/heads_rf.hpp).
#pragma once

#include "attention/families/heads_state.hpp"
#include "attention/ops/heads_rf.hpp"

namespace cosda {

// Its exact closed forms (attention/variants/corf_re.cpp).
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

  // c.d is the full width; heads must divide it.
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
  // The query features a token per column (h m x n), or per row for one head (n x m: the
  // one-head product kernels take them at depth m). phi_qt_ by column and den_ have their
  // columns padded to whole packets (heads_attend_cols).
  bool by_row_;
  Mat<S> phi_qt_, den_, out_;
};

}  // namespace cosda
