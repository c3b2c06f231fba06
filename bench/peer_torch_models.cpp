// cosda-peer-torch --models: whole models (models/encoder.hpp) in cosda and in libtorch
// (bench/torch_model.hpp), one thread, per steady-state step; writes results/timing/models.md.
// Each report-config model is timed at its shape, plus each [[ratio]]'s ends at the printed rows'
// input width. Both sides share weights (make_weights) and seeded tokens and must agree on the
// first three outputs before timing; FLOPs are executed counts under Tally.
#include <fmt/format.h>

#include <fstream>
#include <map>
#include <stdexcept>

#include "analysis/model_cost.hpp"
#include "analysis/model_report.hpp"
#include "analysis/roofline_model.hpp"
#include "bench/timing_config.hpp"
#include "bench/torch_model.hpp"
#include "io/atomic_file.hpp"
#include "sweeps/meta.hpp"
#include "sweeps/model_config.hpp"

namespace cosda::bench::peer {
namespace {

// One model at one input width: what is timed.
struct Timed {
  std::string key;  // model name, with the input width when it is not the model's
  const ModelConfig* model = nullptr;
  ModelSpec spec;
  double flops = 0;  // executed, per step
};

struct Result {
  double cosda = 0, torch = 0, err = 0;
};

template <class T>
Result time_model(const Timed& m, const Options& o) {
  const ModelSpec& s = m.spec;
  const ModelWeights w = make_weights(s);
  EncoderModel<Plain<T>> cm(s, w);
  TorchModel<T> tm(s, w);
  const std::int64_t width = s.input_dim > 0 ? s.input_dim : s.d;
  const Mat<T> pool = seeded_tokens<T>(97, width, 9);
  const auto token = [&](std::int64_t t) { return &pool(t % pool.rows(), 0); };

  Result r;
  std::int64_t tc = 0, tt = 0;        // tokens fed to cosda and to libtorch
  for (; tc < s.n + 2; ++tc, ++tt) {  // warm-up; the first three outputs are compared
    const bool a = cm.step(token(tc)), b = tm.step(token(tt));
    if (a != b) throw std::runtime_error(m.key + ": cosda and libtorch start their output apart");
    if (!a) continue;
    const Mat<T> co = cm.output();
    const torch::Tensor c = torch::from_blob(const_cast<T*>(co.data()), {co.size()}, dtype<T>());
    r.err = std::max(r.err, rel_err(tm.output().reshape({-1}), c));
  }
  const double tol = std::is_same_v<T, float> ? 1e-4 : 1e-9;
  if (!(r.err <= tol))
    throw std::runtime_error(fmt::format("{} {}: libtorch and cosda disagree (rel. err. {:.2e})",
                                         m.key, std::is_same_v<T, float> ? "float" : "double",
                                         r.err));
  const auto times =
      time_per_step({[&] { cm.step(token(tc++)); }, [&] { tm.step(token(tt++)); }}, o);
  r.cosda = times[0], r.torch = times[1];
  fmt::print(stderr, "  {} {}: cosda {:.4g} s, libtorch {:.4g} s per step (rel. err. {:.1e})\n",
             m.key, std::is_same_v<T, float> ? "float" : "double", r.cosda, r.torch, r.err);
  return r;
}

Timed timed(const ModelConfig& m, std::int64_t input_dim) {
  Timed t;
  t.model = &m;
  t.spec = spec_at(m, m.spec.n, input_dim);
  t.key = input_dim < 0 || input_dim == m.spec.input_dim
              ? m.name
              : fmt::format("{} (input {})", m.name, input_dim);
  const ModelCost c = measure_model(t.spec);
  t.flops = double(c.total().flops()) / double(c.cycle_steps);
  return t;
}

// The model and printed row of a printed id.
std::pair<const ModelConfig*, const PrintedEntry*> printed(const ReportConfig& r,
                                                           const std::string& id) {
  for (const auto& m : r.models)
    for (const auto& p : m.printed)
      if (p.id == id) return {&m, &p};
  throw std::invalid_argument(r.source + ": no printed row " + id);
}

// Every model at its shape, then the ends of each ratio at the printed rows' input widths.
std::vector<Timed> what_to_time(const ReportConfig& r) {
  std::vector<Timed> list;
  const auto add = [&](const ModelConfig& m, std::int64_t input_dim) {
    const ModelSpec s = spec_at(m, m.spec.n, input_dim);
    for (const auto& t : list)
      if (t.model == &m && t.spec.input_dim == s.input_dim) return;
    list.push_back(timed(m, input_dim));
  };
  for (const auto& m : r.models) add(m, -1);
  for (const auto& q : r.ratios)
    for (const auto& id : {q.numerator, q.denominator}) {
      const auto [m, p] = printed(r, id);
      add(*m, p->input_dim);
    }
  return list;
}

std::string us(double s) {
  return s >= 1e-3 ? fmt::format("{:.4g} ms", s * 1e3) : fmt::format("{:.4g} µs", s * 1e6);
}
std::string gflop(double f) { return fmt::format("{:.4g} M", f / 1e6); }

const char* kind_of(const Timed& t) {
  return plan(t.spec)[0].mode == BlockMode::kStream ? "continual" : "regular";
}

using Results = std::map<std::string, Result>;  // by key and scalar: key + "/" + scalar

std::string models_md(const Options& o, const ReportConfig& r, const std::vector<Timed>& list,
                      const std::vector<std::string>& scalars, const Results& res,
                      const std::string& load) {
  std::string md = "# Whole models: time per step, cosda and libtorch\n\n";
  md += fmt::format(
      "Written by `{}` at commit {} ({}) from `{}` on {}: libtorch {} (Debian libtorch-dev), one "
      "thread "
      "(torch::set_num_threads(1), one OpenMP thread for cosda), OPENBLAS_CORETYPE={}. Each "
      "model is built in cosda (models/encoder.hpp, Plain policy, no instrumentation) and in "
      "libtorch (nn::Linear, nn::LayerNorm, GELU/ReLU, attention with matmul and softmax; "
      "continual blocks keep K and V in in-place ring buffers) from the same weights; their "
      "predictions matched on the first three outputs before timing (**rel. err.**, the largest "
      "of the three). Times are per steady-state step on the thread's CPU clock, the median of {} "
      "repetitions of about {} s each (at least one step), the two sides' repetitions "
      "interleaved. **FLOPs/step** are the executed operations of one step (every mul, add, div, "
      "exp and other, counted by running the same model under Tally). **cosda/libtorch** below "
      "1: cosda is faster. Load average (1 min) before and after the run: {}.\n\n",
      o.command, build_commit(), utc_now(), o.config, roofline::cpu_name(), TORCH_VERSION,
      std::getenv("OPENBLAS_CORETYPE") ? std::getenv("OPENBLAS_CORETYPE") : "unset", o.repetitions,
      o.min_time, load);
  md +=
      "| model | kind | blocks | n | d | input | FLOPs/step | scalar | cosda | libtorch | "
      "cosda/libtorch | GFLOP/s cosda | rel. err. |\n"
      "|---|---|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---|\n";
  for (const auto& t : list)
    for (const auto& sc : scalars) {
      const Result& x = res.at(t.key + "/" + sc);
      md += fmt::format(
          "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {:.2f} | {:.3g} | {:.1e} |\n", t.key,
          kind_of(t), t.spec.attention.size(), t.spec.n, t.spec.d, t.spec.input_dim, gflop(t.flops),
          sc, us(x.cosda), us(x.torch), x.cosda / x.torch, t.flops / x.cosda / 1e9, x.err);
    }
  md +=
      "\n## Continual against regular\n\n"
      "The savings ratios of the report config (results/models/report.md): **printed** is the "
      "paper's ratio of its FLOPs columns, **executed FLOP ratio** the ratio of the executed "
      "FLOPs per step above, and the time ratios are time(regular) / time(continual) in each "
      "library, the speedup a user of the continual model gets.\n\n"
      "| ratio | source | printed | executed FLOP ratio | scalar | cosda time ratio | "
      "libtorch time ratio |\n|---|---|---:|---:|---|---:|---:|\n";
  for (const auto& q : r.ratios) {
    const auto find = [&](const std::string& id) -> const Timed& {
      const auto [m, p] = printed(r, id);
      const std::int64_t in = p->input_dim < 0 ? m->spec.input_dim : p->input_dim;
      for (const auto& t : list)
        if (t.model == m && t.spec.input_dim == in) return t;
      throw std::logic_error("ratio end not timed: " + id);
    };
    const Timed &num = find(q.numerator), &den = find(q.denominator);
    for (const auto& sc : scalars) {
      const Result &a = res.at(num.key + "/" + sc), &b = res.at(den.key + "/" + sc);
      md += fmt::format("| {} ({} / {}) | {} | {:.3g} | {:.3g} | {} | {:.3g} | {:.3g} |\n", q.label,
                        num.key, den.key, q.source, q.printed, num.flops / den.flops, sc,
                        a.cosda / b.cosda, a.torch / b.torch);
    }
  }
  return md;
}

}  // namespace

int run_models(const Options& o) {
  const ReportConfig r = load_report_config(o.config);
  const std::vector<Timed> list = what_to_time(r);
  const std::vector<std::string> scalars = {"float", "double"};
  torch::NoGradGuard no_grad;
  const std::string before = roofline::load_average();
  Results res;
  for (const auto& t : list) {
    res[t.key + "/float"] = time_model<float>(t, o);
    res[t.key + "/double"] = time_model<double>(t, o);
  }
  write_file_atomic(o.out,
                    models_md(o, r, list, scalars, res, before + " / " + roofline::load_average()));
  fmt::print("wrote {}\n", o.out);
  return 0;
}

}  // namespace cosda::bench::peer
