// The stream-processor interface of every variant: one token per step, q, k, v rows of width d,
// numbered t = 0, 1, ... from the start of the stream.
// Warm-up: for t < n-1 step() only stores the token and returns false; at t = n-1 the variant
// primes its state from the full window (never counted as a steady-state step) and returns true.
// Steady state is t >= n; step costs, memory and equivalences are stated for it.
// Output: 1 x d for single-output variants (the newest query), else n x d, a row per query,
// oldest first. It equals s(QK^T/sqrt(d))V of the current window (or its Nyström approximation or
// random-feature estimate), without max-subtraction, as in the papers.
// Heads: a class built with h heads (COSDA_BATCHED) takes the full width d, which h divides; head i
// is columns [i dh, (i+1) dh) of q, k, v and the output, as CoTrans Eq. 9 without the projections.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "attention/exec.hpp"

namespace cosda {

namespace exact {
struct Forms;  // attention/counting/closed_form.hpp
}

// What the rank coordinate m is (ignored for kNone): Nyström landmarks (segment means of the
// window, continual segment means, or a fixed set) or the number of random features.
enum class LandmarkKind { kNone, kSegmentMeans, kContinual, kFixed, kRandomFeatures };

// The approximation: exact softmax, Nyström low-rank, Performer (FAVOR+) random features, or
// linear attention with a fixed feature map (Katharopoulos et al. 2020; not in the registry, the
// worked example of docs/adding-a-variant.md).
enum class Family { kSoftmax, kNystrom, kRandomFeatures, kLinear };

// The names `cosda variants` and the Python module's variants() print.
constexpr std::string_view landmarks_name(LandmarkKind k) {
  switch (k) {
    case LandmarkKind::kSegmentMeans:
      return "segment_means";
    case LandmarkKind::kContinual:
      return "continual";
    case LandmarkKind::kFixed:
      return "fixed";
    case LandmarkKind::kRandomFeatures:
      return "random_features";
    case LandmarkKind::kNone:
      break;
  }
  return "none";
}
constexpr std::string_view family_name(Family f) {
  switch (f) {
    case Family::kNystrom:
      return "nystrom";
    case Family::kRandomFeatures:
      return "random_features";
    case Family::kLinear:
      return "linear";
    case Family::kSoftmax:
      break;
  }
  return "softmax";
}

// How a variant is drawn in every figure: a gnuplot colour and point type.
struct PlotStyle {
  std::string_view colour;
  int point = 0;
};

// Everything cosda knows about a variant, its kernel's `kTraits`; attention/registry.hpp derives
// the rest (two-block model, siblings) from these facts, never from ids.
struct VariantTraits {
  std::string_view id;          // the token used everywhere: files, registry, CLI, results
  std::string_view paper_name;  // as the Nyström paper writes it
  Family family = Family::kSoftmax;
  bool single_output = false;  // 1 x d output per step (else n x d)
  bool continual = false;      // reuses the previous step's results
  LandmarkKind landmarks = LandmarkKind::kNone;
  PlotStyle style;
  // Its exact closed forms: operations per step, valley and peak (attention/variants/<id>.cpp).
  const exact::Forms& (*closed_forms)() = nullptr;
};

struct Config {
  std::int64_t n = 0;  // window length
  std::int64_t d = 0;  // features per head
  std::int64_t m = 0;  // landmarks (Nyström variants) or random features; ignored by the others
  int pinv_iterations = 6;
  bool exact_pinv = false;  // Eigen pseudo-inverse instead of the iteration (plain scalars only)
  // Fixed landmarks, m x d each (*_fix); self-attention passes one set twice (Nyström Sec. IV-B).
  Mat<double> fixed_q{}, fixed_k{};
  // Stabilised mode (continual variants only): every exponential is exp(s - C), C cancelling in
  // each softmax ratio and moving the overflow threshold by C; one counted subtraction each.
  // C from a calibration stream (analysis/numerics.hpp calibrate_shift). Unset: exp(s).
  std::optional<double> exp_shift{};
  // Random features are a function of (d, m, feature_seed), drawn at construction.
  std::uint64_t feature_seed = 0x5eed;
};

template <class E>
class Attention {
 public:
  using Scalar = typename E::Scalar;

  virtual ~Attention() = default;

  // Feeds the next token (d values each); true once the window is full and output() is this step's.
  virtual bool step(const Scalar* q, const Scalar* k, const Scalar* v) = 0;
  virtual MatCRef<Scalar> output() const = 0;

  // Whether the last step computed a new landmark (continual-landmark variants only).
  virtual bool updated_landmarks() const { return false; }
  // The landmarks the last output used, queries scaled by 1/sqrt(d), keys as held: fixed ones
  // scaled too (FixedLandmarks), continual ones raw (Nyström variants; else null).
  virtual const Mat<Scalar>* landmarks_q_scaled() const { return nullptr; }
  virtual const Mat<Scalar>* landmarks_k() const { return nullptr; }

  // An object that shares its heads out among the OpenMP threads: step_split is step with each
  // thread computing a range of heads, the same bits (MultiHead times one against the other).
  virtual bool splits_heads() const { return false; }
  virtual bool step_split(const Scalar* q, const Scalar* k, const Scalar* v) {
    return step(q, k, v);
  }

  // Re-running variants: output() from a given window of n tokens (two-block models' second block).
  virtual void attend_window(MatCRef<Scalar>, MatCRef<Scalar>, MatCRef<Scalar>) {
    throw std::logic_error("this variant does not recompute over a given window");
  }
};

inline void require(bool ok, const std::string& what) {
  if (!ok) throw std::invalid_argument(what);
}

// The width of one of h heads side by side in c.d features (MultiHead, head-batched kernels).
inline std::int64_t head_width(const Config& c, std::int64_t heads) {
  require(heads >= 1 && c.d % heads == 0, "heads must divide d");
  return c.d / heads;
}

// The Config of head i of h side by side: width d / h, and its columns of any fixed landmarks.
inline Config head_config(const Config& c, std::int64_t heads, std::int64_t i) {
  const std::int64_t dh = head_width(c, heads);
  Config hc = c;
  hc.d = dh;
  if (c.fixed_q.size() > 0) {
    hc.fixed_q = c.fixed_q.middleCols(i * dh, dh);
    hc.fixed_k = c.fixed_k.middleCols(i * dh, dh);
  }
  return hc;
}

}  // namespace cosda
