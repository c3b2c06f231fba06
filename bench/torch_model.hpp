// A whole model of models/encoder.hpp as a libtorch user would write it, for cosda-peer-torch
// --models: nn::Linear, LayerNorm, GELU (tanh, as ops::gelu_inplace) or ReLU, attention with matmul
// and softmax, heads as a batch dimension ((h, rows, d/h) tensors), cosda's weights. Block modes:
//   window_all   regular attention over the input window (block 1: the whole model re-runs over
//                the window of raw tokens, rolled with cat)
//   window_last  K and V of every window row, Q of the newest, one output row
//   stream       the newest token only; K, V (and Q for retroactive) in in-place ring buffers.
//                Retroactive attention updates every row's numerator and denominator (drop the
//                oldest key, add the newest), gives the newest query a full row, rolls the rows.
// Only exact softmax attention without landmarks; other kinds are refused.
#pragma once

#include <torch/torch.h>

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "attention/registry.hpp"
#include "bench/peer_torch.hpp"
#include "models/encoder.hpp"

namespace cosda::bench::peer {

// A copy of cosda's double weights as a T tensor.
template <class T>
torch::Tensor tensor_of(const Mat<double>& m) {
  return torch::from_blob(const_cast<double*>(m.data()), {m.rows(), m.cols()}, torch::kFloat64)
      .to(dtype<T>())
      .clone();
}
template <class T>
torch::Tensor tensor_of(const std::vector<double>& v) {
  return torch::from_blob(const_cast<double*>(v.data()), {std::int64_t(v.size())}, torch::kFloat64)
      .to(dtype<T>())
      .clone();
}

template <class T>
torch::nn::Linear linear(const LinearWeights& w) {
  torch::nn::Linear l(torch::nn::LinearOptions(w.w.cols(), w.w.rows()).bias(!w.b.empty()));
  l->to(dtype<T>());
  torch::NoGradGuard no_grad;
  l->weight.copy_(tensor_of<T>(w.w));
  if (!w.b.empty()) l->bias.copy_(tensor_of<T>(w.b));
  return l;
}

template <class T>
torch::nn::LayerNorm layer_norm(const NormWeights& w) {
  torch::nn::LayerNorm ln(torch::nn::LayerNormOptions({std::int64_t(w.gamma.size())}).eps(1e-5));
  ln->to(dtype<T>());
  torch::NoGradGuard no_grad;
  ln->weight.copy_(tensor_of<T>(w.gamma));
  ln->bias.copy_(tensor_of<T>(w.beta));
  return ln;
}

template <class T>
class TorchBlock {
 public:
  TorchBlock(const ModelSpec& s, const BlockPlan& p, const BlockWeights& w)
      : plan_(p),
        n_(s.n),
        h_(s.heads),
        dh_(s.d / s.heads),
        scale_(1.0 / std::sqrt(double(s.d / s.heads))),
        pre_(s.norm == NormPlacement::kPre),
        relu_(s.activation == Activation::kRelu),
        single_(find_variant(p.attention)->single_output),
        q_(linear<T>(w.q)),
        k_(linear<T>(w.k)),
        v_(linear<T>(w.v)),
        o_(linear<T>(w.o)),
        ff1_(linear<T>(w.ff1)),
        ff2_(linear<T>(w.ff2)),
        ln1_(layer_norm<T>(w.ln1)),
        ln2_(layer_norm<T>(w.ln2)),
        gelu_(torch::nn::GELUOptions().approximate("tanh")) {
    const VariantTraits* t = find_variant(p.attention);
    if (t->family != Family::kSoftmax || t->landmarks != LandmarkKind::kNone)
      throw std::invalid_argument("the libtorch peer writes exact softmax attention only, not " +
                                  p.attention);
    const auto opts = torch::TensorOptions().dtype(dtype<T>());
    if (p.mode == BlockMode::kStream) {
      rk_ = torch::zeros({h_, n_, dh_}, opts), rv_ = torch::zeros({h_, n_, dh_}, opts);
      if (!single_) {
        rq_ = torch::zeros({h_, n_, dh_}, opts);
        inputs_ = torch::zeros({n_, s.d}, opts);
      }
    }
  }

