// co_re: Continual Retroactive SDA. Per step, the n-1 cached queries drop k_old and gain
// k_new, and the newest query gets a full row (CoTrans Eqs. 2-6; Nyström Eqs. 2-6 with
// rho(Psi, Omega) = exp(Psi Omega^T / sqrt(d))):
//   d_i  <- d_i  - exp(q_i.k_old) + exp(q_i.k_new)              (Eq. 2)
//   AV_i <- AV_i - exp(q_i.k_old) v_old + exp(q_i.k_new) v_new   (Eq. 4)
//   d_new = exp(q_new K^T) 1,  AV_new = exp(q_new K^T) V         (Eqs. 3, 5)
//   out = d^-1 . AV                                              (Eq. 6)
// CoTrans Eqs. 2 and 4 print exp(Q_mem k^T) without 1/sqrt(d); the scaling is required for
// equality with Eq. 1 (see analysis/corrections.md). Queries are stored pre-scaled.
// Output n x d. State: Q, K, V rings, AV and d per query. Per step: O(nd).
#pragma once

#include "attention/attention.hpp"
#include "attention/families/window.hpp"
#include "attention/ops/seam.hpp"

namespace cosda {

// Its exact closed forms (attention/variants/co_re.cpp).
const exact::Forms& closed_forms_co_re();

template <class E>
class CoRe final : public Attention<E> {
 public:
  using S = typename E::Scalar;
  static constexpr VariantTraits kTraits{.id = "co_re",
                                         .paper_name = "Att_CoRe",
                                         .family = Family::kSoftmax,
                                         .single_output = false,
                                         .continual = true,
                                         .landmarks = LandmarkKind::kNone,
                                         .style = {"#0072b2", 13},
                                         .closed_forms = &closed_forms_co_re};

  explicit CoRe(const Config& c)
      : n_(c.n),
        d_(c.d),
        inv_sqrt_d_(1.0 / std::sqrt(double(c.d))),
        transposed_(c.n > c.d && c.d < kShortRow),
        q_(transposed_ ? d_ : n_, transposed_ ? n_ : d_),
        k_(q_.rows(), q_.cols()),
        v_(q_.rows(), q_.cols()),
        av_(q_.rows(), q_.cols()),
        den_(n_),
        inv_(n_),
        e_old_(1, n_),
        e_new_(1, n_),
        out_(n_, d_),
        shift_(ops::shift_of<S>(c.exp_shift)) {}

  bool step(const S* q, const S* k, const S* v) override {
    const std::int64_t j = seen_ % n_;  // ring slot of the token leaving (and arriving)
    if (++seen_ < n_) return store(j, q, k, v);
    if (seen_ == n_) {
      store(j, q, k, v);
      prime();
    } else {
      update(j, q, k, v);
    }
    ops::reciprocals<E>(den_.data(), inv_.data(), n_);
    for_ring_in_window_order(
        n_, seen_ % n_, [&](std::int64_t first, std::int64_t n, std::int64_t row) {
          ops::split_pass<E>(n, n * d_, [&](std::int64_t lo, std::int64_t count) {
            const MatCRef<S> av = transposed_ ? MatCRef<S>(av_.middleCols(first + lo, count))
                                              : MatCRef<S>(av_.middleRows(first + lo, count));
            ops::scale_rows_into<E>(av, inv_.data() + first + lo, out_.middleRows(row + lo, count),
                                    transposed_);  // Eq. 6
          });
        });
    return true;
  }
  MatCRef<S> output() const override { return out_; }

 private:
  // Token j of the Q, K, V rings: row j, or column j when they are stored transposed.
  MatCRef<S> token(const Mat<S>& ring, std::int64_t j) const {
    return transposed_ ? MatCRef<S>(ring.middleCols(j, 1)) : MatCRef<S>(ring.middleRows(j, 1));
  }

