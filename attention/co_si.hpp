// co_si: Continual Single-Output SDA, the newest query against the cached window.
// CoSiAtt = a V / (a 1^T), a = exp(q_new K^T / sqrt(d))  (CoTrans Eq. 7; Nyström Eq. 7).
// Output 1 x d. State: K and V rings of n tokens. Per step: O(nd).
#pragma once

#include "attention/attention.hpp"
#include "attention/ops.hpp"
#include "attention/window.hpp"

namespace cosda {

template <class E>
class CoSi final : public Attention<E> {
 public:
  using S = typename E::Scalar;
  static constexpr VariantTraits kTraits{"co_si", "Att_CoSi",          true,
                                         true,    LandmarkKind::kNone, "co_re"};

  explicit CoSi(const Config& c)
      : n_(c.n),
        d_(c.d),
        inv_sqrt_d_(1.0 / std::sqrt(double(c.d))),
        k_(n_, d_),
        v_(n_, d_),
        q_(1, d_),
        a_(1, n_),
        out_(1, d_),
        shift_(ops::shift_of<S>(c.exp_shift)) {
    this->ledger_.hold(2 * n_ * d_);
  }

  bool step(const S* q, const S* k, const S* v) override {
    const std::int64_t slot = seen_ % n_;
    ops::copy<E>(k, k + d_, &k_(slot, 0));
    ops::copy<E>(v, v + d_, &v_(slot, 0));
    if (++seen_ < n_) return false;
    attend(q, k_, v_);
    return true;
  }
  MatCRef<S> output() const override { return out_; }

  // output() = attention of query q over keys k and values v (n rows, any order): the step's
  // body, also the single-output second block of two-block models.
  void attend(const S* q, MatCRef<S> k, MatCRef<S> v) {
    Live live(this->ledger_, 2 * d_ + n_);
    ops::copy<E>(q, q + d_, q_.data());
    ops::scale<E>(q_.data(), d_, inv_sqrt_d_);
    ops::gemm_nt<E>(q_, k, a_);  // a = exp(q K^T / sqrt(d))
    ops::exp_inplace<E>(a_.data(), n_, shift_);
    const S inv = ops::reciprocal<E>(ops::sum<E>(a_.data(), n_));
    ops::gemm_nn<E>(a_, v, out_);  // a V
    ops::scale<E>(out_.data(), d_, inv);
  }

 private:
  using Live = cosda::Live<typename E::Ledger>;
  std::int64_t n_, d_, seen_ = 0;
  S inv_sqrt_d_;
  Mat<S> k_, v_, q_, a_, out_;
  ops::Shift<S> shift_;  // Config::exp_shift
};

}  // namespace cosda
