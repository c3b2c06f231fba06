// cosda stream: self-attention over a token stream read from .npy (q = k = v = each row).
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>

#include "analysis/token_stream.hpp"
#include "attention/kmeans.hpp"
#include "attention/registry.hpp"
#include "io/npy.hpp"
#include "io/paths.hpp"
#include "sweeps/args.hpp"
#include "sweeps/commands.hpp"
#include "sweeps/point_memory.hpp"
#include "sweeps/variant_lists.hpp"

namespace cosda {
namespace {

using RowMajor = Eigen::Matrix<double, -1, -1, Eigen::RowMajor>;

// The ids of the variants with landmarks of `kind`, comma-separated, for messages.
std::string ids_with(LandmarkKind kind) {
  std::string s;
  for (const auto& v : kVariants)
    if (v.landmarks == kind) s += (s.empty() ? "" : ", ") + std::string(v.id);
  return s;
}

struct Tokens {
  Eigen::MatrixXd x;
  bool float32 = false;  // the file stored float32
};

// X.npy as a T x d matrix, with at least n rows and d divisible by the heads.
Tokens read_tokens(const std::string& in, std::int64_t n, std::int64_t heads) {
  const NpyArray x = read_npy(in);
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
  if (d % heads != 0)
    throw InputError(
        fmt::format("cosda stream: flag --heads ({}) must divide d = {} of {}", heads, d, in));
  return {Eigen::Map<const RowMajor>(x.data.data(), rows, d), x.float32};
}

// The fixed landmarks: L.npy when given (m x d), else the m-means of the tokens.
Eigen::MatrixXd fixed_landmarks(const Args& a, const Eigen::MatrixXd& tokens, std::int64_t m,
                                const std::string& in) {
  const auto l = a.get("landmarks");
  if (!l) return m_means(tokens, m);
  const NpyArray la = read_npy(*l);
  require_rank(la, 2, *l, "(m x d) of landmarks");
  const std::int64_t d = tokens.cols();
  if (std::int64_t(la.shape[0]) != m || std::int64_t(la.shape[1]) != d)
    throw InputError(
        fmt::format("{}: landmarks have shape ({}, {}), expected (m, d) = "
                    "({}, {}); match --m and the width of {}",
                    *l, la.shape[0], la.shape[1], m, d, in));
  return Eigen::Map<const RowMajor>(la.data.data(), m, d);
}

// --exp-shift C (a finite number) or auto (calibrated on the tokens).
double exp_shift(const std::string& shift, const std::string& id, const Config& c,
                 std::int64_t heads, const Eigen::MatrixXd& tokens) {
  if (shift == "auto") {
    const double v = calibrated_exp_shift(id, c, heads, tokens);
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
       {"m", "M", "landmarks (only " + landmark_patterns() + ")"},
       {"heads", "H", "heads, dividing d (default 1)"},
       {"layers", "1|2", "1 block, or the papers' two-block model (default 1)"},
       {"input", "X.npy", "T x d tokens, float32 or float64, C order"},
       {"output", "Y.npy", "outputs from the first full window on; never one of the inputs"},
       {"landmarks", "L.npy", "m x d fixed landmarks (" + fixed_patterns + ")"},
       {"scalar", "double|float",
        "arithmetic precision (default double) and Y's dtype (default: X's dtype)"},
       {"exact-pinv", "",
        "exact pseudo-inverse instead of 6 Razavi iterations (only " + pinv_patterns() + ")"},
       {"exp-shift", "C|auto",
        "stabilised mode (continual variants): exp(s - C); auto calibrates C on X"},
       {"memory-limit", "BYTES",
        "refuse a stream needing more (K, M, G suffixes; default: available memory)"}},
      argv);
}

struct StreamPlan {
  const VariantTraits* t = nullptr;
  std::string id, in, out;
  std::int64_t n = 0, m = 1, heads = 1;
  int layers = 1;
  bool single = false;
};

// The output path: never an input (by identity, whatever the spelling), and writable.
void check_stream_output(const Args& a, const std::string& in, const std::string& out) {
  if (same_file(out, in))
    throw InputError("cosda stream: flag --output '" + out + "' is the --input file '" + in +
                     "'; give another --output");
  if (const auto l = a.get("landmarks"); l && same_file(out, *l))
    throw InputError("cosda stream: flag --output '" + out + "' is the --landmarks file '" + *l +
                     "'; give another --output");
  check_output_file(out, "cosda stream: flag --output");
}

// Every flag checked, and the output path, before anything is read or computed.
StreamPlan stream_plan(const Args& a) {
  StreamPlan s;
  s.id = a.require("variant");
  s.t = find_variant(s.id);
  if (s.t == nullptr)
    throw InputError("cosda stream: flag --variant: unknown id '" + s.id +
                     "'; known: " + variant_list());
  s.in = a.require("input");
  s.out = a.require("output");
  s.n = a.integer("n", 1, 1 << 20);
  s.heads = a.integer("heads", 1, 1 << 16, 1);
  s.layers = int(a.integer("layers", 1, 2, 1));
  s.single = a.choice("scalar", {"double", "float"}, "double") == "float";
  const bool landmarks = s.t->landmarks != LandmarkKind::kNone;
  if (!landmarks && a.has("m"))
    throw InputError("cosda stream: flag --m applies to the variants with landmarks (" +
                     landmark_patterns() + "), not " + s.id + "; drop --m");
  if (!has_pinv(*s.t) && a.has("exact-pinv"))
    throw InputError("cosda stream: flag --exact-pinv applies to the variants with landmarks (" +
                     pinv_patterns() + "), not " + s.id + "; drop --exact-pinv");
  s.m = landmarks ? a.integer("m", 1, 1 << 20) : 1;
  if (landmarks && s.m > s.n)
    throw InputError("cosda stream: flag --m must be at most --n for " + s.id +
                     " (m = " + std::to_string(s.m) + ", n = " + std::to_string(s.n) + ")");
  if (a.has("landmarks") && s.t->landmarks != LandmarkKind::kFixed)
    throw InputError("cosda stream: flag --landmarks applies to fixed-landmark variants (" +
                     ids_with(LandmarkKind::kFixed) + "), not " + s.id);
  if (a.has("exp-shift") && !s.t->continual)
    throw InputError("cosda stream: flag --exp-shift applies to the continual variants (" +
                     id_patterns([](const VariantTraits& v) { return v.continual; }, false) +
                     "), not " + s.id);
  check_stream_output(a, s.in, s.out);
  return s;
}

}  // namespace

