#include "models/encoder.hpp"

#include <random>
#include <stdexcept>

namespace cosda {

namespace {

std::string block_name(std::size_t b) { return "block " + std::to_string(b + 1); }

bool regular_kind(const VariantTraits& t) { return !t.continual; }
// CoTrans Sec. 3.8: the continual single-output softmax block (co_si) computes the newest
// row of a window it is handed, so it may follow a block; att may end a model on its last row.
bool single_output_softmax(const VariantTraits& t) {
  return t.family == Family::kSoftmax && t.continual && t.single_output;
}
bool regular_softmax(const VariantTraits& t) {
  return t.family == Family::kSoftmax && !t.continual;
}

}  // namespace

std::string check(const ModelSpec& s) {
  if (s.n < 1) return "n must be at least 1";
  if (s.d < 1) return "embed_dim must be at least 1";
  if (s.heads < 1 || s.d % s.heads != 0)
    return "heads must divide embed_dim (embed_dim = " + std::to_string(s.d) +
           ", heads = " + std::to_string(s.heads) + ")";
  if (s.mlp < 1) return "mlp_dim must be at least 1";
  if (s.input_dim < 0 || s.classes < 0) return "input_dim and classes must not be negative";
  if (s.attention.empty()) return "attention must name one variant per block";
  const std::int64_t blocks = std::int64_t(s.attention.size());
  if (s.class_token_block < 0 || s.class_token_block > blocks)
    return "class_token_block must be 0 (none) or a block number from 1 to " +
           std::to_string(blocks);
  const PositionalSpec& p = s.positional;
  if (p.kind != PositionalKind::kNone && p.count < 1) return "positional encodings need T >= 1";
  if (p.kind == PositionalKind::kAbsolute && p.count < s.n)
    return "absolute positions need an encoding for every window slot (T >= n)";
  std::int64_t rows_prev = 0;
  for (std::size_t b = 0; b < s.attention.size(); ++b) {
    const VariantTraits* t = find_variant(s.attention[b]);
    if (t == nullptr)
      return block_name(b) + ": unknown attention '" + s.attention[b] +
             "'; known: " + variant_list();
    const bool cls_here = s.class_token_block == std::int64_t(b) + 1;
    if (b == 0) {
      if (t->continual && cls_here)
        return "class token at block 1 needs a block that re-runs over its window; a continual "
               "first block sees one token per step (CoTrans Sec. 3.8: put it at block 2)";
      if (t->continual && p.kind == PositionalKind::kAbsolute)
        return "absolute positions change every token's encoding at every step; a continual "
               "first block needs recycling positions (CoTrans Eq. 11) or none";
      rows_prev = t->continual ? (t->single_output ? 1 : s.n) : s.n + (cls_here ? 1 : 0);
    } else {
      if (rows_prev == 1)
        return block_name(b) +
               " follows a single-output block, which gives one row per step; "
               "stacked single-output blocks do not match a regular model (CoTrans Sec. 3.8)";
      const std::int64_t rows_in = rows_prev + (cls_here ? 1 : 0);
      if (single_output_softmax(*t)) {
        rows_prev = 1;
      } else if (regular_kind(*t)) {
        rows_prev = rows_in;
      } else {
        return block_name(b) + ": '" + s.attention[b] +
               "' cannot follow another block: every row of its input window changes at every "
               "step, so nothing can be carried over; use att, ny, ny_fix (all rows) or co_si "
               "(newest row)";
      }
      if (t->landmarks != LandmarkKind::kNone && (s.m < 1 || s.m > rows_in))
        return block_name(b) + ": landmarks m must be in [1, " + std::to_string(rows_in) + "]";
      continue;
    }
    if (t->landmarks != LandmarkKind::kNone && (s.m < 1 || s.m > s.n + (cls_here ? 1 : 0)))
      return block_name(b) + ": landmarks m must be in [1, n]";
  }
  if (s.last_row_only) {
    const std::string& last = s.attention.back();
    const VariantTraits& lt = variant(last);
    const bool ok = regular_softmax(lt) || (blocks > 1 && single_output_softmax(lt));
    if (!ok)
      return "last_row_only applies to a final att block (regular attention re-run over the "
             "window), not '" +
             last + "'";
  }
  return "";
}

std::vector<BlockPlan> plan(const ModelSpec& s) {
  if (std::string why = check(s); !why.empty()) throw std::invalid_argument(why);
  std::vector<BlockPlan> plans;
  for (std::size_t b = 0; b < s.attention.size(); ++b) {
    const VariantTraits& t = *find_variant(s.attention[b]);
    const std::int64_t cls = s.class_token_block == std::int64_t(b) + 1 ? 1 : 0;
    BlockPlan p;
    p.attention = s.attention[b];
    if (b == 0 && t.continual) {
      p.mode = BlockMode::kStream;
      p.rows_in = s.n;
      p.rows_out = t.single_output ? 1 : s.n;
    } else {
      p.rows_in = (b == 0 ? s.n : plans.back().rows_out) + cls;
      const bool last = b + 1 == s.attention.size();
      const bool single = (b > 0 && single_output_softmax(t)) || (last && s.last_row_only);
      p.mode = single ? BlockMode::kWindowLast : BlockMode::kWindowAll;
      p.rows_out = single ? 1 : p.rows_in;
    }
    plans.push_back(p);
  }
  return plans;
}

ModelWeights make_weights(const ModelSpec& s) {
  std::mt19937_64 rng(s.seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  auto linear = [&](std::int64_t out, std::int64_t in, bool bias) {
    LinearWeights l;
    l.w.resize(out, in);
    const double scale = 1.0 / std::sqrt(double(in));
    for (std::int64_t i = 0; i < l.w.size(); ++i) l.w.data()[i] = scale * normal(rng);
    if (bias)
      for (std::int64_t i = 0; i < out; ++i) l.b.push_back(0.1 * normal(rng));
    return l;
  };
  auto layer_norm = [&](std::int64_t d) {
    NormWeights w;
    for (std::int64_t i = 0; i < d; ++i) {
      w.gamma.push_back(1.0 + 0.1 * normal(rng));
      w.beta.push_back(0.1 * normal(rng));
    }
    return w;
  };
  ModelWeights w;
  if (s.input_dim > 0) w.embed = linear(s.d, s.input_dim, true);
  for (std::size_t b = 0; b < s.attention.size(); ++b) {
    BlockWeights bw;
    bw.q = linear(s.d, s.d, s.qkv_bias);
    bw.k = linear(s.d, s.d, s.qkv_bias);
    bw.v = linear(s.d, s.d, s.qkv_bias);
    bw.o = linear(s.d, s.d, true);
    bw.ff1 = linear(s.mlp, s.d, true);
    bw.ff2 = linear(s.d, s.mlp, true);
    bw.ln1 = layer_norm(s.d);
    bw.ln2 = layer_norm(s.d);
    w.blocks.push_back(std::move(bw));
  }
  w.final_norm = layer_norm(s.d);
  if (s.classes > 0) w.head = linear(s.classes, s.d, true);
  for (std::int64_t i = 0; i < s.d; ++i) w.class_token.push_back(0.5 * normal(rng));
  const PositionalSpec& p = s.positional;
  if (p.kind != PositionalKind::kNone)
    w.positions =
        p.given ? given_encodings(p.count, s.d, s.seed + 1) : sinusoidal_encodings(p.count, s.d);
  if (s.m > 0) {
    std::mt19937_64 lrng(s.seed + 2);
    w.landmarks.resize(s.m, s.d);
    for (std::int64_t i = 0; i < w.landmarks.size(); ++i)
      w.landmarks.data()[i] = 0.5 * normal(lrng);
  }
  return w;
}

std::int64_t parameter_count(const ModelSpec& s) {
  const ModelWeights w = make_weights(s);
  auto linear = [](const LinearWeights& l) { return l.w.size() + std::int64_t(l.b.size()); };
  auto norm = [](const NormWeights& n) { return std::int64_t(n.gamma.size() + n.beta.size()); };
  std::int64_t p = linear(w.embed) + linear(w.head);
  for (const auto& b : w.blocks)
    p += linear(b.q) + linear(b.k) + linear(b.v) + linear(b.o) + linear(b.ff1) + linear(b.ff2) +
         norm(b.ln1) + norm(b.ln2);
  if (s.final_norm) p += norm(w.final_norm);
  if (s.class_token_block > 0) p += std::int64_t(w.class_token.size());
  if (s.positional.given) p += w.positions.size();
  return p;
}

#define COSDA_INSTANTIATE(E)      \
  template class EncoderBlock<E>; \
  template class EncoderModel<E>;
COSDA_ENCODER_POLICIES(COSDA_INSTANTIATE)
#undef COSDA_INSTANTIATE

}  // namespace cosda
