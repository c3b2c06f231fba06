// cosda-peer-torch: cosda's kernels against libtorch (PyTorch's C++ API) in one process, one
// thread, per shape of configs/timing.toml, time per steady-state step (interleaved repetitions):
//   att    cosda `att` vs libtorch attention over the window as a user writes it: roll Q, K, V
//          with torch::cat, matmul, softmax, matmul.
//   co_si  cosda `co_si` vs libtorch CoSi rolling the K and V caches with torch::cat, and with an
//          in-place ring buffer (copy_ into the oldest slot) and mv (matmul with several heads).
// Heads are libtorch's batch dimension ((h, n, d/h) tensors). Each libtorch output must match
// cosda's before timing. Writes results/timing/peer.md: time ratios cosda/libtorch and per-FLOP
// time of heads against one head. --models: whole models (bench/peer_torch_models.cpp).
#include "bench/peer_torch.hpp"

#include <fmt/format.h>
#include <omp.h>
#include <torch/torch.h>

#include <cstring>
#include <functional>
#include <optional>

#include "analysis/roofline_model.hpp"
#include "attention/kernels/blas.hpp"
#include "bench/timing_config.hpp"
#include "io/atomic_file.hpp"
#include "models/multi_head.hpp"
#include "sweeps/config_kinds.hpp"
#include "sweeps/meta.hpp"

namespace cosda::bench {
namespace {

using namespace peer;  // NOLINT(google-build-using-namespace): the shared peer pieces

struct Row {
  std::string shape, scalar;
  double cosda_att = 0, torch_att = 0, cosda_cosi = 0, torch_cosi_cat = 0, torch_cosi_ring = 0;
  double err_att = 0, err_cat = 0, err_ring = 0;
  std::int64_t n = 0, d = 0, heads = 1;
  double flops_att = 0, flops_cosi = 0;  // executed per steady-state step (Tally), both sides
};

// The tokens both sides are fed, q = k = v = token: a pool of seeded tokens, as cosda's rows
// and as libtorch's (h, dh) views, and libtorch's windows over them.
template <class T>
struct Tokens {
  Tokens(std::int64_t n, std::int64_t d, std::int64_t h)
      : n(n), h(h), dh(d / h), pool(seeded_tokens<T>(97, d, 5)) {}
  const T* token(std::int64_t t) const { return &pool(t % pool.rows(), 0); }
  // (h, dh) view of token t as a tensor (shares the pool's memory; cloned where kept).
  torch::Tensor tok(std::int64_t t) const {
    return torch::from_blob(const_cast<T*>(token(t)), {h, dh}, dtype<T>());
  }
  // libtorch windows (h, n, dh), oldest first, over the same tokens as cosda saw last.
  torch::Tensor window(std::int64_t end) const {  // tokens end-n .. end-1
    std::vector<torch::Tensor> rows;
    for (std::int64_t i = end - n; i < end; ++i) rows.push_back(tok(i).unsqueeze(1));
    return torch::cat(rows, 1).contiguous();
  }

  std::int64_t n, h, dh;
  Mat<T> pool;
};

// FLOPs of one steady-state step of variant id with h heads, executed under Tally: what both
// sides compute (the same algorithm; libtorch's softmax also subtracts each row's maximum).
template <class T>
double executed_flops(const std::string& id, const Config& c, std::int64_t h, const Tokens<T>& tk) {
  MultiHead<Tally<T>> model(id, c, h);
  for (std::int64_t t = 0; t <= c.n; ++t) model.step(tk.token(t), tk.token(t), tk.token(t));
  const OpCounts before = thread_counts();
  model.step(tk.token(c.n + 1), tk.token(c.n + 1), tk.token(c.n + 1));
  return double((thread_counts() - before).flops());
}

// att through libtorch: roll the windows, matmul, softmax, matmul.
template <class T>
struct TorchAtt {
  TorchAtt(const Tokens<T>& tk, double scale)
      : tk(tk), scale(scale), t(tk.n), wq(tk.window(tk.n)), wk(wq.clone()), wv(wq.clone()) {}
  void step() {
    const torch::Tensor x = tk.tok(t++).unsqueeze(1);
    wq = torch::cat({wq.slice(1, 1), x}, 1);
    wk = torch::cat({wk.slice(1, 1), x}, 1);
    wv = torch::cat({wv.slice(1, 1), x}, 1);
    const torch::Tensor a = torch::softmax(torch::matmul(wq, wk.transpose(1, 2)) * scale, -1);
    out = torch::matmul(a, wv);  // (h, n, dh)
  }

