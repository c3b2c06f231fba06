// co_re: Continual Retroactive SDA for h >= 1 heads. Per step, every head's n-1 cached queries
// drop k_old and gain k_new, and the newest query gets a full row (CoTrans Eqs. 2-6; Nyström
// Eqs. 2-6 with rho(Psi, Omega) = exp(Psi Omega^T / sqrt(dh))):
//   d_i  <- d_i  - exp(q_i.k_old) + exp(q_i.k_new)              (Eq. 2)
//   AV_i <- AV_i - exp(q_i.k_old) v_old + exp(q_i.k_new) v_new   (Eq. 4)
//   d_new = exp(q_new K^T) 1,  AV_new = exp(q_new K^T) V         (Eqs. 3, 5)
//   out = d^-1 . AV                                              (Eq. 6)
// CoTrans Eqs. 2 and 4 omit 1/sqrt(d), which equality with Eq. 1 needs (analysis/corrections.md);
// queries are stored pre-scaled. Output n x d in window order. State: Q, K, V rings, AV and d per
// query. Per step: O(nd). Layouts: one head, a token per row (per column for short rows, see
// kShortRow); h > 1, Q and AV d x n and the denominators h x n, so each op runs all heads on rows
// of n tokens, K and V in head panels for short heads (ops/heads_attention.hpp), else d x n.
#pragma once

#include <cmath>

#include "attention/attention.hpp"
#include "attention/families/window.hpp"
#include "attention/ops/heads.hpp"
#include "attention/ops/heads_attention.hpp"
#include "attention/ops/seam.hpp"

namespace cosda {

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

  explicit CoRe(const Config& c, std::int64_t heads = 1)
      : n_(c.n),
        d_(c.d),
        h_(heads),
        dh_(head_width(c, heads)),
        transposed_(h_ > 1 || (c.n > c.d && c.d < kShortRow)),
        panels_(h_ > 1 && dh_ <= ops::kSingleQueryMaxWidth),
        inv_sqrt_dh_(1.0 / std::sqrt(double(dh_))),
        q_(Mat<S>::Zero(transposed_ ? d_ : n_, transposed_ ? cols(n_) : d_)),
        k_(q_.rows(), transposed_ ? n_ : d_),
        v_(k_.rows(), k_.cols()),
        av_(Mat<S>::Zero(q_.rows(), q_.cols())),
        den_(Mat<S>::Zero(h_, cols(n_))),
        inv_(Mat<S>::Zero(h_, cols(n_))),
        e_old_(Mat<S>::Zero(h_, cols(n_))),
        e_new_(Mat<S>::Zero(h_, cols(n_))),
        q_row_(1, h_ > 1 ? d_ : 0),
        a_(h_ > 1 ? h_ : 0, h_ > 1 && !panels_ ? n_ : 0),
        sums_(1, h_ > 1 ? h_ : 0),
        av_new_(1, h_ > 1 ? d_ : 0),
        k_old_(d_, panels_ ? 1 : 0),
        v_old_(d_, panels_ ? 1 : 0),
        work_(1, panels_ ? ops::heads_single_scratch<E>(dh_) : 0),
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
    for (std::int64_t i = 0; i < h_; ++i) ops::reciprocals<E>(&den_(i, 0), &inv_(i, 0), n_);
    if (h_ > 1) {
      ops::heads_scale_rows_into<E>(av_, inv_, seen_ % n_, out_);  // Eq. 6
      return true;
    }
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
  // Columns of a d x n buffer of h > 1 heads, padded to whole packets.
  std::int64_t cols(std::int64_t n) const { return h_ > 1 ? kernels::padded_cols<S>(n) : n; }

  // Token j of one head's Q, K, V rings: row j, or column j when they are stored transposed.
  MatCRef<S> token(const Mat<S>& ring, std::int64_t j) const {
    return transposed_ ? MatCRef<S>(ring.middleCols(j, 1)) : MatCRef<S>(ring.middleRows(j, 1));
  }

  bool store(std::int64_t j, const S* q, const S* k, const S* v) {
    if (h_ > 1) {
      ops::copy<E>(q, q + d_, q_row_.data());
      ops::scale<E>(q_row_.data(), d_, inv_sqrt_dh_);
      ops::copy_to_column<E>(q_row_.data(), q_, j);
      ops::heads_ring_enter<E>(panels_, h_, dh_, k, k_, j);
      ops::heads_ring_enter<E>(panels_, h_, dh_, v, v_, j);
    } else if (transposed_) {
      ops::copy_to_column<E>(q, q_, j);
      ops::scale<E>(q_.middleCols(j, 1), inv_sqrt_dh_);
      ops::copy_to_column<E>(k, k_, j);
      ops::copy_to_column<E>(v, v_, j);
    } else {
      ops::copy<E>(q, q + d_, &q_(j, 0));
      ops::scale<E>(&q_(j, 0), d_, inv_sqrt_dh_);
      ops::copy<E>(k, k + d_, &k_(j, 0));
      ops::copy<E>(v, v + d_, &v_(j, 0));
    }
    return false;
  }

