// co_re for h heads in one object: every head's retroactive step (CoTrans Eqs. 2-6, per head,
// scores exp(q_i k_i^T / sqrt(dh)), dh = d / h; Eq. 9 without the projections). MultiHead
// (models/multi_head.hpp) steps this object instead of h CoRe objects in the plain build:
// one chain of seam ops per step instead of h, on rows of n tokens instead of dh features. The
// operations are exactly those of h CoRe heads (tests/heads_test.cpp), so counts and closed
// forms are h times one head's (attention/variants/co_re.cpp).
// Input: q, k, v of width d, head i's features at [i dh, (i+1) dh). Output n x d in window
// order, head i's at columns [i dh, (i+1) dh). State: the Q ring and AV as d x n (a token per
// column, head i's features rows [i dh, (i+1) dh)), the denominators h x n; the K and V rings
// in head panels for heads of at most ops::kSingleQueryMaxWidth features (ops/heads_attention.hpp:
// the newest row in one pass over the keys), otherwise d x n as Q.
#pragma once

#include <cmath>

#include "attention/attention.hpp"
#include "attention/ops/heads.hpp"
#include "attention/ops/heads_attention.hpp"
#include "attention/ops/seam.hpp"

namespace cosda {

template <class E>
class CoReHeads final : public Attention<E> {
 public:
  using S = typename E::Scalar;

  // c.d is the full width; heads must divide it.
  CoReHeads(const Config& c, std::int64_t heads)
      : n_(c.n),
        d_(c.d),
        h_(heads),
        dh_(head_width(c, heads)),
        panels_(dh_ <= ops::kSingleQueryMaxWidth),
        inv_sqrt_dh_(1.0 / std::sqrt(double(dh_))),
        q_(Mat<S>::Zero(d_, kernels::padded_cols<S>(n_))),
        k_(d_, n_),
        v_(d_, n_),
        av_(Mat<S>::Zero(d_, kernels::padded_cols<S>(n_))),
        den_(Mat<S>::Zero(h_, kernels::padded_cols<S>(n_))),
        inv_(Mat<S>::Zero(h_, kernels::padded_cols<S>(n_))),
        e_old_(Mat<S>::Zero(h_, kernels::padded_cols<S>(n_))),
        e_new_(Mat<S>::Zero(h_, kernels::padded_cols<S>(n_))),
        q_row_(1, d_),
        a_(h_, panels_ ? 0 : n_),
        sums_(1, h_),
        av_new_(1, d_),
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
    ops::heads_scale_rows_into<E>(av_, inv_, seen_ % n_, out_);  // Eq. 6
    return true;
  }
  MatCRef<S> output() const override { return out_; }

 private:
  bool store(std::int64_t j, const S* q, const S* k, const S* v) {
    ops::copy<E>(q, q + d_, q_row_.data());
    ops::scale<E>(q_row_.data(), d_, inv_sqrt_dh_);
    ops::copy_to_column<E>(q_row_.data(), q_, j);
    ops::heads_ring_enter<E>(panels_, h_, dh_, k, k_, j);
    ops::heads_ring_enter<E>(panels_, h_, dh_, v, v_, j);
    return false;
  }

  // Every head from scratch over the first window, as CoRe primes: den_i = exp(Q_i K_i^T) 1,
  // AV_i^T = V_i^T exp(Q_i K_i^T)^T.
  // Panels: K and V first back to d x n, once.
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
      ops::gemm_tn<E>(q_.block(i * dh_, 0, dh_, n_), k.middleRows(i * dh_, dh_), a);
      ops::exp_inplace<E>(a, shift_);
      ops::row_sums<E>(a, &den_(i, 0));
      ops::gemm_nt<E>(v.middleRows(i * dh_, dh_), a, av_.block(i * dh_, 0, dh_, n_));
    }
  }

  void update(std::int64_t j, const S* q, const S* k, const S* v) {
    // Every head's n-1 kept queries lose k_old and gain k_new, in d (Eq. 2) and AV (Eq. 4).
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
    // Every head's newest query gets a full row over the window (Eqs. 3, 5).
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
  bool panels_;  // the K and V rings in head panels (short heads)
  S inv_sqrt_dh_;
  // q_, av_, den_, inv_, e_old_ and e_new_ have their columns padded to whole packets
  // (heads_retro_update_cols, heads_scale_rows_into).
  Mat<S> q_, k_, v_, av_, den_, inv_, e_old_, e_new_, q_row_, a_, sums_, av_new_, k_old_, v_old_,
      work_, out_;
  ops::Shift<S> shift_;  // Config::exp_shift
};

}  // namespace cosda