  bool store(std::int64_t j, const S* q, const S* k, const S* v) {
    if (transposed_) {
      ops::copy_to_column<E>(q, q_, j);
      ops::scale<E>(q_.middleCols(j, 1), inv_sqrt_d_);
      ops::copy_to_column<E>(k, k_, j);
      ops::copy_to_column<E>(v, v_, j);
    } else {
      ops::copy<E>(q, q + d_, &q_(j, 0));
      ops::scale<E>(&q_(j, 0), d_, inv_sqrt_d_);
      ops::copy<E>(k, k + d_, &k_(j, 0));
      ops::copy<E>(v, v + d_, &v_(j, 0));
    }
    return false;
  }

  // From scratch over the first window: den = exp(QK^T) 1, AV = exp(QK^T) V (transposed:
  // AV^T = V^T exp(QK^T)^T).
  void prime() {
    Mat<S> a(n_, n_);
    if (transposed_)
      ops::gemm_tn<E>(q_, k_, a);
    else
      ops::gemm_nt<E>(q_, k_, a);
    ops::exp_inplace<E>(a, shift_);
    ops::row_sums<E>(a, den_.data());
    if (transposed_)
      ops::gemm_nt<E>(v_, a, av_);
    else
      ops::gemm_nn<E>(a, v_, av_);
  }

  void update(std::int64_t j, const S* q, const S* k, const S* v) {
    // exp(k_old Q_mem^T / sqrt(d)) and exp(k_new Q_mem^T / sqrt(d)) for the n-1 kept queries,
    // into d (Eq. 2) and AV (Eq. 4).
    const auto rows = [&](std::int64_t first, std::int64_t count) {
      if (transposed_)
        ops::retro_update_cols<E>(
            q_.middleCols(first, count), token(k_, j), Eigen::Map<const Mat<S>>(k, d_, 1),
            token(v_, j), Eigen::Map<const Mat<S>>(v, d_, 1), &e_old_(0, first), &e_new_(0, first),
            &den_[first], av_.middleCols(first, count), shift_);
      else
        ops::retro_update<E>(q_.middleRows(first, count), &k_(j, 0), k, &v_(j, 0), v,
                             &e_old_(0, first), &e_new_(0, first), &den_[first],
                             av_.middleRows(first, count), shift_);
    };
    // Rows split among the threads in the timed build (ops::split_pass), parts starting on a
    // cache line of e_old_ and e_new_ (kLine rows), where the vectorized exponentials of the
    // unsplit rows also start a packet: the same bits. Rows by column (short rows) never split.
    for_rows_except(n_, j, [&](std::int64_t first, std::int64_t n) {
      ops::split_pass<E>(
          n, transposed_ ? 0 : 2 * n * d_,
          [&](std::int64_t lo, std::int64_t count) { rows(first + lo, count); }, kLine, first);
    });
    store(j, q, k, v);
    // The newest query gets a full row over the window (Eqs. 3, 5); e_old_ holds it.
    if (transposed_)
      ops::gemm_tn<E>(token(q_, j), k_, e_old_);
    else
      ops::gemm_nt<E>(token(q_, j), k_, e_old_);
    ops::exp_inplace<E>(e_old_.data(), n_, shift_);
    ops::store<E>(ops::sum<E>(e_old_.data(), n_), &den_[j]);
    if (transposed_)
      ops::gemm_nt<E>(v_, e_old_, av_.middleCols(j, 1));
    else
      ops::gemm_nn<E>(e_old_, v_, av_.middleRows(j, 1));
  }

  std::int64_t n_, d_, seen_ = 0;
  S inv_sqrt_d_;
  // The layout. Rows shorter than kShortRow features make every dot product mostly a
  // horizontal sum; then, with n > d, the rings and AV are stored a token per column so the
  // loops run along the window. Longer rows keep rows: the n x d output would then need a
  // transposed copy that costs more than it saves. Timings: docs/performance.md.
  static constexpr std::int64_t kShortRow = 16;
  // Elements of a 64-byte line: e_old_ and e_new_ start on one (Eigen's allocator).
  static constexpr std::int64_t kLine = 64 / std::int64_t(sizeof(S));
  bool transposed_;
  Mat<S> q_, k_, v_, av_;
  std::vector<S> den_, inv_;
  Mat<S> e_old_, e_new_, out_;
  ops::Shift<S> shift_;  // Config::exp_shift
};

}  // namespace cosda
