// Whole models: Transformer Encoder blocks around the registry's attention variants, with input
// embedding, positional encodings, a class token and a classification head.
// Block (CoTrans Eq. 10, post-norm, the default):
//   y = LayerNorm(Sel(x) + MHA(x, x, x)),   z = LayerNorm(y + FF(y)),
//   MHA = (||_i Att(x W_Q^i, x W_K^i, x W_V^i)) W_O  (Eq. 9),  FF(y) = s(y W_1 + w_1) W_2 + w_2.
// Pre-norm (OadTR's blocks): y = Sel(x) + MHA(LN(x)), z = y + FF(LN(y)). Sel() keeps the rows
// the attention produced: the newest token (single-output) or the whole window.
// A block's mode follows from its attention kind and position (plan()):
//   stream       block 1 with a continual kind: projects only the newest token and feeds it to
//                the variant (multi_head.hpp); outputs 1 row or the n retroactively updated rows.
//   window_all   a regular kind, re-run over the input window every step (block 1: the whole
//                model over the raw tokens, as the papers' regular baselines); outputs all rows.
//   window_last  single-output over a window (K, V of every row, Q of the newest): co_si as a
//                later block, or a final att block with last_row_only. A later block's input
//                rows all change every step, so nothing carries over (CoTrans Sec. 3.8, Fig. 1).
// One set of weights serves every attention kind, so a regular and a continual model of one spec
// differ only in the order of computation (CoTrans Sec. 2.1). Operations go through
// attention/ops/seam.hpp; counting policies attribute them to parts (Part) per block.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "attention/families/window.hpp"
#include "attention/ops/seam.hpp"
#include "attention/variants/co_si.hpp"
#include "models/multi_head.hpp"
#include "models/positional.hpp"

namespace cosda {

enum class Activation { kGelu, kRelu };
enum class NormPlacement { kPost, kPre };

// Where an operation of a step is attributed.
enum class Part {
  kEmbedding,      // input linear layer
  kProjections,    // Q, K, V and output projections with their biases (Eq. 9)
  kAttention,      // the scaled dot-product attention of every head (the variant)
  kFeedForward,    // the two linear layers of FF with their biases
  kActivation,     // FF's activation
  kNormalisation,  // LayerNorms
  kHead,           // classification layer
  kOther,          // residual additions, positional encodings
};
inline constexpr int kParts = 8;
inline constexpr std::array<std::string_view, kParts> kPartNames = {
    "embedding",  "projections",   "attention", "feed_forward",
    "activation", "normalisation", "head",      "other"};
using PartCounts = std::array<OpCounts, kParts>;

struct ModelSpec {
  std::int64_t n = 0;                  // window length (tokens)
  std::int64_t d = 0;                  // embedding width
  std::int64_t heads = 1;              // dividing d
  std::int64_t mlp = 0;                // FF hidden width
  std::int64_t input_dim = 0;          // raw token width; 0: tokens enter at width d, no embedding
  std::int64_t classes = 0;            // head outputs; 0: no head (output is the prediction row)
  std::vector<std::string> attention;  // variant id per block
  std::int64_t m = 0;                  // landmarks (Nyström kinds)
  int pinv_iterations = 6;
  Activation activation = Activation::kGelu;
  NormPlacement norm = NormPlacement::kPost;
  bool final_norm = false;     // LayerNorm on the prediction row before the head
  bool qkv_bias = true;        // biases on the Q, K, V projections (W_O always has one)
  bool last_row_only = false;  // a final att block computes only the prediction row
  PositionalSpec positional;
  std::int64_t class_token_block = 0;  // 0: none; k: appended to the input window of block k
  std::uint64_t seed = 1;
};

enum class BlockMode { kStream, kWindowAll, kWindowLast };
inline constexpr std::array<std::string_view, 3> kBlockModeNames = {"stream", "window_all",
                                                                    "window_last"};

struct BlockPlan {
  std::string attention;
  BlockMode mode = BlockMode::kStream;
  std::int64_t rows_in = 0;   // window rows (stream: n, the tokens the variant holds)
  std::int64_t rows_out = 0;  // rows produced per step
};

// The blocks of a spec, or "" / the first problem (one line naming the field and the fix).
std::string check(const ModelSpec& spec);
// Throws std::invalid_argument with check()'s message.
std::vector<BlockPlan> plan(const ModelSpec& spec);

struct LinearWeights {
  Mat<double> w;          // out x in
  std::vector<double> b;  // out, or empty: no bias
};
struct NormWeights {
  std::vector<double> gamma, beta;
};
struct BlockWeights {
  LinearWeights q, k, v, o, ff1, ff2;
  NormWeights ln1, ln2;
};
struct ModelWeights {
  LinearWeights embed, head;
  std::vector<BlockWeights> blocks;
  NormWeights final_norm;
  std::vector<double> class_token;
  Mat<double> positions;  // T x d (empty without positional encodings)
  Mat<double> landmarks;  // m x d fixed landmarks (Nyström kinds with fixed landmarks)
};

// Seeded weights: N(0, 1/fan_in) matrices, small biases, LayerNorm gains near 1; a function of the
// dimensions, shape options and seed, never of the attention kinds.
ModelWeights make_weights(const ModelSpec& spec);

// Trainable parameters: linear layers, LayerNorms, the class token if one is used, and the
// positional table if it is given (learned); fixed encodings and landmarks are not parameters.
std::int64_t parameter_count(const ModelSpec& spec);

namespace encoder_detail {

// Adds the operations executed during its lifetime to one part (counting policies only).
template <class E>
class PartScope {
 public:
  PartScope(PartCounts* parts, Part p) : parts_(parts), p_(p) {
    if constexpr (E::kCounting) before_ = thread_counts();
  }
  ~PartScope() {
    if constexpr (E::kCounting) (*parts_)[static_cast<int>(p_)] += thread_counts() - before_;
  }
  PartScope(const PartScope&) = delete;
  PartScope& operator=(const PartScope&) = delete;