  // Window modes: x is the block's input window, rows x d, oldest first.
  torch::Tensor window(const torch::Tensor& x) {
    const std::int64_t r = x.size(0);
    const torch::Tensor hx = pre_ ? ln1_(x) : x;
    const torch::Tensor k = split(k_(hx)), v = split(v_(hx));
    const bool all = plan_.mode == BlockMode::kWindowAll;
    const torch::Tensor q = split(q_(all ? hx : hx.slice(0, r - 1)));
    const torch::Tensor a = torch::softmax(torch::matmul(q, k.transpose(1, 2)) * scale_, -1);
    return finish(all ? x : x.slice(0, r - 1), merge(torch::matmul(a, v)));
  }

  // Stream mode: x is the newest block input, 1 x d. Undefined until the window is full.
  torch::Tensor stream(const torch::Tensor& x) {
    const std::int64_t slot = seen_++ % n_;
    const torch::Tensor hx = pre_ ? ln1_(x) : x;
    const torch::Tensor q = q_(hx).view({h_, dh_}), k = k_(hx).view({h_, dh_}),
                        v = v_(hx).view({h_, dh_});
    if (single_) {
      rk_.select(1, slot).copy_(k);
      rv_.select(1, slot).copy_(v);
      if (seen_ < n_) return {};
      const torch::Tensor a = torch::softmax(torch::matmul(rk_, q.unsqueeze(2)) * scale_, 1);
      return finish(x, torch::matmul(rv_.transpose(1, 2), a).view({1, h_ * dh_}));
    }
    inputs_.select(0, slot).copy_(x[0]);
    if (!retroactive(slot, q * scale_, k, v)) return {};
    const torch::Tensor rows = finish(inputs_, merge(av_ / den_.unsqueeze(2)));  // ring order
    return torch::roll(rows, -(slot + 1), 0);                                    // window order
  }

 private:
  torch::Tensor split(const torch::Tensor& x) const {  // (r, d) -> (h, r, dh)
    return x.view({x.size(0), h_, dh_}).transpose(0, 1);
  }
  torch::Tensor merge(const torch::Tensor& x) const {  // (h, r, dh) -> (r, d)
    return x.transpose(0, 1).reshape({x.size(1), h_ * dh_});
  }

  // Retroactive attention's numerators av_ (h, n, dh) and denominators den_ (h, n), in ring
  // order; q is pre-scaled. False until the window is full.
  bool retroactive(std::int64_t slot, const torch::Tensor& q, const torch::Tensor& k,
                   const torch::Tensor& v) {
    if (seen_ > n_) {  // every kept query drops the oldest key and value and gains the newest
      const torch::Tensor e_old = torch::exp(torch::matmul(rq_, rk_.select(1, slot).unsqueeze(2)));
      const torch::Tensor e_new = torch::exp(torch::matmul(rq_, k.unsqueeze(2)));
      den_ += (e_new - e_old).squeeze(2);
      av_ += e_new * v.unsqueeze(1) - e_old * rv_.select(1, slot).unsqueeze(1);
    }
    rq_.select(1, slot).copy_(q);
    rk_.select(1, slot).copy_(k);
    rv_.select(1, slot).copy_(v);
    if (seen_ < n_) return false;
    if (seen_ == n_) {  // the first window, from scratch
      const torch::Tensor a = torch::exp(torch::matmul(rq_, rk_.transpose(1, 2)));
      den_ = a.sum(-1);
      av_ = torch::matmul(a, rv_);
      return true;
    }
    const torch::Tensor e = torch::exp(torch::matmul(rk_, q.unsqueeze(2)));  // (h, n, 1)
    den_.select(1, slot).copy_(e.sum(1).squeeze(1));
    av_.select(1, slot).copy_(torch::matmul(rv_.transpose(1, 2), e).squeeze(2));
    return true;
  }

  // Sel(x) + MHA, the LayerNorms and the feed-forward (Eq. 10, or pre-norm).
  torch::Tensor finish(const torch::Tensor& sel, const torch::Tensor& mha) {
    torch::Tensor y = sel + o_(mha);
    if (!pre_) y = ln1_(y);
    const torch::Tensor f = ff1_(pre_ ? ln2_(y) : y);
    torch::Tensor z = y + ff2_(relu_ ? torch::relu(f) : gelu_(f));
    return pre_ ? z : ln2_(z);
  }

