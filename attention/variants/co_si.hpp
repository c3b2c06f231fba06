// co_si: Continual Single-Output SDA, the newest query against the cached K and V rings: CoSiAtt =
// a V / (a 1^T), a = exp(q_new K^T / sqrt(d)) (CoTrans Eq. 7; Nyström Eq. 7). Output 1 x d. Per
// step: O(nd). Layouts: one head, by row or column (k_by_column_); heads of at most
// ops::kSingleQueryMaxWidth, head panels (scores within one op); wider heads d x n, one op chain.
#pragma once

#include <cmath>
#include <stdexcept>

#include "attention/attention.hpp"
#include "attention/families/window.hpp"
#include "attention/ops/heads.hpp"
#include "attention/ops/heads_attention.hpp"
#include "attention/ops/seam.hpp"
#include "attention/ops/single.hpp"

namespace cosda {

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

  explicit CoSi(const Config& c, std::int64_t heads = 1)
      : n_(c.n),
        d_(c.d),
        h_(heads),
        dh_(head_width(c, heads)),
        panels_(h_ > 1 && dh_ <= ops::kSingleQueryMaxWidth),
        k_by_column_(h_ > 1 || c.d < kShortRow ||
                     (c.n > c.d && sizeof(S) == sizeof(float) &&
                      c.n * c.d > kernels::kMatrixVectorMaxElements<S>)),
        v_by_column_(h_ > 1 || (c.n > c.d && c.d < kShortRow)),
        inv_sqrt_d_(1.0 / std::sqrt(double(dh_))),
        k_(k_by_column_ ? d_ : n_, k_by_column_ ? n_ : d_),
        v_(v_by_column_ ? d_ : n_, v_by_column_ ? n_ : d_),
        q_(1, panels_ ? 0 : d_),
        a_(panels_ ? 0 : h_, panels_ ? 0 : n_),
        sums_(1, h_ > 1 && !panels_ ? h_ : 0),
        out_(1, d_),
        work_(1, panels_ ? ops::heads_single_scratch<E>(dh_) : 0),
        shift_(ops::shift_of<S>(c.exp_shift)) {}

  bool step(const S* q, const S* k, const S* v) override {
    const std::int64_t slot = seen_ % n_;
    if (h_ == 1) {
      store(k, k_, k_by_column_, slot);
      store(v, v_, v_by_column_, slot);
    } else {
      ops::heads_ring_enter<E>(panels_, h_, dh_, k, k_, slot);
      ops::heads_ring_enter<E>(panels_, h_, dh_, v, v_, slot);
    }
    if (++seen_ < n_) return false;
    if (h_ == 1)
      run(q, k_, k_by_column_, v_, v_by_column_);
    else if (panels_)  // (CoTrans Eq. 7, per head)
      ops::heads_panels_single<E>(n_, dh_, h_, q, k_.data(), v_.data(), inv_sqrt_d_, shift_, out_,
                                  work_.data());
    else
      attend_head_major(q);
    return true;
  }
  MatCRef<S> output() const override { return out_; }

  // One head: output() = attention of q over k, v (n rows, any order): the step's body, also the
  // single-output second block of two-block models.
  void attend(const S* q, MatCRef<S> k, MatCRef<S> v) {
    if (h_ != 1) throw std::logic_error("co_si: attend takes one head");
    run(q, k, false, v, false);
  }

 private:
  // Token x into slot of a ring stored a token per row or (by_column) a token per column.
  void store(const S* x, Mat<S>& ring, bool by_column, std::int64_t slot) {
    if (by_column)
      ops::copy_to_column<E>(x, ring, slot);
    else
      ops::copy<E>(x, x + d_, &ring(slot, 0));
  }

  // One head; k, v n x d, or d x n by column (the same operations and counts).
  void run(const S* q, MatCRef<S> k, bool k_by_column, MatCRef<S> v, bool v_by_column) {
    ops::scale_into<E>(Eigen::Map<const Mat<S>>(q, 1, d_), inv_sqrt_d_, q_);
    const S sum = ops::exp_scores<E>(q_, k, k_by_column, a_, shift_);  // a = exp(q K^T / sqrt(d))
    ops::weighted_average<E>(a_, sum, v, v_by_column, out_);           // a V / (a 1^T)
  }

  // Wider heads, every head at once on the d x n rings.
  void attend_head_major(const S* q) {
    ops::copy<E>(q, q + d_, q_.data());
    ops::scale<E>(q_.data(), d_, inv_sqrt_d_);
    // a_i = exp(q_i K_i^T / sqrt(dh)), then a_i V_i / (a_i 1^T)   (CoTrans Eq. 7, per head)
    ops::heads_exp_scores<E>(q_, k_, a_, sums_.data(), shift_);
    ops::reciprocals<E>(sums_.data(), sums_.data(), h_);
    ops::heads_gemm_nt<E>(a_, v_, out_);
    Eigen::Map<Mat<S>> heads_out(out_.data(), h_, dh_);
    ops::scale_rows<E>(heads_out, sums_.data());
  }

  // Rows shorter than this (fewer features than a float packet of AVX-512) are short.
  static constexpr std::int64_t kShortRow = 16;

  std::int64_t n_, d_, h_, dh_, seen_ = 0;
  bool panels_;  // h > 1 heads of at most ops::kSingleQueryMaxWidth features: head panels
  // One head's rings. Short rows: K by column (no n short dot products ending in horizontal sums),
  // and with n > d V too (a V's loops along n). Else by row, but for float with n > d and K beyond
  // matrix_vector's 1 MiB (K by column: q K^T a sum of scaled rows); by column writes d cache lines
  // a step, more than it saves at n = d but for short rows (docs/performance.md).
  bool k_by_column_, v_by_column_;
  S inv_sqrt_d_;  // 1 / sqrt(dh)
  Mat<S> k_, v_, q_, a_, sums_, out_, work_;
  ops::Shift<S> shift_;  // Config::exp_shift
};

}  // namespace cosda