 private:
  PartCounts* parts_;
  Part p_;
  OpCounts before_;
};

// y = x W^T + b.  mul r*out*in, add r*out*(in-1) (+ r*out with a bias).
template <class E>
class Linear {
 public:
  using S = typename E::Scalar;
  Linear() = default;
  explicit Linear(const LinearWeights& w)
      : w_(w.w.template cast<S>()), b_(w.b.begin(), w.b.end()) {}
  std::int64_t out() const { return w_.rows(); }
  void apply(MatCRef<S> x, Mat<S>& y) const {
    y.resize(x.rows(), out());
    ops::gemm_nt<E>(x, w_, y);
    if (!b_.empty())
      for (std::int64_t r = 0; r < y.rows(); ++r) ops::add<E>(b_.data(), &y(r, 0), out());
  }

 private:
  Mat<S> w_;
  std::vector<S> b_;
};

// Per row: (x - mean) / sqrt(var + 1e-5) * gamma + beta, var the biased variance.
template <class E>
class LayerNorm {
 public:
  using S = typename E::Scalar;
  LayerNorm() = default;
  explicit LayerNorm(const NormWeights& w)
      : gamma_(w.gamma.begin(), w.gamma.end()),
        beta_(w.beta.begin(), w.beta.end()),
        inv_d_(1.0 / double(w.gamma.size())),
        eps_(1e-5) {}
  void apply(Mat<S>& x) const {
    const std::int64_t d = x.cols();
    for (std::int64_t r = 0; r < x.rows(); ++r) {
      S* row = &x(r, 0);
      const S mean = ops::product<E>(ops::sum<E>(row, d), inv_d_);
      ops::offset<E>(row, d, mean, -1);
      const S var = ops::product<E>(ops::dot<E>(row, row, d), inv_d_);
      const S inv_std = ops::reciprocal<E>(ops::sqrt_of<E>(ops::plus<E>(var, eps_)));
      ops::scale<E>(row, d, inv_std);
      ops::multiply<E>(gamma_.data(), row, d);
      ops::add<E>(beta_.data(), row, d);
    }
  }