  BlockPlan plan_;
  std::int64_t n_, h_, dh_, seen_ = 0;
  double scale_;
  bool pre_, relu_, single_;
  torch::nn::Linear q_, k_, v_, o_, ff1_, ff2_;
  torch::nn::LayerNorm ln1_, ln2_;
  torch::nn::GELU gelu_;
  torch::Tensor rq_, rk_, rv_, inputs_, av_, den_;
};

// Embedding, positional encodings, class token, blocks, final norm and head.
template <class T>
class TorchModel {
 public:
  TorchModel(const ModelSpec& s, const ModelWeights& w)
      : spec_(s), plans_(plan(s)), width_(s.input_dim > 0 ? s.input_dim : s.d) {
    if (s.input_dim > 0) embed_ = linear<T>(w.embed);
    if (s.classes > 0) head_ = linear<T>(w.head);
    if (s.final_norm) final_norm_ = layer_norm<T>(w.final_norm);
    if (s.class_token_block > 0) cls_ = tensor_of<T>(w.class_token).view({1, s.d});
    if (s.positional.kind != PositionalKind::kNone) pos_ = tensor_of<T>(w.positions);
    for (std::size_t b = 0; b < plans_.size(); ++b) blocks_.emplace_back(s, plans_[b], w.blocks[b]);
    stream_ = plans_[0].mode == BlockMode::kStream;
    if (!stream_) raw_ = torch::zeros({s.n, width_}, torch::TensorOptions().dtype(dtype<T>()));
  }

  // Feeds the next raw token; true once output() holds this step's prediction.
  bool step(const T* token) {
    const std::int64_t t = seen_++;
    const torch::Tensor tok = torch::from_blob(const_cast<T*>(token), {1, width_}, dtype<T>());
    torch::Tensor x;
    if (stream_) {
      x = embed(tok.clone());
      if (pos_.defined()) x = x + pos_[encoding_row(spec_.positional, t, 0)];
      x = blocks_[0].stream(x);
      if (!x.defined()) return false;
    } else {
      raw_ = torch::cat({raw_.slice(0, 1), tok}, 0);
      if (seen_ < spec_.n) return false;
      x = embed(raw_);
      if (pos_.defined()) x = x + pos_.index_select(0, window_rows(t));
      x = blocks_[0].window(with_class_token(1, x));
    }
    for (std::size_t b = 1; b < blocks_.size(); ++b)
      x = blocks_[b].window(with_class_token(std::int64_t(b) + 1, x));
    out_ = x.slice(0, x.size(0) - 1);
    if (spec_.final_norm) out_ = final_norm_(out_);
    if (spec_.classes > 0) out_ = head_(out_);
    return true;
  }
  const torch::Tensor& output() const { return out_; }

 private:
  torch::Tensor embed(const torch::Tensor& raw) { return spec_.input_dim > 0 ? embed_(raw) : raw; }
  // The encoding rows of the window ending at token t.
  torch::Tensor window_rows(std::int64_t t) const {
    std::vector<std::int64_t> rows(std::size_t(spec_.n));
    for (std::int64_t i = 0; i < spec_.n; ++i)
      rows[std::size_t(i)] = encoding_row(spec_.positional, t - (spec_.n - 1) + i, i);
    return torch::tensor(rows, torch::kInt64);
  }
  torch::Tensor with_class_token(std::int64_t k, const torch::Tensor& x) const {
    return spec_.class_token_block == k ? torch::cat({x, cls_}, 0) : x;
  }

  ModelSpec spec_;
  std::vector<BlockPlan> plans_;
  std::int64_t width_, seen_ = 0;
  bool stream_ = false;
  torch::nn::Linear embed_{nullptr}, head_{nullptr};
  torch::nn::LayerNorm final_norm_{nullptr};
  torch::Tensor cls_, pos_, raw_, out_;
  std::vector<TorchBlock<T>> blocks_;
};

}  // namespace cosda::bench::peer
