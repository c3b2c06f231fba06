// Whole models (models/encoder.hpp; the seam ops they add: tests/encoder_seam_test.cpp): the
// regular model equals an independent plain-Eigen Transformer Encoder; continual models equal
// regular ones built from the same weights on long streams (one block, and the retroactive-then-
// single-output two-block stack of CoTrans Fig. 1, with recycling positions and a class token);
// per-part counts are the same under Tally and Exact and sit in the right parts; model configs
// are strict.
#include "models/encoder.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <numbers>

#include "analysis/measure.hpp"
#include "analysis/model_cost.hpp"
#include "io/errors.hpp"
#include "sweeps/model_config.hpp"
#include "tests/test_util.hpp"

namespace cosda::test {
namespace {

namespace fs = std::filesystem;
const fs::path kRepo = fs::path(__FILE__).parent_path().parent_path();

double rel_error(const MatD& got, const MatD& want) {
  return (got - want).norm() / std::max(want.norm(), 1e-300);
}

template <class S>
MatD to_double(MatCRef<S> m) {
  MatD out(m.rows(), m.cols());
  for (std::int64_t i = 0; i < m.rows(); ++i)
    for (std::int64_t j = 0; j < m.cols(); ++j) out(i, j) = double(value(m(i, j)));
  return out;
}

// ---- an independent reference model --------------------------------------------------------

MatD ref_linear(const MatD& x, const LinearWeights& l) {
  MatD y = x * l.w.transpose();
  if (!l.b.empty())
    y.rowwise() += Eigen::Map<const Eigen::RowVectorXd>(l.b.data(), std::int64_t(l.b.size()));
  return y;
}

MatD ref_norm(const MatD& x, const NormWeights& w) {
  MatD y(x.rows(), x.cols());
  for (std::int64_t r = 0; r < x.rows(); ++r) {
    const double mean = x.row(r).mean();
    const double var = (x.row(r).array() - mean).square().mean();
    for (std::int64_t j = 0; j < x.cols(); ++j)
      y(r, j) = (x(r, j) - mean) / std::sqrt(var + 1e-5) * w.gamma[j] + w.beta[j];
  }
  return y;
}

MatD ref_activation(MatD x, Activation a) {
  for (std::int64_t i = 0; i < x.size(); ++i) {
    const double v = x.data()[i];
    x.data()[i] =
        a == Activation::kRelu
            ? std::max(v, 0.0)
            : 0.5 * v *
                  (1 + std::tanh(std::sqrt(2 / std::numbers::pi) * (v + 0.044715 * v * v * v)));
  }
  return x;
}

// Eq. 10 (or pre-norm) over a whole window with plain Eigen and softmax attention per head;
// last_only keeps the newest row after attention.
MatD ref_block(const MatD& x, const BlockWeights& w, const ModelSpec& s, bool last_only) {
  const bool pre = s.norm == NormPlacement::kPre;
  const MatD h = pre ? ref_norm(x, w.ln1) : x;
  const MatD q = ref_linear(h, w.q), k = ref_linear(h, w.k), v = ref_linear(h, w.v);
  const std::int64_t dh = s.d / s.heads;
  MatD a(x.rows(), s.d);
  for (std::int64_t i = 0; i < s.heads; ++i)
    a.middleCols(i * dh, dh) = reference_attention(
        q.middleCols(i * dh, dh), k.middleCols(i * dh, dh), v.middleCols(i * dh, dh));
  const MatD sel = last_only ? MatD(x.bottomRows(1)) : x;
  if (last_only) a = MatD(a.bottomRows(1));
  MatD y = sel + ref_linear(a, w.o);
  if (!pre) y = ref_norm(y, w.ln1);
  const MatD t = pre ? ref_norm(y, w.ln2) : y;
  MatD z = y + ref_linear(ref_activation(ref_linear(t, w.ff1), s.activation), w.ff2);
  return pre ? z : ref_norm(z, w.ln2);
}

// The prediction of a regular model (att blocks) at stream step t over raw tokens.
MatD ref_model(const ModelSpec& s, const ModelWeights& w, const MatD& raw, std::int64_t t) {
  MatD x = raw.middleRows(t - s.n + 1, s.n);
  if (s.input_dim > 0) x = ref_linear(x, w.embed);
  for (std::int64_t i = 0; i < s.n; ++i) {
    const std::int64_t row = encoding_row(s.positional, t - s.n + 1 + i, i);
    if (row >= 0) x.row(i) += w.positions.row(row);
  }
  for (std::size_t b = 0; b < s.attention.size(); ++b) {
    if (s.class_token_block == std::int64_t(b) + 1) {
      MatD xc(x.rows() + 1, s.d);
      xc.topRows(x.rows()) = x;
      xc.bottomRows(1) = Eigen::Map<const Eigen::RowVectorXd>(w.class_token.data(), s.d);
      x = xc;
    }
    const bool last = b + 1 == s.attention.size() && s.last_row_only;
    x = ref_block(x, w.blocks[b], s, last);
  }
  MatD p = x.bottomRows(1);
  if (s.final_norm) p = ref_norm(p, w.final_norm);
  return s.classes > 0 ? ref_linear(p, w.head) : p;
}

ModelSpec small_spec(std::vector<std::string> attention) {
  ModelSpec s;
  s.n = 6;
  s.d = 8;
  s.heads = 2;
  s.mlp = 12;
  s.input_dim = 5;
  s.classes = 3;
  s.attention = std::move(attention);
  s.final_norm = true;
  s.seed = 11;
  return s;
}

TEST(EncoderModel, RegularMatchesPlainEigenReference) {
  for (bool pre : {false, true})
    for (Activation act : {Activation::kGelu, Activation::kRelu})
      for (int shape = 0; shape < 3; ++shape) {
        ModelSpec s = small_spec(shape == 0 ? std::vector<std::string>{"att"}
                                            : std::vector<std::string>{"att", "att"});
        s.norm = pre ? NormPlacement::kPre : NormPlacement::kPost;
        s.activation = act;
        if (shape == 1) s.class_token_block = 2;
        if (shape == 2) {
          s.last_row_only = true;
          s.positional = {PositionalKind::kAbsolute, s.n, true, 0};
        } else {
          s.positional = {PositionalKind::kRecycling, 2 * s.n - 1, shape == 1, 3};
        }
        const ModelWeights w = make_weights(s);
        EncoderModel<Plain<double>> model(s, w);
        const MatD raw = random_stream(4 * s.n, s.input_dim, 7);
        double worst = 0;
        for (std::int64_t t = 0; t < raw.rows(); ++t) {
          const Eigen::VectorXd tok = raw.row(t).transpose();
          if (!model.step(tok.data())) {
            EXPECT_LT(t, s.n - 1);
            continue;
          }
          worst = std::max(worst,
                           rel_error(to_double<double>(model.output()), ref_model(s, w, raw, t)));
        }
        EXPECT_LT(worst, 1e-12) << "pre " << pre << " relu " << (act == Activation::kRelu)
                                << " shape " << shape;
      }
}

struct Pair {
  std::string name;
  ModelSpec regular, continual;
  bool compare_all_rows;  // compare block 0's rows (retroactive), else the prediction
};

std::vector<Pair> pairs() {
  std::vector<Pair> out;
  auto add = [&](std::string name, std::vector<std::string> reg, std::vector<std::string> co,
                 auto&& tweak, bool all_rows = false) {
    ModelSpec r = small_spec(std::move(reg)), c = small_spec(std::move(co));
    tweak(r);
    tweak(c);
    out.push_back({std::move(name), r, c, all_rows});
  };
  auto none = [](ModelSpec&) {};
  auto recycle_n = [](ModelSpec& s) { s.positional = {PositionalKind::kRecycling, s.n, false, 0}; };
  auto recycle_2n = [](ModelSpec& s) {
    s.positional = {PositionalKind::kRecycling, 2 * s.n - 1, true, 5};
    s.norm = NormPlacement::kPre;
    s.activation = Activation::kRelu;
  };
  add("one_block_co_si", {"att"}, {"co_si"}, recycle_2n);
  add("one_block_co_si_T_n", {"att"}, {"co_si"}, recycle_n);
  add("one_block_co_re_all_rows", {"att"}, {"co_re"}, recycle_n, true);
  add("two_block_fig1", {"att", "att"}, {"co_re", "co_si"}, [&](ModelSpec& s) {
    recycle_2n(s);
    s.last_row_only = s.attention[1] == "att";
  });
  add("two_block_fig1_post_gelu", {"att", "att"}, {"co_re", "co_si"}, recycle_n);
  add("two_block_class_token", {"att", "att"}, {"co_re", "co_si"}, [&](ModelSpec& s) {
    recycle_n(s);
    s.class_token_block = 2;
  });
  add("two_block_regular_second", {"att", "att"}, {"co_re", "att"}, none);
  add(
      "nystrom_fixed_all_rows", {"ny_fix"}, {"cony_re_fix"}, [](ModelSpec& s) { s.m = 3; }, true);
  add("nystrom_fixed_single", {"ny_fix"}, {"cony_si_fix"}, [](ModelSpec& s) { s.m = 3; });
  return out;
}

TEST(EncoderModel, ContinualEqualsRegularOnLongStreams) {
  for (const Pair& p : pairs()) {
    EXPECT_EQ(make_weights(p.regular).blocks[0].q.w, make_weights(p.continual).blocks[0].q.w)
        << "one set of weights for both";
    EncoderModel<Plain<double>> reg(p.regular), co(p.continual);
    const MatD raw = random_stream(40 * p.regular.n, p.regular.input_dim, 23);
    std::int64_t compared = 0;
    double worst = 0;
    for (std::int64_t t = 0; t < raw.rows(); ++t) {
      const Eigen::VectorXd tok = raw.row(t).transpose();
      const bool a = reg.step(tok.data()), b = co.step(tok.data());
      ASSERT_EQ(a, b) << p.name << " step " << t;
      if (!a) continue;
      ++compared;
      if (p.compare_all_rows) {
        worst = std::max(worst, rel_error(to_double<double>(co.block_output(0)),
                                          to_double<double>(reg.block_output(0))));
      } else {
        const MatD want = to_double<double>(reg.block_output(reg.plans().size() - 1));
        const MatD got = to_double<double>(co.block_output(co.plans().size() - 1));
        worst = std::max(worst, rel_error(got.bottomRows(1), want.bottomRows(1)));
      }
      worst = std::max(worst,
                       rel_error(to_double<double>(co.output()), to_double<double>(reg.output())));
    }
    EXPECT_EQ(compared, raw.rows() - p.regular.n + 1) << p.name;
    EXPECT_LT(worst, 1e-9) << p.name;
  }
}

TEST(EncoderModel, FloatAndCountedScalarsComputeTheSameModel) {
  ModelSpec s = small_spec({"co_re", "co_si"});
  s.positional = {PositionalKind::kRecycling, 2 * s.n - 1, false, 0};
  EncoderModel<Plain<double>> md(s);
  EncoderModel<Plain<float>> mf(s);
  EncoderModel<Exact> me(s);
  const MatD raw = random_stream(3 * s.n, s.input_dim, 4);
  for (std::int64_t t = 0; t < raw.rows(); ++t) {
    std::vector<double> td(static_cast<std::size_t>(s.input_dim));
    for (std::int64_t j = 0; j < s.input_dim; ++j) td[j] = raw(t, j);
    std::vector<float> tf(td.begin(), td.end());
    std::vector<Counted> tc;
    for (double x : td) tc.push_back(Counted(x));
    const bool a = md.step(td.data()), b = mf.step(tf.data()), c = me.step(tc.data());
    ASSERT_EQ(a, b);
    ASSERT_EQ(a, c);
    if (!a) continue;
    const MatD want = to_double<double>(md.output());
    EXPECT_LT(rel_error(to_double<float>(mf.output()), want), 1e-4);
    EXPECT_LT(rel_error(to_double<Counted>(me.output()), want), 1e-12);
  }
}

// ---- counts ---------------------------------------------------------------------------------

TEST(EncoderCounts, TallyEqualsExactPerBlockAndPart) {
  std::vector<ModelSpec> specs;
  specs.push_back(small_spec({"co_si"}));
  specs.push_back(small_spec({"co_re", "co_si"}));
  specs.push_back(small_spec({"att", "att"}));
  specs.back().class_token_block = 2;
  specs.back().last_row_only = true;
  specs.push_back(small_spec({"ny_fix"}));
  specs.back().m = 2;
  specs.push_back(small_spec({"cony_si_cont"}));
  specs.back().m = 3;
  specs.push_back(small_spec({"co_re", "ny"}));
  specs.back().m = 2;
  specs.back().norm = NormPlacement::kPre;
  specs.back().activation = Activation::kRelu;
  specs.back().positional = {PositionalKind::kRecycling, 2 * specs.back().n - 1, true, 0};
  for (const ModelSpec& s : specs) {
    const ModelCost tally = measure_model(s, Counting::kTally);
    const ModelCost exact = measure_model(s, Counting::kExact);
    ASSERT_EQ(tally.cycle.size(), exact.cycle.size());
    EXPECT_EQ(tally.cycle_steps, exact.cycle_steps);
    for (std::size_t l = 0; l < tally.cycle.size(); ++l)
      for (int p = 0; p < kParts; ++p)
        EXPECT_EQ(tally.cycle[l][p], exact.cycle[l][p])
            << s.attention[0] << " level " << l << " part " << kPartNames[p] << ": tally "
            << describe(tally.cycle[l][p]) << " exact " << describe(exact.cycle[l][p]);
    EXPECT_GT(tally.total().flops(), 0);
  }
  EXPECT_EQ(measure_model(specs[4]).cycle_steps, specs[4].n) << "continual landmarks: a cycle";
}

TEST(EncoderCounts, PartsHoldTheirOwnOperations) {
  ModelSpec s = small_spec({"co_si"});
  s.n = 10;
  s.d = 12;
  s.heads = 3;
  const ModelCost c = measure_model(s);
  // The attention part is the variant itself: the same count the standalone measurement gives.
  Point p;
  p.variant = "co_si";
  p.n = s.n;
  p.d = s.d;
  p.heads = s.heads;
  EXPECT_EQ(c.part(Part::kAttention), measure(p).plain_step);
  // Shapes of the products: one token through Q, K, V and O (d x d each), FF (d x mlp twice),
  // embedding (input_dim x d) and head (d x classes).
  EXPECT_EQ(c.part(Part::kProjections).mul, 4 * s.d * s.d);
  EXPECT_EQ(c.part(Part::kFeedForward).mul, 2 * s.d * s.mlp);
  EXPECT_EQ(c.part(Part::kEmbedding).mul, s.input_dim * s.d);
  EXPECT_EQ(c.part(Part::kHead).mul, s.d * s.classes);

  // The regular model re-runs everything over the window: n rows through every product.
  ModelSpec r = s;
  r.attention = {"att"};
  const ModelCost rc = measure_model(r);
  EXPECT_EQ(rc.part(Part::kProjections).mul, 4 * s.n * s.d * s.d);
  EXPECT_EQ(rc.part(Part::kFeedForward).mul, 2 * s.n * s.d * s.mlp);
  EXPECT_EQ(rc.part(Part::kEmbedding).mul, s.n * s.input_dim * s.d);
  p.variant = "att";
  EXPECT_EQ(rc.part(Part::kAttention), measure(p).plain_step);

  // Only attention grows with the window in a continual single-output model.
  ModelSpec s2 = s;
  s2.n = 2 * s.n;
  const ModelCost c2 = measure_model(s2);
  for (Part q : {Part::kEmbedding, Part::kProjections, Part::kFeedForward, Part::kActivation,
                 Part::kNormalisation, Part::kHead, Part::kOther})
    EXPECT_EQ(c2.part(q), c.part(q)) << kPartNames[static_cast<int>(q)];
  EXPECT_GT(c2.part(Part::kAttention).mul, c.part(Part::kAttention).mul);
}

// ---- plans and configs ----------------------------------------------------------------------

TEST(EncoderPlan, RejectsStacksThatCannotMatchARegularModel) {
  auto why = [](std::vector<std::string> a, auto&& tweak) {
    ModelSpec s = small_spec(std::move(a));
    tweak(s);
    return check(s);
  };
  auto none = [](ModelSpec&) {};
  EXPECT_EQ(why({"co_re", "co_si"}, none), "");
  EXPECT_NE(why({"co_si", "co_si"}, none).find("single-output"), std::string::npos);
  EXPECT_NE(why({"co_re", "co_re"}, none).find("cannot follow"), std::string::npos);
  EXPECT_NE(why({"co_si"}, [](ModelSpec& s) { s.class_token_block = 1; }).find("class token"),
            std::string::npos);
  EXPECT_NE(why({"co_si"},
                [](ModelSpec& s) {
                  s.positional = {PositionalKind::kAbsolute, s.n, false, 0};
                })
                .find("recycling"),
            std::string::npos);
  EXPECT_NE(why({"co_si"}, [](ModelSpec& s) { s.heads = 3; }).find("heads"), std::string::npos);
  EXPECT_NE(why({"co_re"}, [](ModelSpec& s) { s.last_row_only = true; }).find("last_row_only"),
            std::string::npos);
  EXPECT_THROW(plan(small_spec({"nope"})), std::invalid_argument);
  const auto p = plan(small_spec({"co_re", "co_si"}));
  EXPECT_EQ(p[0].mode, BlockMode::kStream);
  EXPECT_EQ(p[0].rows_out, 6);
  EXPECT_EQ(p[1].mode, BlockMode::kWindowLast);
  EXPECT_EQ(p[1].rows_out, 1);
}

fs::path write_temp(const std::string& name, const std::string& text) {
  const fs::path dir = fs::temp_directory_path() / "cosda_encoder_test";
  fs::create_directories(dir);
  const fs::path p = dir / name;
  std::ofstream(p) << text;
  return p;
}

const char* kValid = R"(name = "tiny"
n = 6
embed_dim = 8
heads = 2
mlp_dim = 12
blocks = 2
positional = "recycling"
positions = "2n-1"
[[block]]
attention = "co_re"
[[block]]
attention = "co_si"
[[printed]]
id = "tiny_row"
table = "4"
row = "tiny"
flops_m = 0.1
counter = "continual"
)";

TEST(ModelConfig, ReadsAValidFileAndRejectsBadOnesInOneLine) {
  const ModelConfig m = load_model_config(write_temp("valid.toml", kValid));
  EXPECT_EQ(m.spec.attention, (std::vector<std::string>{"co_re", "co_si"}));
  EXPECT_EQ(m.spec.positional.count, 11);
  EXPECT_EQ(spec_at(m, 10).positional.count, 19);
  ASSERT_EQ(m.printed.size(), 1u);
  EXPECT_EQ(m.printed[0].counter, CounterProfile::kContinual);

  auto error_of = [](const std::string& text) -> std::string {
    try {
      load_model_config(write_temp("bad.toml", text));
    } catch (const InputError& e) {
      return e.what();
    }
    return "";
  };
  const std::string text = kValid;
  const std::vector<std::pair<std::string, std::string>> cases = {
      {text + "colour = 1\n", "colour"},
      {std::string(text).replace(text.find("blocks = 2"), 10, "blocks = 3"), "blocks"},
      {std::string(text).replace(text.find("\"co_si\""), 7, "\"co_re\""), "cannot follow"},
      {std::string(text).replace(text.find("heads = 2"), 9, "heads = 3"), "heads"},
      {std::string(text).replace(text.find("\"2n-1\""), 6, "\"3n\""), "positions"},
      {std::string(text).replace(text.find("\"continual\""), 11, "\"guess\""), "counter"},
      {std::string(text).replace(text.find("n = 6"), 5, "n = \"six\""), "'n'"},
  };
  for (const auto& [bad, key] : cases) {
    const std::string e = error_of(bad);
    EXPECT_NE(e.find(key), std::string::npos) << "want '" << key << "' in: " << e;
    EXPECT_EQ(e.find('\n'), std::string::npos) << e;
  }
}

TEST(ModelConfig, ShippedModelsLoadAndTheirIdsResolve) {
  const ReportConfig r = load_report_config(kRepo / "configs/models/report.toml");
  EXPECT_GE(r.models.size(), 4u);
  EXPECT_FALSE(r.ratios.empty());
  for (const auto& m : r.models) EXPECT_EQ(check(m.spec), "") << m.source;
}

}  // namespace
}  // namespace cosda::test