 private:
  std::vector<S> gamma_, beta_;
  S inv_d_{}, eps_{};
};

}  // namespace encoder_detail

// One Transformer Encoder block (Eq. 10) in the mode its plan gives.
template <class E>
class EncoderBlock {
 public:
  using S = typename E::Scalar;

  EncoderBlock(const ModelSpec& spec, const BlockPlan& plan, const BlockWeights& w,
               const Mat<double>& landmarks, PartCounts* parts)
      : plan_(plan),
        d_(spec.d),
        dh_(spec.d / spec.heads),
        heads_(spec.heads),
        pre_(spec.norm == NormPlacement::kPre),
        relu_(spec.activation == Activation::kRelu),
        parts_(parts),
        q_(w.q),
        k_(w.k),
        v_(w.v),
        o_(w.o),
        ff1_(w.ff1),
        ff2_(w.ff2),
        ln1_(w.ln1),
        ln2_(w.ln2) {
    Config c;
    c.n = plan.rows_in;
    c.d = spec.d;
    c.m = spec.m > 0 ? spec.m : 1;
    c.pinv_iterations = spec.pinv_iterations;
    const VariantTraits* t = find_variant(plan.attention);
    if (t->landmarks == LandmarkKind::kFixed) c.fixed_q = c.fixed_k = landmarks;
    if (plan.mode == BlockMode::kStream) {
      mh_ = std::make_unique<MultiHead<E>>(plan.attention, c, spec.heads);
      inputs_.setZero(spec.n, spec.d);
      return;
    }
    for (std::int64_t i = 0; i < heads_; ++i) {
      const Config hc = head_config(c, heads_, i);
      if (plan.mode == BlockMode::kWindowAll)
        window_heads_.push_back(make_variant<E>(plan.attention, hc));
      else
        single_heads_.push_back(make_co_si<E>(hc));
    }
  }

  // Stream mode: the newest token (d values). True once output() holds this step's rows.
  bool step(const S* x) {
    push_row<E>(inputs_, x);
    h_ = Eigen::Map<const Mat<S>>(x, 1, d_);
    if (pre_) norm(ln1_, h_);
    project(h_, q_, qp_);
    project(h_, k_, kp_);
    project(h_, v_, vp_);
    bool ready;
    {
      Scope s(parts_, Part::kAttention);
      ready = mh_->step(qp_.data(), kp_.data(), vp_.data());
    }
    if (!ready) return false;
    project(mh_->output(), o_, a_);
    if (plan_.rows_out == 1)
      finish(inputs_.bottomRows(1));
    else
      finish(inputs_);
    return true;
  }

  // Window modes: the block's input window, rows_in x d, oldest first.
  void window(MatCRef<S> x) {
    h_ = x;
    if (pre_) norm(ln1_, h_);
    const std::int64_t r = h_.rows();
    project(h_, k_, kp_);
    project(h_, v_, vp_);
    if (plan_.mode == BlockMode::kWindowAll) {
      project(h_, q_, qp_);
      att_.resize(r, d_);
      Scope s(parts_, Part::kAttention);
      for (std::int64_t i = 0; i < heads_; ++i) {
        window_heads_[i]->attend_window(qp_.middleCols(i * dh_, dh_), kp_.middleCols(i * dh_, dh_),
                                        vp_.middleCols(i * dh_, dh_));
        att_.middleCols(i * dh_, dh_) = window_heads_[i]->output();
      }
    } else {
      project(h_.bottomRows(1), q_, qp_);
      att_.resize(1, d_);
      Scope s(parts_, Part::kAttention);
      for (std::int64_t i = 0; i < heads_; ++i) {
        static_cast<CoSi<E>&>(*single_heads_[i])
            .attend(&qp_(0, i * dh_), kp_.middleCols(i * dh_, dh_), vp_.middleCols(i * dh_, dh_));
        att_.middleCols(i * dh_, dh_) = single_heads_[i]->output();
      }
    }
    project(att_, o_, a_);
    if (plan_.mode == BlockMode::kWindowAll)
      finish(x);
    else
      finish(x.bottomRows(1));
  }

