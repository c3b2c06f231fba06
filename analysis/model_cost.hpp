// Executed cost of a whole model (models/encoder.hpp) per steady-state step, by part and block,
// and models of the counters behind the CoTrans paper's Tables 1-4 that explain its numbers.
// Protocol as analysis/measure.hpp: n warm-up tokens, then n steps if a block holds continual
// landmarks (cony_*_cont), else one; per step = cycle total of thread_counts() / cycle length.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/conventions.hpp"
#include "analysis/measure.hpp"
#include "models/encoder.hpp"

namespace cosda {

struct ModelCost {
  ModelSpec spec;
  std::vector<BlockPlan> plans;
  std::vector<PartCounts> cycle;  // [0] model level, [b + 1] block b; totals over the cycle
  std::int64_t cycle_steps = 1;

  // Cycle totals.
  OpCounts part(Part p) const;
  OpCounts level(std::size_t i) const;  // all parts of one level ([0] model, [b + 1] block b)
  OpCounts total() const;
  double per_step(const OpCounts& c, conventions::Convention conv) const {
    return double(conventions::count(c, conv)) / double(cycle_steps);
  }
  // Executed multiplications per step of one part of one level.
  double mul(std::size_t level, Part p) const {
    return double(cycle[level][static_cast<int>(p)].mul) / double(cycle_steps);
  }
};

ModelCost measure_model(const ModelSpec& spec, Counting counting = Counting::kTally);

// The counters behind the paper's FLOPs columns, per the authors' code and run logs (ptflops:
// multiply-accumulates of hooked modules): our executed multiplications of the parts a counter
// sees, plus or minus what it does differently, each term with its reason.
//   oadtr      ptflops on OadTR's regular model (Tables 1a, 2, 3): nn.Linear and activations;
//              the attention products (plain tensor ops in a custom module) and LayerNorm unseen.
//   continual  ptflops with the continual-inference attention hooks (CoOadTR, CoTrans-b#:
//              Tables 1b, 2, 3, 4): projections and attention multiplications per step.
//   regular_t  the same hooks in regular mode over GTZAN's channel-first tensors (Table 4,
//              Trans-b#).
enum class CounterProfile { kOadtr, kContinual, kRegularT };
inline constexpr std::array<std::string_view, 3> kCounterProfileIds = {"oadtr", "continual",
                                                                       "regular_t"};

struct CounterTerm {
  std::string what;
  double value = 0;     // per step
  bool counted = true;  // false: shown for reference, left out by the counter
};

std::vector<CounterTerm> counter_terms(const ModelCost& c, CounterProfile profile);
double counter_total(const std::vector<CounterTerm>& terms);

}  // namespace cosda