  const Tokens<T>& tk;
  double scale;
  std::int64_t t;
  torch::Tensor wq, wk, wv, out;
};

// CoSi through libtorch, rolling the caches with cat.
template <class T>
struct TorchCosiCat {
  TorchCosiCat(const Tokens<T>& tk, double scale)
      : tk(tk), scale(scale), t(tk.n), ck(tk.window(tk.n)), cv(ck.clone()) {}
  void step() {
    const torch::Tensor x = tk.tok(t++);
    ck = torch::cat({ck.slice(1, 1), x.unsqueeze(1)}, 1);
    cv = torch::cat({cv.slice(1, 1), x.unsqueeze(1)}, 1);
    const torch::Tensor a = torch::softmax(torch::matmul(ck, x.unsqueeze(2)) * scale, 1);
    out = torch::matmul(cv.transpose(1, 2), a);  // (h, dh, 1)
  }

  const Tokens<T>& tk;
  double scale;
  std::int64_t t;
  torch::Tensor ck, cv, out;
};

// CoSi through libtorch with an in-place ring buffer and mv. The ring starts in window order
// (slot i = token i), so slot t % n holds the oldest token.
template <class T>
struct TorchCosiRing {
  TorchCosiRing(const Tokens<T>& tk, double scale)
      : tk(tk), scale(scale), t(tk.n), rk(tk.window(tk.n)), rv(rk.clone()) {}
  void step() {
    const torch::Tensor x = tk.tok(t);
    const std::int64_t slot = t++ % tk.n;
    rk.select(1, slot).copy_(x);
    rv.select(1, slot).copy_(x);
    if (tk.h == 1) {
      const torch::Tensor a = torch::softmax(torch::mv(rk[0], x[0]) * scale, 0);
      out = torch::mv(rv[0].t(), a).unsqueeze(0);  // (1, dh)
    } else {
      const torch::Tensor a = torch::softmax(torch::matmul(rk, x.unsqueeze(2)) * scale, 1);
      out = torch::matmul(rv.transpose(1, 2), a).squeeze(2);  // (h, dh)
    }
  }