  // Every head afresh over the first window: den_i = exp(Q_i K_i^T) 1, AV_i = exp(Q_i K_i^T) V_i
  // (transposed: AV_i^T = V_i^T exp(Q_i K_i^T)^T). Panels: K and V first back to d x n, once.
  void prime() {
    Mat<S> a(n_, n_), kt(panels_ ? d_ : 0, n_), vt(panels_ ? d_ : 0, n_), x(1, panels_ ? d_ : 0);
    for (std::int64_t t = 0; panels_ && t < n_; ++t) {
      ops::heads_panels_leave<E>(h_, dh_, n_, k_.data(), t, x.data());
      ops::copy_to_column<E>(x.data(), kt, t);
      ops::heads_panels_leave<E>(h_, dh_, n_, v_.data(), t, x.data());
      ops::copy_to_column<E>(x.data(), vt, t);
    }
    const Mat<S>&k = panels_ ? kt : k_, &v = panels_ ? vt : v_;
    for (std::int64_t i = 0; i < h_; ++i) {
      const std::int64_t f = i * dh_;
      if (transposed_)
        ops::gemm_tn<E>(q_.block(f, 0, dh_, n_), k.middleRows(f, dh_), a);
      else
        ops::gemm_nt<E>(q_, k, a);
      ops::exp_inplace<E>(a, shift_);
      ops::row_sums<E>(a, &den_(i, 0));
      if (transposed_)
        ops::gemm_nt<E>(v.middleRows(f, dh_), a, av_.block(f, 0, dh_, n_));
      else
        ops::gemm_nn<E>(a, v, av_);
    }
  }

  void update(std::int64_t j, const S* q, const S* k, const S* v) {
    if (h_ > 1) return update_heads(j, q, k, v);
    // exp(k_old Q_mem^T / sqrt(d)) and exp(k_new Q_mem^T / sqrt(d)) for the n-1 kept queries,
    // into d (Eq. 2) and AV (Eq. 4).
    const auto rows = [&](std::int64_t first, std::int64_t count) {
      if (transposed_)
        ops::retro_update_cols<E>(
            q_.middleCols(first, count), token(k_, j), Eigen::Map<const Mat<S>>(k, d_, 1),
            token(v_, j), Eigen::Map<const Mat<S>>(v, d_, 1), &e_old_(0, first), &e_new_(0, first),
            &den_(0, first), av_.middleCols(first, count), shift_);
      else
        ops::retro_update<E>(q_.middleRows(first, count), &k_(j, 0), k, &v_(j, 0), v,
                             &e_old_(0, first), &e_new_(0, first), &den_(0, first),
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
    ops::store<E>(ops::sum<E>(e_old_.data(), n_), &den_(0, j));
    if (transposed_)
      ops::gemm_nt<E>(v_, e_old_, av_.middleCols(j, 1));
    else
      ops::gemm_nn<E>(e_old_, v_, av_.middleRows(j, 1));
  }

  // h > 1: every head's n-1 kept queries lose k_old and gain k_new, in d (Eq. 2) and AV
  // (Eq. 4), then every head's newest query gets a full row over the window (Eqs. 3, 5).
  void update_heads(std::int64_t j, const S* q, const S* k, const S* v) {
    const Eigen::Map<const Mat<S>> k_new(k, d_, 1), v_new(v, d_, 1);
    if (panels_) {
      ops::heads_panels_leave<E>(h_, dh_, n_, k_.data(), j, k_old_.data());
      ops::heads_panels_leave<E>(h_, dh_, n_, v_.data(), j, v_old_.data());
    }
    const MatCRef<S> k_old = panels_ ? MatCRef<S>(k_old_) : MatCRef<S>(k_.middleCols(j, 1));
    const MatCRef<S> v_old = panels_ ? MatCRef<S>(v_old_) : MatCRef<S>(v_.middleCols(j, 1));
    ops::heads_retro_update_cols<E>(n_, j, q_, k_old, k_new, v_old, v_new, e_old_, e_new_, den_,
                                    av_, shift_);
    store(j, q, k, v);
    if (panels_) {
      ops::heads_panels_row<E>(n_, dh_, h_, q_row_.data(), k_.data(), v_.data(), shift_, av_new_,
                               sums_.data(), work_.data());
    } else {
      ops::heads_exp_scores<E>(q_row_, k_, a_, sums_.data(), shift_);
      ops::heads_gemm_nt<E>(a_, v_, av_new_);
    }
    ops::copy_to_column<E>(sums_.data(), den_, j);
    ops::copy_to_column<E>(av_new_.data(), av_, j);
  }

  std::int64_t n_, d_, h_, dh_, seen_ = 0;
  // One head: rows shorter than kShortRow make each dot product mostly a horizontal sum, so with
  // n > d the rings and AV hold a token per column; longer rows would pay for a transposed output.
  static constexpr std::int64_t kShortRow = 16;
  // Elements of a 64-byte line: e_old_ and e_new_ start on one (Eigen's allocator).
  static constexpr std::int64_t kLine = 64 / std::int64_t(sizeof(S));
  bool transposed_;  // a token per column (h > 1, or one head's short rows)
  bool panels_;      // h > 1: the K and V rings in head panels (short heads)
  S inv_sqrt_dh_;
  Mat<S> q_, k_, v_, av_, den_, inv_, e_old_, e_new_;
  Mat<S> q_row_, a_, sums_, av_new_, k_old_, v_old_, work_;  // h > 1
  Mat<S> out_;
  ops::Shift<S> shift_;  // Config::exp_shift
};

}  // namespace cosda
