// ny: Nyströmformer SDA re-run over the window every step, landmarks the segment means of the
// current window's Q and K (Nyström paper Eq. 8; Sec. IV-C for n mod m != 0).
// Output n x d. State: the last n tokens of Q, K, V. Per step: O(ndm + nm^2 + m^3).
#pragma once

#include "attention/families/landmarks.hpp"
#include "attention/families/nystrom.hpp"
#include "attention/families/window.hpp"

namespace cosda {

// Its exact closed forms (attention/variants/ny.cpp).
const exact::Forms& closed_forms_ny();

template <class E>
class Ny final : public Attention<E> {
 public:
  using S = typename E::Scalar;
  static constexpr VariantTraits kTraits{.id = "ny",
                                         .paper_name = "Att_Ny",
                                         .family = Family::kNystrom,
                                         .single_output = false,
                                         .continual = false,
                                         .landmarks = LandmarkKind::kSegmentMeans,
                                         .style = {"#e69f00", 7},
                                         .closed_forms = &closed_forms_ny};

  explicit Ny(const Config& c)
      : n_(c.n),
        d_(c.d),
        m_(c.m),
        inv_sqrt_d_(1.0 / std::sqrt(double(c.d))),
        sizes_(segment_sizes(n_, m_)),
        core_(n_, d_, m_, c.pinv_iterations, c.exact_pinv),
        q_(n_, d_),
        k_(n_, d_),
        v_(n_, d_),
        qt_(m_, d_),
        kt_(m_, d_),
        out_(n_, d_) {
    require(m_ >= 1 && m_ <= n_, "ny: needs 1 <= m <= n");
  }

  bool step(const S* q, const S* k, const S* v) override {
    // Q, K, V in rings, no shifting (attend): the queries are put in window order as they are
    // scaled, the keys' segment means start at the oldest slot, and the rest is invariant
    // under permuting keys and values together.
    ring_row<E>(q_, q, seen_);
    ring_row<E>(k_, k, seen_);
    ring_row<E>(v_, v, seen_);
    if (++seen_ < n_) return false;
    attend(q_, k_, v_, seen_ % n_);
    return true;
  }
  MatCRef<S> output() const override { return out_; }
  const Mat<S>* landmarks_q_scaled() const override { return &qt_; }
  const Mat<S>* landmarks_k() const override { return &kt_; }

  // output() = Att_Ny of a window (q raw) with segment-means landmarks: the step's body, also
  // the second block of two-block models.
  void attend_window(MatCRef<S> q, MatCRef<S> k, MatCRef<S> v) override { attend(q, k, v, 0); }
  // q, k, v hold the window as rings whose oldest row is `oldest`.
  void attend(MatCRef<S> q, MatCRef<S> k, MatCRef<S> v, std::int64_t oldest) {
    // out_ holds Q/sqrt(d), in window order, until the last product overwrites it.
    scale_in_window_order<E>(q, oldest, inv_sqrt_d_, out_);
    // Segment-means landmarks, split among the threads in the timed build (ops::split_pass).
    ops::split_pass<E>(m_, 2 * n_ * d_, [&](std::int64_t lo, std::int64_t count) {
      for (std::int64_t i = lo; i < lo + count; ++i) {
        const std::int64_t first = i * (n_ / m_) + std::min(i, n_ % m_);  // segment_sizes'
        segment_mean<E>(out_, first, sizes_[i], &qt_(i, 0));
        segment_mean<E>(k, oldest + first, sizes_[i], &kt_(i, 0));
      }
    });
    core_.attend(out_, k, v, qt_, kt_, nullptr, out_);
  }

  // Att_Ny of a window (q raw) with given landmarks: the reference for the continual variants.
  void attend_with(MatCRef<S> q, MatCRef<S> k, MatCRef<S> v, MatCRef<S> qt_scaled, MatCRef<S> kt,
                   Mat<S>& out) {
    out.resize(q.rows(), q.cols());
    ops::copy<E>(q, out);
    ops::scale<E>(out, inv_sqrt_d_);
    core_.attend(out, k, v, qt_scaled, kt, nullptr, out);
  }

 private:
  std::int64_t n_, d_, m_, seen_ = 0;
  S inv_sqrt_d_;
  std::vector<std::int64_t> sizes_;
  NystromCore<E> core_;
  Mat<S> q_, k_, v_, qt_, kt_, out_;
};

}  // namespace cosda