  const Tokens<T>& tk;
  double scale;
  std::int64_t t;
  torch::Tensor rk, rv, out;
};

// Each libtorch output against cosda's att (ao, n x d) and co_si (co, 1 x d) after one step on the
// same token; records the relative errors in row and throws if one is beyond the tolerance.
template <class T>
void check_outputs(const Tokens<T>& tk, const Mat<T>& ao, const Mat<T>& co, const TorchAtt<T>& tatt,
                   const TorchCosiCat<T>& tcat, const TorchCosiRing<T>& tring,
                   const std::string& shape, Row& row) {
  const torch::Tensor a =
      torch::from_blob(const_cast<T*>(ao.data()), {tk.n, tk.h, tk.dh}, dtype<T>())
          .permute({1, 0, 2});
  const torch::Tensor cs = torch::from_blob(const_cast<T*>(co.data()), {tk.h, tk.dh}, dtype<T>());
  row.err_att = rel_err(tatt.out, a);
  row.err_cat = rel_err(tcat.out.squeeze(2), cs);
  row.err_ring = rel_err(tring.out, cs);
  const double tol = std::is_same_v<T, float> ? 1e-4 : 1e-9;
  if (row.err_att > tol || row.err_cat > tol || row.err_ring > tol)
    throw std::runtime_error(
        fmt::format("{} {}: libtorch and cosda disagree (att {:.2e}, CoSi cat {:.2e}, ring {:.2e})",
                    shape, row.scalar, row.err_att, row.err_cat, row.err_ring));
}

template <class T>
Row run_shape(const TimingShape& s, const Options& o) {
  const std::int64_t n = s.n, d = s.d, h = s.heads, dh = d / h;
  const double scale = 1.0 / std::sqrt(double(dh));
  const Tokens<T> tk(n, d, h);
  auto token = [&](std::int64_t t) { return tk.token(t); };

  Row row;
  row.shape = s.name;
  row.scalar = std::is_same_v<T, float> ? "float" : "double";
  row.n = n, row.d = d, row.heads = h;
  Config c{.n = n, .d = d, .m = 1};
  row.flops_att = executed_flops<T>("att", c, h, tk);
  row.flops_cosi = executed_flops<T>("co_si", c, h, tk);

  // cosda att and co_si, warmed up: t counts the tokens fed.
  MultiHead<Plain<T>> att("att", c, h), cosi("co_si", c, h);
  std::int64_t t_att = 0, t_cosi = 0;
  const auto cosda_att_step = [&] {
    att.step(token(t_att), token(t_att), token(t_att));
    ++t_att;
  };
  const auto cosda_cosi_step = [&] {
    cosi.step(token(t_cosi), token(t_cosi), token(t_cosi));
    ++t_cosi;
  };
  for (std::int64_t i = 0; i < n; ++i) cosda_att_step();
  for (std::int64_t i = 0; i < n; ++i) cosda_cosi_step();

  torch::NoGradGuard no_grad;
  TorchAtt<T> tatt(tk, scale);
  TorchCosiCat<T> tcat(tk, scale);
  TorchCosiRing<T> tring(tk, scale);

  // Same outputs: one step of each on the same next token, compared with cosda (n x d and 1 x d,
  // heads side by side).
  cosda_att_step();
  tatt.step();
  cosda_cosi_step();
  tcat.step();
  tring.step();
  check_outputs<T>(tk, att.output(), cosi.output(), tatt, tcat, tring, s.name, row);

  const auto att_times = time_per_step({cosda_att_step, [&] { tatt.step(); }}, o);
  row.cosda_att = att_times[0], row.torch_att = att_times[1];
  const auto cosi_times =
      time_per_step({cosda_cosi_step, [&] { tcat.step(); }, [&] { tring.step(); }}, o);
  row.cosda_cosi = cosi_times[0], row.torch_cosi_cat = cosi_times[1],
  row.torch_cosi_ring = cosi_times[2];
  fmt::print(stderr,
             "  {} {}: att {:.3g} vs {:.3g} s, co_si {:.3g} vs cat {:.3g} / ring {:.3g} s\n",
             s.name, row.scalar, row.cosda_att, row.torch_att, row.cosda_cosi, row.torch_cosi_cat,
             row.torch_cosi_ring);
  return row;
}

std::string us(double s) { return fmt::format("{:.4g} µs", s * 1e6); }

// The shapes compared: the paper shapes, those that time att alone, and a multi-head paper
// shape's window as one head (for the head-batching table).
bool compared(const TimingShape& s, const TimingConfig& cfg) {
  if (s.paper || (!s.variants.empty() && s.has("att"))) return true;
  return s.heads == 1 && std::any_of(cfg.shapes.begin(), cfg.shapes.end(), [&](const auto& o) {
           return o.paper && o.heads > 1 && o.n == s.n && o.d == s.d;
         });
}

// Time per executed FLOP (cosda's count for both libraries) with h heads of d / h over one head
// of d, same window: what cosda and libtorch's batched heads each pay for short heads.
std::string heads_table(const std::vector<Row>& rows) {
  std::string md;
  for (const Row& h : rows)
    for (const Row& o : rows) {
      if (!(h.heads > 1 && o.heads == 1 && h.n == o.n && h.d == o.d && h.scalar == o.scalar))
        continue;
      const auto line = [&](const char* version, double th, double to, double fh, double fo) {
        md += fmt::format("| {} | {} | {} | {} | {:.2f} | {:.2f} | {:.2f} |\n", h.scalar, version,
                          us(th), us(to), th / to, fh / fo, (th / fh) / (to / fo));
      };
      if (md.empty())
        md = fmt::format(
            "\n## Heads: {} heads of {} against one head of {} (n = {})\n\n"
            "**time ratio** = time with {} heads / time with one head, medians of this run; "
            "**FLOP ratio** = the same for the FLOPs cosda executes (Tally); **per FLOP** = "
            "time ratio / FLOP ratio (the target of batching cosda's heads: at most 1.3). "
            "libtorch keeps the heads as the batch dimension of one (h, n, d/h) tensor.\n\n"
            "| scalar | version | {} heads | one head | time ratio | FLOP ratio | per FLOP |\n"
            "|---|---|---:|---:|---:|---:|---:|\n",
            h.heads, h.d / h.heads, h.d, h.n, h.heads, h.heads);
      line("cosda `att`", h.cosda_att, o.cosda_att, h.flops_att, o.flops_att);
      line("libtorch att", h.torch_att, o.torch_att, h.flops_att, o.flops_att);
      line("cosda `co_si`", h.cosda_cosi, o.cosda_cosi, h.flops_cosi, o.flops_cosi);
      line("libtorch CoSi (ring)", h.torch_cosi_ring, o.torch_cosi_ring, h.flops_cosi,
           o.flops_cosi);
      line("libtorch CoSi (cat)", h.torch_cosi_cat, o.torch_cosi_cat, h.flops_cosi, o.flops_cosi);
    }
  return md;
}

// The flags; nullopt when --help printed the usage.
std::optional<Options> parse_options(int argc, char** argv) {
  Options o;
  bool config_given = false, out_given = false;
  for (int i = 0; i < argc; ++i) o.command += (i ? " " : "") + std::string(argv[i]);
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&](const std::string& flag) -> std::optional<std::string> {
      if (a.rfind(flag + "=", 0) != 0) return std::nullopt;
      return a.substr(flag.size() + 1);
    };
    if (a == "--help") {
      fmt::print(
          "usage: cosda-peer-torch [--models] [--config=FILE] [--out=FILE] [--quick]\n"
          "                        [--min_time=S] [--repetitions=R]\n"
          "Times cosda's att and co_si against libtorch (one thread) at the paper shapes of\n"
          "the config (--quick: those marked quick) and writes FILE (default\n"
          "results/timing/peer.md). With --models: every whole model of the report config\n"
          "(default configs/models/report.toml) instead, into FILE (default\n"
          "results/timing/models.md).\n");
      return std::nullopt;
    } else if (auto v = value("--config")) {
      o.config = *v, config_given = true;
    } else if (auto v = value("--out")) {
      o.out = *v, out_given = true;
    } else if (a == "--models") {
      o.models = true;
    } else if (a == "--quick") {
      o.quick = true;
    } else if (auto v = value("--min_time")) {
      o.min_time = std::atof(v->c_str());
      if (!(o.min_time > 0 && o.min_time <= 10))
        throw InputError("cosda-peer-torch: flag --min_time must be in (0, 10] seconds");
    } else if (auto v = value("--repetitions")) {
      o.repetitions = std::atoi(v->c_str());
      if (o.repetitions < 1 || o.repetitions > 100)
        throw InputError("cosda-peer-torch: flag --repetitions must be in [1, 100]");
    } else {
      throw InputError("cosda-peer-torch: unknown argument " + a +
                       "; allowed: --models, --config=FILE, --out=FILE, --quick, --min_time=S, "
                       "--repetitions=R (see --help)");
    }
  }
  if (o.models && !config_given) o.config = "configs/models/report.toml";
  if (o.models && !out_given) o.out = "results/timing/models.md";
  return o;
}