  MatCRef<S> output() const { return out_; }

 private:
  using Scope = encoder_detail::PartScope<E>;

  void project(MatCRef<S> x, const encoder_detail::Linear<E>& l, Mat<S>& y) {
    Scope s(parts_, Part::kProjections);
    l.apply(x, y);
  }
  void norm(const encoder_detail::LayerNorm<E>& ln, Mat<S>& x) {
    Scope s(parts_, Part::kNormalisation);
    ln.apply(x);
  }
  void residual(MatCRef<S> x, Mat<S>& y) {
    Scope s(parts_, Part::kOther);
    for (std::int64_t r = 0; r < y.rows(); ++r) ops::add<E>(x.row(r).data(), &y(r, 0), d_);
  }

  // a_ holds MHA's rows; sel the matching input rows (Sel(x)).
  void finish(MatCRef<S> sel) {
    residual(sel, a_);  // y = Sel(x) + MHA(x)
    if (!pre_) norm(ln1_, a_);
    if (pre_) {
      t_ = a_;
      norm(ln2_, t_);
    }
    {
      Scope s(parts_, Part::kFeedForward);
      ff1_.apply(pre_ ? MatCRef<S>(t_) : MatCRef<S>(a_), hid_);
    }
    {
      Scope s(parts_, Part::kActivation);
      if (relu_)
        ops::relu_inplace<E>(hid_.data(), hid_.size());
      else
        ops::gelu_inplace<E>(hid_.data(), hid_.size());
    }
    {
      Scope s(parts_, Part::kFeedForward);
      ff2_.apply(hid_, out_);
    }
    residual(a_, out_);  // z = y + FF(y)
    if (!pre_) norm(ln2_, out_);
  }

  BlockPlan plan_;
  std::int64_t d_, dh_, heads_;
  bool pre_, relu_;
  PartCounts* parts_;
  encoder_detail::Linear<E> q_, k_, v_, o_, ff1_, ff2_;
  encoder_detail::LayerNorm<E> ln1_, ln2_;
  std::unique_ptr<MultiHead<E>> mh_;
  std::vector<std::unique_ptr<Attention<E>>> window_heads_;
  std::vector<std::unique_ptr<Attention<E>>> single_heads_;  // CoSi<E> each
  Mat<S> inputs_;  // stream mode: the last n block inputs, oldest first (Sel for retroactive)
  Mat<S> h_, qp_, kp_, vp_, att_, a_, t_, hid_, out_;
};

// Embedding, positional encodings, blocks, final norm and head, fed one raw token per step.
template <class E>
class EncoderModel {
 public:
  using S = typename E::Scalar;

  explicit EncoderModel(const ModelSpec& spec) : EncoderModel(spec, make_weights(spec)) {}
  EncoderModel(const ModelSpec& spec, const ModelWeights& w)
      : spec_(spec),
        plans_(plan(spec)),
        parts_(plans_.size() + 1),
        width_(spec.input_dim > 0 ? spec.input_dim : spec.d),
        embed_(w.embed),
        head_(w.head),
        final_norm_(w.final_norm),
        cls_(w.class_token.begin(), w.class_token.end()),
        pos_(w.positions.template cast<S>()) {
    for (std::size_t b = 0; b < plans_.size(); ++b)
      blocks_.push_back(std::make_unique<EncoderBlock<E>>(spec, plans_[b], w.blocks[b], w.landmarks,
                                                          &parts_[b + 1]));
    if (plans_[0].mode != BlockMode::kStream) raw_.setZero(spec.n, width_);
  }