int cmd_stream(const Argv& argv) {
  const Args a = stream_args(argv);
  if (a.print_help(
          "usage: cosda stream --variant V --n N [--m M] --input X.npy --output Y.npy\n"
          "                    [--landmarks L.npy] [--heads H] [--layers 1|2] [--scalar S]\n"
          "Self-attention over the stream (q = k = v = each row of X). Y has shape (T-n+1, d)\n"
          "for single-output variants (and two-block continual models), (T-n+1, n, d)\n"
          "otherwise, rows oldest first. Y is float32 when X is, float64 when X is, unless\n"
          "--scalar is given (float: float32, double: float64). Without\n"
          "--landmarks, fixed-landmark variants take the m-means of X (seed 1, k-means++)."))
    return 0;
  a.reject_positional();
  const StreamPlan s = stream_plan(a);
  const Tokens tokens = read_tokens(s.in, s.n, s.heads);
  const Eigen::MatrixXd& x = tokens.x;
  const std::int64_t d = x.cols();
  const std::size_t steps = std::size_t(x.rows() - s.n + 1);
  const bool one_row = s.layers == 2 ? s.t->continual : s.t->single_output;
  const std::vector<std::size_t> shape =
      one_row ? std::vector<std::size_t>{steps, std::size_t(d)}
              : std::vector<std::size_t>{steps, std::size_t(s.n), std::size_t(d)};
  const bool out_float32 = a.has("scalar") ? s.single : tokens.float32;
  // The kernels' peak, the tokens, and the outputs: collected as doubles (a growing vector:
  // up to twice their size) and encoded once more for the file.
  const Point p{.variant = s.id, .n = s.n, .d = d, .m = s.m, .heads = s.heads, .layers = s.layers};
  const double outputs = double(steps) * double(one_row ? 1 : s.n) * double(d);
  check_point_memory("stream", p,
                     kernel_peak_bytes(p, s.single ? 4.0 : 8.0).value_or(0.0) +
                         8.0 * double(x.size()) + outputs * (16.0 + (out_float32 ? 4.0 : 8.0)),
                     memory_limit_bytes(a));
  Config c{.n = s.n, .d = d, .m = s.m, .exact_pinv = a.has("exact-pinv")};
  if (s.t->landmarks == LandmarkKind::kFixed)
    c.fixed_q = c.fixed_k = fixed_landmarks(a, x, s.m, s.in);
  if (const auto shift = a.get("exp-shift")) c.exp_shift = exp_shift(*shift, s.id, c, s.heads, x);
  const std::vector<double> y = run_token_stream(s.id, c, s.heads, s.layers, x,
                                                 s.single ? Precision::kFloat : Precision::kDouble);
  write_npy(s.out, shape, y, out_float32);
  return 0;
}

}  // namespace cosda
