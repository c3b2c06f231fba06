// The stream-processor interface shared by every variant of the registry.
//
// A variant is fed one token per step: q, k, v rows of width d (one head; see multi_head.hpp
// for h heads). Tokens are numbered t = 0, 1, ... from the start of the stream.
//
// Warm-up convention: a stream starts empty. For t < n-1, step() only stores the token and
// returns false. At t = n-1 the window holds n tokens: the variant primes its state from that
// window (a from-scratch computation, never counted as a steady-state step) and returns true.
// Steady state is every step t >= n; step costs, memory and equivalences are stated for it.
//
// Output: single-output variants give 1 x d, the attention of the newest query; the others
// give n x d, one row per query of the window, oldest first (row n-1 is the newest token).
// Every output equals scaled dot-product attention s(QK^T/sqrt(d))V (or its Nyström
// approximation, or its random-feature estimate) of the current window; no max-subtraction is
// used in the papers' variants, as in the papers.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "attention/exec.hpp"

namespace cosda {

namespace exact {
struct Forms;  // attention/counting/closed_form.hpp
}

// What the rank coordinate m of a variant is: none (m is ignored), a Nyström variant's
// landmarks (segment means of the window, continual segment means, or a fixed set), or the
// number of random features of the random-feature family (attention/families/random_features.hpp).
// Everything with landmarks != kNone takes m as a coordinate.
enum class LandmarkKind { kNone, kSegmentMeans, kContinual, kFixed, kRandomFeatures };

// The approximation a variant computes: exact softmax attention, its Nyström low-rank form,
// the Performer (FAVOR+) random-feature estimate of it, or linear attention with a fixed
// feature map (Katharopoulos et al. 2020; no variant of the registry: the worked example of
// docs/adding-a-variant.md, tests/linear_variant.hpp).
enum class Family { kSoftmax, kNystrom, kRandomFeatures, kLinear };

// How a variant is drawn in every figure: a gnuplot colour and point type.
struct PlotStyle {
  std::string_view colour;
  int point = 0;
};

// Everything cosda knows about a variant, written once as the kernel's `kTraits` with
// designated initialisers; attention/registry.hpp derives the rest (its two-block model, its
// single-output, retroactive and fixed-landmark siblings) from these facts, never from ids.
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
  // Fixed landmarks, m x d each, for ny_fix and cony_*_fix. Self-attention passes the same
  // set for queries and keys (Sec. IV-B of the Nyström paper).
  Mat<double> fixed_q{}, fixed_k{};
  // Stabilised mode (continual variants only): every exponential is exp(s - C) with this
  // fixed C, which cancels exactly in each softmax ratio and moves the overflow threshold by C;
  // one subtraction per exponential, counted. Choose C from a calibration stream
  // (analysis/numerics.hpp calibrate_shift). Unset: exp(s), as in the papers.
  std::optional<double> exp_shift{};
  // The seed of the random features (rf, corf_si, corf_re): they are a deterministic function
  // of (d, m, feature_seed), drawn at construction (attention/families/random_features.hpp).
  std::uint64_t feature_seed = 0x5eed;
};

template <class E>
class Attention {
 public:
  using Scalar = typename E::Scalar;

  virtual ~Attention() = default;

  // Feeds the next token (d values each). True once the window is full; then output()
  // holds this step's output.
  virtual bool step(const Scalar* q, const Scalar* k, const Scalar* v) = 0;
  virtual MatCRef<Scalar> output() const = 0;

  // Whether the last step computed a new landmark (continual-landmark variants only).
  virtual bool updated_landmarks() const { return false; }
  // The landmarks the last output used, queries already scaled by 1/sqrt(d) (Nyström
  // variants only; null otherwise).
  virtual const Mat<Scalar>* landmarks_q_scaled() const { return nullptr; }
  virtual const Mat<Scalar>* landmarks_k() const { return nullptr; }

  // One object holding several heads that can share them out among the OpenMP threads
  // (attention/families/nystrom_heads.hpp, attention/variants/rf.hpp): step_split is step with each
  // thread computing a range of heads, the same bits. MultiHead times one against the other
  // (multi_head.hpp).
  virtual bool splits_heads() const { return false; }
  virtual bool step_split(const Scalar* q, const Scalar* k, const Scalar* v) {
    return step(q, k, v);
  }

  // Variants that re-run over their window (att, ny, ny_fix) compute output() from a given
  // window of n tokens; the second block of two-block models uses this.
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