  // Feeds the next raw token (input_dim values, or d without an embedding). True once the
  // window is full; then output() holds this step's prediction.
  bool step(const S* token) {
    const std::int64_t t = seen_++;
    if (plans_[0].mode == BlockMode::kStream) {
      embed(Eigen::Map<const Mat<S>>(token, 1, width_));
      encode_positions(t, false);
      if (!blocks_[0]->step(x_.data())) return false;
    } else {
      push_row<E>(raw_, token);
      if (seen_ < spec_.n) return false;
      embed(raw_);
      encode_positions(t, true);
      blocks_[0]->window(with_class_token(1, x_));
    }
    for (std::size_t b = 1; b < blocks_.size(); ++b)
      blocks_[b]->window(with_class_token(std::int64_t(b) + 1, blocks_[b - 1]->output()));
    const MatCRef<S> last = blocks_.back()->output();
    pred_ = last.bottomRows(1);
    if (spec_.final_norm) {
      Scope s(&parts_[0], Part::kNormalisation);
      final_norm_.apply(pred_);
    }
    if (spec_.classes > 0) {
      Scope s(&parts_[0], Part::kHead);
      head_.apply(pred_, logits_);
    }
    return true;
  }

  // 1 x classes (with a head) or the prediction row, 1 x d.
  MatCRef<S> output() const { return spec_.classes > 0 ? MatCRef<S>(logits_) : MatCRef<S>(pred_); }
  MatCRef<S> block_output(std::size_t b) const { return blocks_[b]->output(); }
  const std::vector<BlockPlan>& plans() const { return plans_; }
  // Cumulative counts since construction: [0] model level (embedding, positions, class token,
  // final norm, head), [b + 1] block b. Counting policies only.
  const std::vector<PartCounts>& parts() const { return parts_; }

 private:
  using Scope = encoder_detail::PartScope<E>;

  void embed(MatCRef<S> raw) {
    if (spec_.input_dim == 0) {
      x_ = raw;
      return;
    }
    Scope s(&parts_[0], Part::kEmbedding);
    embed_.apply(raw, x_);
  }

  // x_ row i is stream token t - (rows - 1) + i.
  void encode_positions(std::int64_t t, bool window) {
    if (spec_.positional.kind == PositionalKind::kNone) return;
    Scope s(&parts_[0], Part::kOther);
    const std::int64_t rows = x_.rows();
    for (std::int64_t i = 0; i < rows; ++i) {
      const std::int64_t row =
          encoding_row(spec_.positional, t - (rows - 1) + i, window ? i : rows - 1);
      ops::add<E>(&pos_(row, 0), &x_(i, 0), spec_.d);
    }
  }

  // The input window of block k (1-based), with the class token appended if it enters there.
  MatCRef<S> with_class_token(std::int64_t k, MatCRef<S> rows) {
    if (spec_.class_token_block != k) return rows;
    xc_.resize(rows.rows() + 1, spec_.d);
    xc_.topRows(rows.rows()) = rows;
    xc_.bottomRows(1) = Eigen::Map<const Mat<S>>(cls_.data(), 1, spec_.d);
    return xc_;
  }

  ModelSpec spec_;
  std::vector<BlockPlan> plans_;
  std::vector<PartCounts> parts_;
  std::int64_t width_, seen_ = 0;
  encoder_detail::Linear<E> embed_, head_;
  encoder_detail::LayerNorm<E> final_norm_;
  std::vector<S> cls_;
  Mat<S> pos_;
  std::vector<std::unique_ptr<EncoderBlock<E>>> blocks_;
  Mat<S> raw_, x_, xc_, pred_, logits_;
};

#define COSDA_ENCODER_POLICIES(X) X(Plain<float>) X(Plain<double>) X(Tally<double>) X(Exact)
#define COSDA_DECLARE_ENCODER(E)         \
  extern template class EncoderBlock<E>; \
  extern template class EncoderModel<E>;
COSDA_ENCODER_POLICIES(COSDA_DECLARE_ENCODER)
#undef COSDA_DECLARE_ENCODER

}  // namespace cosda