// results/timing/peer.md from the rows of the run.
std::string peer_md(const Options& o, const TimingConfig& cfg, const std::vector<Row>& rows,
                    const std::string& load) {
  std::string md = "# cosda against libtorch\n\n";
  md += fmt::format(
      "Written by `{}` at commit {} ({}) from `{}` on {}: libtorch {} (Debian libtorch-dev), one "
      "thread "
      "(torch::set_num_threads(1), one OpenMP thread for cosda), OPENBLAS_CORETYPE={}. Times "
      "are per steady-state step on the thread's CPU clock, the median of {} repetitions of "
      "about {} s each (the clock read once per repetition; the versions compared take their "
      "repetitions in turn, so that a burst of load falls on all of them), all in one process. "
      "**ratio** = "
      "cosda / libtorch: below 1, cosda is faster. Each libtorch version's output matched "
      "cosda's on the same window before timing (rel. err. columns). Load average (1 min) before "
      "and after the run: {}.\n\n",
      o.command, build_commit(), utc_now(), o.config, roofline::cpu_name(), TORCH_VERSION,
      std::getenv("OPENBLAS_CORETYPE") ? std::getenv("OPENBLAS_CORETYPE") : "unset", o.repetitions,
      o.min_time, load);
  md +=
      "| shape | scalar | cosda att | libtorch att | ratio | cosda co_si | libtorch CoSi (cat) | "
      "ratio | libtorch CoSi (ring, mv) | ratio | rel. err. att / cat / ring |\n"
      "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n";
  for (const auto& r : rows)
    md += fmt::format(
        "| {} | {} | {} | {} | {:.2f} | {} | {} | {:.2f} | {} | {:.2f} | {:.1e} / {:.1e} / "
        "{:.1e} |\n",
        r.shape, r.scalar, us(r.cosda_att), us(r.torch_att), r.cosda_att / r.torch_att,
        us(r.cosda_cosi), us(r.torch_cosi_cat), r.cosda_cosi / r.torch_cosi_cat,
        us(r.torch_cosi_ring), r.cosda_cosi / r.torch_cosi_ring, r.err_att, r.err_cat, r.err_ring);
  md += "\nShapes: ";
  for (const auto& s : cfg.shapes)
    if (compared(s, cfg) && (!o.quick || s.quick))
      md +=
          fmt::format("{} = {} (n = {}, d = {}, heads = {}); ", s.name, s.what, s.n, s.d, s.heads);
  md += "\n" + heads_table(rows);
  return md;
}

