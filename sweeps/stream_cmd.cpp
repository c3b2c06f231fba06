// cosda stream: self-attention over a token stream read from .npy (q = k = v = each row).
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>

#include "analysis/kmeans.hpp"
#include "analysis/token_stream.hpp"
#include "attention/registry.hpp"
#include "io/atomic_file.hpp"
#include "io/errors.hpp"
#include "io/npy.hpp"
#include "sweeps/args.hpp"
#include "sweeps/commands.hpp"
#include "sweeps/point_memory.hpp"
#include "sweeps/run_checks.hpp"
#include "sweeps/variant_lists.hpp"

namespace cosda {
namespace {

using RowMajor = Eigen::Matrix<double, -1, -1, Eigen::RowMajor>;

struct Tokens {
  Eigen::MatrixXd q, k, v;  // the same matrix thrice for one token file (q = k = v)
  bool float32 = false;     // the (query) file stored float32
};

// One .npy as a T x d matrix, with at least n rows and d divisible by the heads.
NpyArray read_matrix(const std::string& in, std::int64_t n, std::int64_t heads) {
  NpyArray x = read_npy(in);
  require_rank(x, 2, in, "(T x d) of tokens");
  const std::int64_t rows = std::int64_t(x.shape[0]), d = std::int64_t(x.shape[1]);
  if (d == 0)
    throw InputError(
        fmt::format("{}: {} x 0 array: tokens need at least one feature (d >= 1)", in, rows));
  if (rows < n)
    throw InputError(
        fmt::format("{}: {} tokens, fewer than the window n = {}; give at least n "
                    "rows or a smaller --n",
                    in, rows, n));
  check_heads_divide(heads, d, " of " + in, Spelling::command_line("stream"));
  return x;
}

Eigen::MatrixXd matrix(const NpyArray& a) {
  return Eigen::Map<const RowMajor>(a.data.data(), std::int64_t(a.shape[0]),
                                    std::int64_t(a.shape[1]));
}

// --input X.npy (q = k = v), or --q, --k, --v of one shape.
Tokens read_tokens(const std::vector<std::string>& in, std::int64_t n, std::int64_t heads) {
  const NpyArray q = read_matrix(in[0], n, heads);
  Tokens t{matrix(q), {}, {}, q.float32};
  if (in.size() == 1) {
    t.k = t.v = t.q;
    return t;
  }
  for (std::size_t i = 1; i < 3; ++i) {
    const NpyArray a = read_matrix(in[i], n, heads);
    if (a.shape != q.shape)
      throw InputError(
          fmt::format("{}: shape ({}, {}) differs from --q {}'s ({}, {}); q, k and v "
                      "need one shape (T x d)",
                      in[i], a.shape[0], a.shape[1], in[0], q.shape[0], q.shape[1]));
    (i == 1 ? t.k : t.v) = matrix(a);
  }
  return t;
}

// The fixed landmarks: L.npy when given (m x d, for queries and keys), else the m-means of
// the queries and of the keys (one set when q = k).
void fixed_landmarks(const Args& a, const Tokens& x, std::int64_t m, const std::string& in,
                     Config& c) {
  const auto l = a.get("landmarks");
  if (!l) {
    c.fixed_q = m_means(x.q, m);
    c.fixed_k = x.k == x.q ? c.fixed_q : Mat<double>(m_means(x.k, m));
    return;
  }
  const NpyArray la = read_npy(*l);
  require_rank(la, 2, *l, "(m x d) of landmarks");
  const std::int64_t d = x.q.cols();
  if (std::int64_t(la.shape[0]) != m || std::int64_t(la.shape[1]) != d)
    throw InputError(
        fmt::format("{}: landmarks have shape ({}, {}), expected (m, d) = "
                    "({}, {}); match --m and the width of {}",
                    *l, la.shape[0], la.shape[1], m, d, in));
  c.fixed_q = c.fixed_k = Eigen::Map<const RowMajor>(la.data.data(), m, d);
}

// --exp-shift C (a finite number) or auto (calibrated on the tokens).
double exp_shift(const std::string& shift, const std::string& id, const Config& c,
                 std::int64_t heads, const Qkv& x) {
  if (shift == "auto") {
    const double v = calibrated_exp_shift(id, c, heads, x);
    if (!std::isfinite(v))
      throw InputError(
          "cosda stream: flag --exp-shift auto: calibration on the input found no finite shift "
          "(its attention scores overflow double); scale the input down, or give a finite "
          "--exp-shift C");
    return v;
  }
  double v = 0;
  const char* end = shift.data() + shift.size();
  const auto [p, ec] = std::from_chars(shift.data(), end, v);
  if (ec != std::errc() || p != end || !std::isfinite(v))
    throw InputError(
        "cosda stream: flag --exp-shift must be a finite number or 'auto', "
        "got '" +
        shift + "'");
  return v;
}

Args stream_args(const Argv& argv) {
  const std::string fixed_patterns =
      id_patterns([](const VariantTraits& v) { return v.landmarks == LandmarkKind::kFixed; }, true);
  return Args(
      "stream",
      {{"variant", "V", "variant id: " + variant_list()},
       {"n", "N", "window length (tokens)"},
       {"m", "M",
        "landmarks, at most N, or random features, any number (only " + landmark_patterns() + ")"},
       {"heads", "H", "heads, dividing d (default 1)"},
       {"layers", "1|2", "1 block, or the papers' two-block model (default 1)"},
       {"input", "X.npy", "T x d tokens (q = k = v), float32 or float64, C order"},
       {"q", "Q.npy", "T x d queries, with --k and --v instead of --input"},
       {"k", "K.npy", "T x d keys (with --q, --v)"},
       {"v", "V.npy", "T x d values (with --q, --k)"},
       {"output", "Y.npy", "outputs from the first full window on; never one of the inputs"},
       {"landmarks", "L.npy", "m x d fixed landmarks (" + fixed_patterns + ")"},
       {"scalar", "double|float",
        "arithmetic precision (default double) and Y's dtype (default: X's dtype)"},
       {"exact-pinv", "",
        "exact pseudo-inverse instead of 6 Razavi iterations (only " + pinv_patterns() + ")"},
       {"exp-shift", "C|auto",
        "stabilised mode (continual variants): exp(s - C); auto calibrates C on X"},
       {"feature-seed", "S",
        "seed of the random features (only random-feature variants; default 24301)"},
       {"memory-limit", "BYTES",
        "refuse a stream needing more (K, M, G, T suffixes; default: available memory)"}},
      argv);
}

struct StreamPlan {
  RunPlan r;
  std::vector<std::string> in;  // X.npy, or Q.npy, K.npy, V.npy
  std::string out;
  bool single = false;
};

// --input X.npy, or all three of --q, --k, --v.
std::vector<std::string> stream_inputs(const Args& a) {
  const bool x = a.has("input"), q = a.has("q"), k = a.has("k"), v = a.has("v");
  if (x && !q && !k && !v) return {*a.get("input")};
  if (!x && q && k && v) return {*a.get("q"), *a.get("k"), *a.get("v")};
  throw InputError(
      "cosda stream: give the tokens as --input X.npy (q = k = v), or all three of --q Q.npy "
      "--k K.npy --v V.npy");
}

// Each input exists (a pipe such as <(...) does); the output path is never an input (by
// identity, whatever the spelling), and writable.
void check_stream_files(const Args& a, const StreamPlan& s) {
  for (const std::string key : {"input", "q", "k", "v", "landmarks"})
    if (const auto f = a.get(key); f && !std::filesystem::exists(*f))
      throw InputError("cosda stream: flag --" + key + ": no such file '" + *f +
                       "'; give the path of a .npy file");
  for (const std::string key : {"input", "q", "k", "v", "landmarks"})
    if (const auto f = a.get(key); f && same_file(s.out, *f))
      throw InputError("cosda stream: flag --output '" + s.out + "' is the --" + key + " file '" +
                       *f + "'; give another --output");
  try {
    check_output_file(s.out);
  } catch (const InputError& e) {
    throw InputError("cosda stream: flag --output: " + std::string(e.what()));
  }
}

// Every flag (sweeps/run_checks.hpp) and the output path, checked before anything is read.
StreamPlan stream_plan(const Args& a) {
  StreamPlan s;
  RunRequest r = request_of(a);
  s.r = check_run(r, Spelling::command_line("stream"));
  s.in = stream_inputs(a);
  s.out = a.require("output");
  s.single = a.choice("scalar", {"double", "float"}, "double") == "float";
  check_stream_files(a, s);
  return s;
}

}  // namespace

int cmd_stream(const Argv& argv) {
  const Args a = stream_args(argv);
  if (a.print_help(
          "usage: cosda stream --variant V --n N [--m M] --input X.npy --output Y.npy\n"
          "       cosda stream --variant V --n N [--m M] --q Q.npy --k K.npy --v V.npy\n"
          "                    --output Y.npy\n"
          "                    [--landmarks L.npy] [--heads H] [--layers 1|2] [--scalar S]\n"
          "Self-attention over the stream (q = k = v = each row of X), or attention over the\n"
          "rows of Q, K and V (one step per row). Y has shape (T-n+1, d)\n"
          "for single-output variants (and two-block continual models), (T-n+1, n, d)\n"
          "otherwise, rows oldest first. Y has X's dtype (float32 or float64) unless --scalar\n"
          "is given (float: float32, double: float64). Without\n"
          "--landmarks, fixed-landmark variants take the m-means of X (seed 1, k-means++)."))
    return 0;
  a.reject_positional();
  const StreamPlan s = stream_plan(a);
  const RunPlan& r = s.r;
  const Tokens tokens = read_tokens(s.in, r.n, r.heads);
  const Qkv x{tokens.q, tokens.k, tokens.v};
  const std::int64_t d = x.q.cols();
  const std::size_t steps = std::size_t(x.rows() - r.n + 1);
  const std::vector<std::size_t> shape =
      r.one_row ? std::vector<std::size_t>{steps, std::size_t(d)}
                : std::vector<std::size_t>{steps, std::size_t(r.n), std::size_t(d)};
  const bool out_float32 = a.has("scalar") ? s.single : tokens.float32;
  // The kernels' peak, the tokens (once, or q, k and v), and the outputs: collected as doubles
  // (a growing vector: up to twice their size) and encoded once more for the file.
  const Point p{.variant = r.id, .n = r.n, .d = d, .m = r.m, .heads = r.heads, .layers = r.layers};
  const double outputs = double(steps) * double(r.one_row ? 1 : r.n) * double(d);
  check_point_memory(Spelling::command_line("stream"), p,
                     kernel_peak_bytes(p, s.single ? 4.0 : 8.0).value_or(0.0) +
                         8.0 * double(x.q.size() * std::int64_t(s.in.size())) +
                         outputs * (16.0 + (out_float32 ? 4.0 : 8.0)),
                     memory_limit_bytes(a), x.rows());
  Config c{.n = r.n, .d = d, .m = r.m, .exact_pinv = a.has("exact-pinv")};
  if (r.feature_seed) c.feature_seed = *r.feature_seed;
  if (r.traits->landmarks == LandmarkKind::kFixed) fixed_landmarks(a, tokens, r.m, s.in[0], c);
  if (const auto shift = a.get("exp-shift")) c.exp_shift = exp_shift(*shift, r.id, c, r.heads, x);
  const std::vector<double> y = run_token_stream(r.id, c, r.heads, r.layers, x,
                                                 s.single ? Precision::kFloat : Precision::kDouble);
  write_npy(s.out, shape, y, out_float32);
  return 0;
}

}  // namespace cosda
