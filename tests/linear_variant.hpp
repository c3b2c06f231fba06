// colin_si: continual single-output linear attention (Katharopoulos et al. 2020, "Transformers
// are RNNs", Eqs. 4-6 with phi(x) = elu(x) + 1), the worked example of
// docs/adding-a-variant.md. It is compiled only in tests (tests/linear_variant_test.cpp), not
// in the registry's list: a family of one continual variant, with no retroactive sibling and
// no variant that re-runs it over the window.
// Over the window of the last n tokens it keeps S = sum_j phi(k_j) v_j^T (d x d) and
// z = sum_j phi(k_j) (d); each step adds the newest token's terms and subtracts the leaving
// token's, which it keeps in rings of phi(k) and v (n x d each), and answers
// out = phi(q)^T S / (phi(q) . z). Per step: O(d^2), whatever n.
#pragma once

#include "attention/attention.hpp"
#include "attention/counting/closed_form.hpp"
#include "attention/ops/seam.hpp"

namespace cosda {

// Its exact forms, derived from the ops of step() (mul, add, div, exp, other per step;
// valley: S, z and the two rings) and held to execution by tests/linear_variant_test.cpp.
inline const exact::Forms& closed_forms_colin_si() {
  using exact::f;
  // phi twice: mul 2d, add d, exp d, other 2d each; slide: mul 2d^2, add 2d^2 + 2d;
  // phi(q) S: mul d^2, add d^2 - d; phi(q) . z: mul d, add d - 1; 1 / den: div 1; scale: mul d.
  static const exact::Forms forms{{f({{3, 0, 2}, {6, 0, 1}}), f({{3, 0, 2}, {4, 0, 1}, {-1}}),
                                   f({{1}}), f({{2, 0, 1}}), f({{4, 0, 1}})},
                                  std::nullopt,
                                  f({{1, 0, 2}, {1, 0, 1}, {2, 1, 1}}),
                                  {},
                                  {}};
  return forms;
}

template <class E>
class CoLinSi final : public Attention<E> {
 public:
  using S = typename E::Scalar;
  static constexpr VariantTraits kTraits{.id = "colin_si",
                                         .paper_name = "Att_CoLinSi",
                                         .family = Family::kLinear,
                                         .single_output = true,
                                         .continual = true,
                                         .landmarks = LandmarkKind::kNone,
                                         .style = {"#aa3377", 13},
                                         .closed_forms = &closed_forms_colin_si};

  // The rings start as zeros, so the first n steps subtract nothing and need no path of
  // their own.
  explicit CoLinSi(const Config& c)
      : n_(c.n),
        d_(c.d),
        sums_(zeros(d_, d_)),
        z_(zeros(1, d_)),
        phi_k_(zeros(n_, d_)),
        v_(zeros(n_, d_)),
        a_(1, d_),
        t_(1, d_),
        out_(1, d_) {}

  bool step(const S* q, const S* k, const S* v) override {
    const std::int64_t j = seen_ % n_;
    phi(k, a_.data());
    ops::slide_sums<E>(&phi_k_(j, 0), a_.data(), &v_(j, 0), v, z_.data(), sums_);
    ops::copy<E>(a_.data(), a_.data() + d_, &phi_k_(j, 0));
    ops::copy<E>(v, v + d_, &v_(j, 0));
    if (++seen_ < n_) return false;
    phi(q, a_.data());
    ops::gemm_nn<E>(a_, sums_, out_);  // phi(q)^T S, Eq. 5's numerator
    const S den = ops::dot<E>(a_.data(), z_.data(), d_);
    ops::scale<E>(out_.data(), d_, ops::reciprocal<E>(den));
    return true;
  }
  MatCRef<S> output() const override { return out_; }

 private:
  static Mat<S> zeros(std::int64_t r, std::int64_t c) {
    Mat<S> m(r, c);
    m.setConstant(S(0.0));
    return m;
  }

  // y = elu(x) + 1 = max(x, 0) + exp(min(x, 0)), through the seam: min(x, 0) as
  // -max(-x, 0).
  void phi(const S* x, S* y) {
    S* t = t_.data();
    ops::copy<E>(x, x + d_, y);
    ops::relu_inplace<E>(y, d_);
    ops::copy<E>(x, x + d_, t);
    ops::scale<E>(t, d_, S(-1.0));
    ops::relu_inplace<E>(t, d_);
    ops::scale<E>(t, d_, S(-1.0));
    ops::exp_inplace<E>(t, d_);
    ops::add<E>(t, y, d_);
  }

  std::int64_t n_, d_, seen_ = 0;
  Mat<S> sums_, z_, phi_k_, v_, a_, t_, out_;
};

}  // namespace cosda