int run_main(int argc, char** argv) {
  const std::optional<Options> parsed = parse_options(argc, argv);
  if (!parsed) return 0;
  const Options& o = *parsed;
  check_output_file(o.out);  // before any timing
  omp_set_num_threads(1);
  torch::set_num_threads(1);
#ifdef COSDA_HAVE_BLAS
  openblas_set_num_threads(1);  // libtorch's products go through the same OpenBLAS
#endif
  if (o.models) return run_models(o);
  const TimingConfig cfg = read_config_as("timing", o.config, load_timing_config);
  const std::string before = roofline::load_average();
  std::vector<Row> rows;
  for (const auto& s : cfg.shapes) {
    if (!compared(s, cfg) || (o.quick && !s.quick)) continue;
    for (const auto& scalar : cfg.scalars)
      rows.push_back(scalar == "float" ? run_shape<float>(s, o) : run_shape<double>(s, o));
  }
  write_file_atomic(o.out, peer_md(o, cfg, rows, before + " / " + roofline::load_average()));
  fmt::print("wrote {}\n", o.out);
  return 0;
}

}  // namespace
}  // namespace cosda::bench

int main(int argc, char** argv) {
  cosda::roofline::select_openblas_kernels(argv);
  return cosda::exit_status("cosda-peer-torch", [&] { return cosda::bench::run_main(argc, argv); });
}
