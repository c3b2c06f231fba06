// co_si: Continual Single-Output SDA, the newest query against the cached window.
// CoSiAtt = a V / (a 1^T), a = exp(q_new K^T / sqrt(d))  (CoTrans Eq. 7; Nyström Eq. 7).
// Output 1 x d. State: K and V rings of n tokens. Per step: O(nd).
#pragma once

#include "attention/attention.hpp"
#include "attention/families/window.hpp"
#include "attention/ops/seam.hpp"
#include "attention/ops/single.hpp"

namespace cosda {

// Its exact closed forms (attention/variants/co_si.cpp).
const exact::Forms& closed_forms_co_si();

template <class E>
class CoSi final : public Attention<E> {
 public:
  using S = typename E::Scalar;
  static constexpr VariantTraits kTraits{.id = "co_si",
                                         .paper_name = "Att_CoSi",
                                         .family = Family::kSoftmax,
                                         .single_output = true,
                                         .continual = true,
                                         .landmarks = LandmarkKind::kNone,
                                         .style = {"#009e73", 11},
                                         .closed_forms = &closed_forms_co_si};

  explicit CoSi(const Config& c)
      : n_(c.n),
        d_(c.d),
        k_by_column_(c.d < kShortRow || (c.n > c.d && sizeof(S) == sizeof(float) &&
                                         c.n * c.d > kernels::kMatrixVectorMaxElements<S>)),
        v_by_column_(c.n > c.d && c.d < kShortRow),
        inv_sqrt_d_(1.0 / std::sqrt(double(c.d))),
        k_(k_by_column_ ? d_ : n_, k_by_column_ ? n_ : d_),
        v_(v_by_column_ ? d_ : n_, v_by_column_ ? n_ : d_),
        q_(1, d_),
        a_(1, n_),
        out_(1, d_),
        shift_(ops::shift_of<S>(c.exp_shift)) {}

  bool step(const S* q, const S* k, const S* v) override {
    const std::int64_t slot = seen_ % n_;
    store(k, k_, k_by_column_, slot);
    store(v, v_, v_by_column_, slot);
    if (++seen_ < n_) return false;
    run(q, k_, k_by_column_, v_, v_by_column_);
    return true;
  }
  MatCRef<S> output() const override { return out_; }

  // output() = attention of query q over keys k and values v (n rows, any order): the step's
  // body, also the single-output second block of two-block models.
  void attend(const S* q, MatCRef<S> k, MatCRef<S> v) { run(q, k, false, v, false); }

 private:
  // Token x into slot of a ring stored a token per row or (by_column) a token per column.
  void store(const S* x, Mat<S>& ring, bool by_column, std::int64_t slot) {
    if (by_column)
      ops::copy_to_column<E>(x, ring, slot);
    else
      ops::copy<E>(x, x + d_, &ring(slot, 0));
  }

  // k and v are n x d, or d x n when stored by column: the same operations and counts either
  // way.
  void run(const S* q, MatCRef<S> k, bool k_by_column, MatCRef<S> v, bool v_by_column) {
    ops::scale_into<E>(Eigen::Map<const Mat<S>>(q, 1, d_), inv_sqrt_d_, q_);
    const S sum = ops::exp_scores<E>(q_, k, k_by_column, a_, shift_);  // a = exp(q K^T / sqrt(d))
    ops::weighted_average<E>(a_, sum, v, v_by_column, out_);           // a V / (a 1^T)
  }

  // Rows shorter than this (fewer features than a float packet of AVX-512) are short.
  static constexpr std::int64_t kShortRow = 16;

  std::int64_t n_, d_, seen_ = 0;
  // The rings' layout. Short rows: K stored a token per column, so that no step ends n dot
  // products of a dozen features in horizontal sums, and with n > d V too, so that a V's loops
  // run along the longer side (n); at n <= d V stays a token per row (a V a sum of n scaled
  // rows). Otherwise V is stored a token per row, and so is K (q K^T n dot products, each
  // packet of scores exponentiated as it is formed), as the plain-Eigen ring stores both,
  // except in float with n > d and K beyond matrix_vector's 1 MiB, where K stored a token per
  // column makes q K^T a sum of scaled rows too. Storing a token per column writes d cache
  // lines a row apart every step, which at n = d cost more than the layout saved, except for
  // short rows, whose whole ring fits in a few lines. Timings: docs/performance.md.
  bool k_by_column_, v_by_column_;
  S inv_sqrt_d_;
  Mat<S> k_, v_, q_, a_, out_;
  ops::Shift<S> shift_;  // Config::exp_shift
};

}  // namespace cosda
