// ny_fix: Nyström SDA re-run over the window every step with fixed landmarks (Att_Ny^Fix,
// Nyström paper Sec. IV-B and Fig. 4): Gamma_phi^+ is computed once, at construction.
// Output n x d. State: the last n tokens of Q, K, V, the landmarks and Gamma_phi^+.
// Per step: O(ndm + nm^2).
#pragma once

#include "attention/families/nystrom.hpp"
#include "attention/families/window.hpp"

namespace cosda {

// Landmarks given in Config (raw, m x d): scaled queries, keys and Gamma_phi^+. Shared by the
// fixed-landmark variants; computed at construction, outside any step.
template <class E>
struct FixedLandmarks {
  using S = typename E::Scalar;
  Mat<S> qt, kt, g;

  explicit FixedLandmarks(const Config& c) : qt(c.m, c.d), kt(c.m, c.d), g(c.m, c.m) {
    require(c.m >= 1 && c.m <= c.n, "fixed landmarks: needs 1 <= m <= n");
    require(c.fixed_q.rows() == c.m && c.fixed_q.cols() == c.d && c.fixed_k.rows() == c.m &&
                c.fixed_k.cols() == c.d,
            "fixed landmarks: expected m x d landmark matrices");
    for (std::int64_t i = 0; i < c.m; ++i)
      for (std::int64_t j = 0; j < c.d; ++j) {
        qt(i, j) = S(c.fixed_q(i, j) / std::sqrt(double(c.d)));
        kt(i, j) = S(c.fixed_k(i, j));
      }
    Pinv<E> pinv(c.m, c.pinv_iterations, c.exact_pinv);
    Mat<S> gamma(c.m, c.m);
    std::vector<S> sums(static_cast<std::size_t>(c.m));
    landmark_kernel_pinv<E>(qt, kt, pinv, gamma, sums.data(), g, ops::shift_of<S>(c.exp_shift));
  }
};

// Its exact closed forms (attention/variants/ny_fix.cpp).
const exact::Forms& closed_forms_ny_fix();

template <class E>
class NyFix final : public Attention<E> {
 public:
  using S = typename E::Scalar;
  static constexpr VariantTraits kTraits{.id = "ny_fix",
                                         .paper_name = "Att_Ny^Fix",
                                         .family = Family::kNystrom,
                                         .single_output = false,
                                         .continual = false,
                                         .landmarks = LandmarkKind::kFixed,
                                         .style = {"#56b4e9", 9},
                                         .closed_forms = &closed_forms_ny_fix};

  explicit NyFix(const Config& c)
      : n_(c.n),
        d_(c.d),
        inv_sqrt_d_(1.0 / std::sqrt(double(c.d))),
        fixed_(c),
        core_(n_, d_, c.m, c.pinv_iterations, c.exact_pinv),
        q_(n_, d_),
        k_(n_, d_),
        v_(n_, d_),
        out_(n_, d_) {}

  bool step(const S* q, const S* k, const S* v) override {
    ring_row<E>(q_, q, seen_);  // Q, K, V in rings, no shifting: the queries are put in window
    ring_row<E>(k_, k, seen_);  // order as they are scaled (attend), and Nyström with fixed
    ring_row<E>(v_, v, seen_);  // landmarks is invariant under permuting keys and values together
    if (++seen_ < n_) return false;
    attend(q_, k_, v_, seen_ % n_);
    return true;
  }
  MatCRef<S> output() const override { return out_; }
  const Mat<S>* landmarks_q_scaled() const override { return &fixed_.qt; }
  const Mat<S>* landmarks_k() const override { return &fixed_.kt; }

  // output() = Att_Ny^Fix of a window (q raw): the step's body, also the second block of
  // two-block models.
  void attend_window(MatCRef<S> q, MatCRef<S> k, MatCRef<S> v) override { attend(q, k, v, 0); }
  // q holds the window's queries as a ring whose oldest row is `oldest`.
  void attend(MatCRef<S> q, MatCRef<S> k, MatCRef<S> v, std::int64_t oldest) {
    // out_ holds Q/sqrt(d), in window order, until the last product overwrites it.
    scale_in_window_order<E>(q, oldest, inv_sqrt_d_, out_);
    core_.attend(out_, k, v, fixed_.qt, fixed_.kt, &fixed_.g, out_);
  }

 private:
  std::int64_t n_, d_, seen_ = 0;
  S inv_sqrt_d_;
  FixedLandmarks<E> fixed_;
  NystromCore<E> core_;
  Mat<S> q_, k_, v_, out_;
};

}  // namespace cosda
