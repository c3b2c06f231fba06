#include "analysis/model_cost.hpp"

#include <initializer_list>
#include <random>
#include <stdexcept>

#include "analysis/policy.hpp"

namespace cosda {

OpCounts ModelCost::part(Part p) const {
  OpCounts s;
  for (const auto& lvl : cycle) s += lvl[static_cast<int>(p)];
  return s;
}

OpCounts ModelCost::level(std::size_t i) const {
  OpCounts s;
  for (const auto& c : cycle[i]) s += c;
  return s;
}

OpCounts ModelCost::total() const {
  OpCounts s;
  for (std::size_t i = 0; i < cycle.size(); ++i) s += level(i);
  return s;
}

namespace {

template <class E>
ModelCost run_model(const ModelSpec& spec) {
  using S = typename E::Scalar;
  EncoderModel<E> model(spec);
  std::mt19937_64 rng(20231122);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::vector<S> token(static_cast<std::size_t>(spec.input_dim > 0 ? spec.input_dim : spec.d));
  auto next = [&] {
    for (auto& x : token) x = S(0.5 * normal(rng));
    return token.data();
  };
  for (std::int64_t i = 0; i < spec.n; ++i) model.step(next());
  ModelCost c;
  c.spec = spec;
  c.plans = model.plans();
  for (const auto& p : c.plans)
    if (p.mode == BlockMode::kStream &&
        find_variant(p.attention)->landmarks == LandmarkKind::kContinual)
      c.cycle_steps = spec.n;
  const std::vector<PartCounts> before = model.parts();
  for (std::int64_t s = 0; s < c.cycle_steps; ++s)
    if (!model.step(next())) throw std::logic_error("model gave no output in steady state");
  c.cycle = model.parts();
  for (std::size_t i = 0; i < c.cycle.size(); ++i)
    for (int p = 0; p < kParts; ++p) c.cycle[i][p] -= before[i][p];
  return c;
}

// What every counter profile shares: the model's sizes, the per-level multiplications, and the
// biases ptflops adds once per call (one per output feature of a biased nn.Linear).
struct CounterInputs {
  const ModelCost& c;
  const ModelSpec& s;
  double d, n, mlp, in, classes;
  double bias_once_blocks, bias_once_model;

  explicit CounterInputs(const ModelCost& cost)
      : c(cost),
        s(cost.spec),
        d(double(s.d)),
        n(double(s.n)),
        mlp(double(s.mlp)),
        in(double(s.input_dim)),
        classes(double(s.classes)),
        bias_once_blocks(double(c.plans.size()) * ((s.qkv_bias ? 3 * d : 0) + d + mlp + d)),
        bias_once_model((s.input_dim > 0 ? d : 0) + classes) {}

