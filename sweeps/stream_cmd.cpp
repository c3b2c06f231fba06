// cosda stream: self-attention over a token stream read from .npy (q = k = v = each row).
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>

#include "analysis/token_stream.hpp"
#include "attention/kmeans.hpp"
#include "attention/registry.hpp"
#include "io/npy.hpp"
#include "sweeps/args.hpp"
#include "sweeps/commands.hpp"

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

// The variants `keep` selects as comma-separated patterns, for help and messages: a continual
// variant's id folds to its first word, "*" and, with `last_word`, its last word (co_*,
// cony_*_fix), the others' ids stay whole.
template <class Keep>
std::string id_patterns(Keep keep, bool last_word) {
  std::vector<std::string> patterns;
  for (const auto& v : kVariants) {
    if (!keep(v)) continue;
    std::string p(v.id);
    if (v.continual)
      p = p.substr(0, p.find('_')) + "_*" + (last_word ? p.substr(p.rfind('_')) : "");
    if (std::find(patterns.begin(), patterns.end(), p) == patterns.end()) patterns.push_back(p);
  }
  std::string s;
  for (const auto& p : patterns) s += (s.empty() ? "" : ", ") + p;
  return s;
}

// X.npy as a T x d matrix, with at least n rows and d divisible by the heads.
Eigen::MatrixXd read_tokens(const std::string& in, std::int64_t n, std::int64_t heads) {
  const NpyArray x = read_npy(in);
  require_rank(x, 2, in, "a T x d array of tokens");
  const std::int64_t rows = std::int64_t(x.shape[0]), d = std::int64_t(x.shape[1]);
  if (rows < n)
    throw InputError(
        fmt::format("{}: {} tokens, fewer than the window n = {}; give at least n "
                    "rows or a smaller --n",
                    in, rows, n));
  if (d % heads != 0)
    throw InputError(
        fmt::format("cosda stream: flag --heads ({}) must divide d = {} of {}", heads, d, in));
  return Eigen::Map<const RowMajor>(x.data.data(), rows, d);
}

// The fixed landmarks: L.npy when given (m x d), else the m-means of the tokens.
Eigen::MatrixXd fixed_landmarks(const Args& a, const Eigen::MatrixXd& tokens, std::int64_t m,
                                const std::string& in) {
  const auto l = a.get("landmarks");
  if (!l) return m_means(tokens, m);
  const NpyArray la = read_npy(*l);
  require_rank(la, 2, *l, "an m x d array of landmarks");
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
  if (shift == "auto") return calibrated_exp_shift(id, c, heads, tokens);
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
  return Args("stream",
              {{"variant", "V", "variant id: " + variant_list()},
               {"n", "N", "window length (tokens)"},
               {"m", "M", "landmarks (Nyström variants; ignored by the others)"},
               {"heads", "H", "heads, dividing d (default 1)"},
               {"layers", "1|2", "1 block, or the papers' two-block model (default 1)"},
               {"input", "X.npy", "T x d tokens, float32 or float64, C order"},
               {"output", "Y.npy", "outputs from the first full window on"},
               {"landmarks", "L.npy", "m x d fixed landmarks (" + fixed_patterns + ")"},
               {"scalar", "double|float", "arithmetic precision (default double)"},
               {"exact-pinv", "", "exact pseudo-inverse instead of 6 Razavi iterations"},
               {"exp-shift", "C|auto",
                "stabilised mode (continual variants): exp(s - C); auto calibrates C on X"}},
              argv);
}

}  // namespace

int cmd_stream(const Argv& argv) {
  const Args a = stream_args(argv);
  if (a.print_help(
          "usage: cosda stream --variant V --n N [--m M] --input X.npy --output Y.npy\n"
          "                    [--landmarks L.npy] [--heads H] [--layers 1|2] [--scalar S]\n"
          "Self-attention over the stream (q = k = v = each row of X). Y has shape (T-n+1, d)\n"
          "for single-output variants (and two-block continual models), (T-n+1, n, d)\n"
          "otherwise, rows oldest first. Without\n"
          "--landmarks, fixed-landmark variants take the m-means of X (seed 1, k-means++)."))
    return 0;
  a.reject_positional();
  const std::string id = a.require("variant");
  const VariantTraits* t = find_variant(id);
  if (t == nullptr)
    throw InputError("cosda stream: flag --variant: unknown id '" + id +
                     "'; known: " + variant_list());
  const std::string in = a.require("input"), out = a.require("output");
  const std::int64_t n = a.integer("n", 1, 1 << 20);
  const std::int64_t heads = a.integer("heads", 1, 1 << 16, 1);
  const int layers = int(a.integer("layers", 1, 2, 1));
  const bool single = a.choice("scalar", {"double", "float"}, "double") == "float";
  const bool landmarks = t->landmarks != LandmarkKind::kNone;
  const std::int64_t m = a.integer("m", 1, 1 << 20, landmarks ? std::nullopt : std::optional(1));
  if (landmarks && m > n)
    throw InputError("cosda stream: flag --m must be at most --n for " + id +
                     " (m = " + std::to_string(m) + ", n = " + std::to_string(n) + ")");
  if (a.has("landmarks") && t->landmarks != LandmarkKind::kFixed)
    throw InputError("cosda stream: flag --landmarks applies to fixed-landmark variants (" +
                     ids_with(LandmarkKind::kFixed) + "), not " + id);

  const Eigen::MatrixXd tokens = read_tokens(in, n, heads);
  const std::int64_t d = tokens.cols();
  Config c{.n = n, .d = d, .m = landmarks ? m : 1, .exact_pinv = a.has("exact-pinv")};
  if (t->landmarks == LandmarkKind::kFixed)
    c.fixed_q = c.fixed_k = fixed_landmarks(a, tokens, m, in);
  if (const auto shift = a.get("exp-shift")) {
    if (!t->continual)
      throw InputError("cosda stream: flag --exp-shift applies to the continual variants (" +
                       id_patterns([](const VariantTraits& v) { return v.continual; }, false) +
                       "), not " + id);
    c.exp_shift = exp_shift(*shift, id, c, heads, tokens);
  }
  const std::vector<double> y = run_token_stream(id, c, heads, layers, tokens,
                                                 single ? Precision::kFloat : Precision::kDouble);
  const std::size_t steps = std::size_t(tokens.rows() - n + 1);
  const bool one_row = layers == 2 ? t->continual : t->single_output;
  std::vector<std::size_t> shape =
      one_row ? std::vector<std::size_t>{steps, std::size_t(d)}
              : std::vector<std::size_t>{steps, std::size_t(n), std::size_t(d)};
  write_npy(out, shape, y, single);
  return 0;
}

}  // namespace cosda
