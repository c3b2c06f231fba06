// att: regular scaled dot-product attention re-run over the window at every step.
// Att(Q,K,V) = D^-1 A V, A = exp(QK^T/sqrt(d)), D = diag(A 1)  (CoTrans Eq. 1; Nyström Eq. 1).
// Output n x d. State: the last n tokens of Q, K, V. Per step: O(n^2 d).
#pragma once

#include "attention/attention.hpp"
#include "attention/families/window.hpp"
#include "attention/ops/seam.hpp"

namespace cosda {

// Its exact closed forms (attention/variants/att.cpp).
const exact::Forms& closed_forms_att();

// out = Att(q, k, v) over a window of n tokens, q a ring whose oldest row is `oldest`, with
// a (n x n) and rs (n) for A and its row sums: att's step, and each head of att's batched
// kernel with rings by row (att_heads.hpp).
template <class E>
void attend_rows(MatCRef<typename E::Scalar> q, MatCRef<typename E::Scalar> k,
                 MatCRef<typename E::Scalar> v, std::int64_t oldest, typename E::Scalar inv_sqrt_d,
                 MatRef<typename E::Scalar> a, typename E::Scalar* rs,
                 MatRef<typename E::Scalar> out) {
  const std::int64_t n = a.rows();
  scale_in_window_order<E>(q, oldest, inv_sqrt_d, out);
  ops::gemm_nt<E>(out, k, a);   // A = exp(Q K^T / sqrt(d))
  ops::exp_row_sums<E>(a, rs);  // D = diag(A 1)
  ops::gemm_nn<E>(a, v, out);   // A V
  ops::reciprocals<E>(rs, rs, n);
  ops::scale_rows<E>(out, rs);  // D^-1 A V
}

template <class E>
class Att final : public Attention<E> {
 public:
  using S = typename E::Scalar;
  static constexpr VariantTraits kTraits{.id = "att",
                                         .paper_name = "Att",
                                         .family = Family::kSoftmax,
                                         .single_output = false,
                                         .continual = false,
                                         .landmarks = LandmarkKind::kNone,
                                         .style = {"#000000", 5},
                                         .closed_forms = &closed_forms_att};

  explicit Att(const Config& c)
      : n_(c.n),
        d_(c.d),
        inv_sqrt_d_(1.0 / std::sqrt(double(c.d))),
        q_(n_, d_),
        k_(n_, d_),
        v_(n_, d_),
        a_(n_, n_),
        rs_(n_),
        out_(n_, d_) {}

  bool step(const S* q, const S* k, const S* v) override {
    ring_row<E>(q_, q, seen_);  // Q, K, V in rings, no shifting: the queries are put in window
    ring_row<E>(k_, k, seen_);  // order as they are scaled (attend), and attention is invariant
    ring_row<E>(v_, v, seen_);  // under permuting keys and values together
    if (++seen_ < n_) return false;
    attend(q_, k_, v_, seen_ % n_);
    return true;
  }
  MatCRef<S> output() const override { return out_; }

  // output() = Att(q, k, v) over a window of n tokens (the step's body, also used as the
  // second block of two-block models).
  void attend_window(MatCRef<S> q, MatCRef<S> k, MatCRef<S> v) override { attend(q, k, v, 0); }
  // q holds the window's queries as a ring whose oldest row is `oldest`.
  void attend(MatCRef<S> q, MatCRef<S> k, MatCRef<S> v, std::int64_t oldest) {
    attend_rows<E>(q, k, v, oldest, inv_sqrt_d_, a_, rs_.data(), out_);
  }

 private:
  std::int64_t n_, d_, seen_ = 0;
  S inv_sqrt_d_;
  Mat<S> q_, k_, v_, a_;
  std::vector<S> rs_;
  Mat<S> out_;
};

}  // namespace cosda