  double sum_parts(std::size_t level, std::initializer_list<Part> parts) const {
    double v = 0;
    for (Part p : parts) v += c.mul(level, p);
    return v;
  }
  double all_levels(Part p) const {
    double v = 0;
    for (std::size_t i = 0; i < c.cycle.size(); ++i) v += c.mul(i, p);
    return v;
  }
};

std::string label(std::size_t b, const std::string& what) {
  return "block " + std::to_string(b + 1) + ": " + what;
}

void oadtr_terms(const CounterInputs& x, std::vector<CounterTerm>& t) {
  const ModelCost& c = x.c;
  double linear = x.sum_parts(0, {Part::kEmbedding, Part::kHead});
  double elems = 0;
  for (std::size_t b = 0; b < c.plans.size(); ++b) {
    linear += x.sum_parts(b + 1, {Part::kProjections, Part::kFeedForward});
    elems += double(c.plans[b].rows_out) * x.mlp;
  }
  t.push_back(
      {"linear layers (embedding, Q/K/V/O projections, feed-forward, head): executed "
       "multiplications",
       linear});
  if (x.s.classes > 0)
    t.push_back({"head applied to every row of the last block before the last row is taken",
                 double(c.plans.back().rows_out - 1) * x.d * x.classes});
  t.push_back({"biases: one per output feature of each biased linear layer, once per call",
               x.bias_once_model + x.bias_once_blocks});
  t.push_back({"activation: one per element", elems});
  t.push_back(
      {"attention products QK^T, AV and their scaling: tensor operations inside a "
       "custom module, not hooked",
       x.all_levels(Part::kAttention), false});
}

void continual_terms(const CounterInputs& x, std::vector<CounterTerm>& t) {
  const ModelCost& c = x.c;
  const double d = x.d, mlp = x.mlp;
  t.push_back({"embedding and head: executed multiplications",
               x.sum_parts(0, {Part::kEmbedding, Part::kHead})});
  t.push_back({"biases: one per output feature of each biased linear layer, once per call",
               x.bias_once_model + x.bias_once_blocks});
  for (std::size_t b = 0; b < c.plans.size(); ++b) {
    const BlockPlan& p = c.plans[b];
    const std::size_t l = b + 1;
    t.push_back({label(b,
                       "projections and attention (the attention hook): executed "
                       "multiplications"),
                 x.sum_parts(l, {Part::kProjections, Part::kAttention})});
    if (p.mode == BlockMode::kWindowLast) {
      t.push_back({label(b,
                         "Q projection counted for every window row, only the newest is "
                         "used"),
                   double(p.rows_in - 1) * d * d});
      t.push_back({label(b,
                         "feed-forward of the output row: not counted (0 MACs in the "
                         "authors' two-block log)"),
                   c.mul(l, Part::kFeedForward), false});
      t.push_back({label(b, "activation: one per element"), mlp});
      continue;
    }
    t.push_back({label(b, "feed-forward: executed multiplications"), c.mul(l, Part::kFeedForward)});
    t.push_back({label(b, "activation: one per element"), double(p.rows_out) * mlp});
    if (p.rows_out > 1) {
      t.push_back({label(b,
                         "output-projection bias counted for every row (the hook's "
                         "n d (d + 1))"),
                   double(p.rows_out - 1) * d});
      t.push_back({label(b, "feed-forward biases counted for every row as well as once"),
                   double(p.rows_out) * (mlp + d)});
    }
  }
}

// One block of regular_t: the attention hook's terms and the feed-forward as ptflops sees it.
void regular_t_block(const CounterInputs& x, std::size_t b, std::vector<CounterTerm>& t) {
  const ModelCost& c = x.c;
  const double d = x.d, mlp = x.mlp;
  const BlockPlan& p = c.plans[b];
  const std::size_t l = b + 1;
  t.push_back({label(b, "projections and attention: executed multiplications"),
               x.sum_parts(l, {Part::kProjections, Part::kAttention})});
  if (p.mode == BlockMode::kWindowLast) {
    t.push_back({label(b,
                       "Q projection counted for every window row, only the newest is "
                       "used"),
                 double(p.rows_in - 1) * d * d});
    t.push_back({label(b, "output-projection bias, once"), d});
    t.push_back({label(b,
                       "feed-forward on a (1, C, 1) tensor: each linear layer counted "
                       "as its input width"),
                 d + mlp});
    t.push_back(
        {label(b, "feed-forward: executed multiplications"), c.mul(l, Part::kFeedForward), false});
    t.push_back({label(b, "activation: one per element"), mlp});
    return;
  }
  t.push_back({label(b,
                     "output-projection bias counted for every row (the hook's "
                     "n d (d + 1))"),
               double(p.rows_out) * d});
  t.push_back({label(b, "feed-forward: executed multiplications, biases once"),
               c.mul(l, Part::kFeedForward) + mlp + d});
  t.push_back({label(b, "activation: one per element"), double(p.rows_out) * mlp});
}

void regular_t_terms(const CounterInputs& x, std::vector<CounterTerm>& t) {
  const ModelCost& c = x.c;
  if (x.s.input_dim > 0) {
    t.push_back(
        {"embedding on the (1, C, T) input: ptflops multiplies the input size by the "
         "last axis, which is time, giving input_dim n n",
         x.in * x.n * x.n});
    t.push_back({"embedding: executed multiplications", c.mul(0, Part::kEmbedding), false});
  }
  t.push_back({"biases of embedding and head, once per call", x.bias_once_model});
  for (std::size_t b = 0; b < c.plans.size(); ++b) regular_t_block(x, b, t);
  if (x.s.classes > 0) {
    const bool last_single = c.plans.back().rows_out == 1;
    t.push_back({"head on the last block's output: " +
                     std::string(last_single ? "a (1, C, 1) tensor, counted as its input "
                                               "width"
                                             : "executed multiplications"),
                 last_single ? x.d : c.mul(0, Part::kHead)});
    if (last_single) t.push_back({"head: executed multiplications", c.mul(0, Part::kHead), false});
  }
}

}  // namespace

ModelCost measure_model(const ModelSpec& spec, Counting counting) {
  // Whole models are counted in double (Exact counts the same operations at scalar level).
  return with_policy(counting, Precision::kDouble, [&]<class E>() { return run_model<E>(spec); });
}

std::vector<CounterTerm> counter_terms(const ModelCost& c, CounterProfile profile) {
  const CounterInputs x(c);
  std::vector<CounterTerm> t;
  if (profile == CounterProfile::kOadtr)
    oadtr_terms(x, t);
  else if (profile == CounterProfile::kContinual)
    continual_terms(x, t);
  else
    regular_t_terms(x, t);
  t.push_back({"LayerNorm: not hooked", x.all_levels(Part::kNormalisation), false});
  t.push_back(
      {"activation: executed multiplications (the counter charges one per element "
       "instead)",
       x.all_levels(Part::kActivation), false});
  return t;
}

double counter_total(const std::vector<CounterTerm>& terms) {
  double s = 0;
  for (const auto& t : terms)
    if (t.counted) s += t.value;
  return s;
}

}  // namespace cosda
