// cosda stream: self-attention over a token stream read from .npy (q = k = v = each row).
#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <limits>

#include "analysis/numerics.hpp"
#include "attention/kmeans.hpp"
#include "attention/multi_head.hpp"
#include "io/npy.hpp"
#include "sweeps/args.hpp"
#include "sweeps/commands.hpp"

namespace cosda {
namespace {

template <class T>
std::vector<double> run_stream(const std::string& id, const Config& c, std::int64_t heads,
                               int layers, const Eigen::MatrixXd& x) {
  MultiHead<Plain<T>> mh(id, c, heads, layers);
  std::vector<double> out;
  Mat<T> token(1, c.d);
  for (std::int64_t t = 0; t < x.rows(); ++t) {
    token = x.row(t).cast<T>();
    if (!mh.step(token.data(), token.data(), token.data())) continue;
    const auto y = mh.output();
    for (std::int64_t r = 0; r < y.rows(); ++r)
      for (std::int64_t j = 0; j < y.cols(); ++j) {
        const double v = double(y(r, j));
        if (!std::isfinite(v))
          throw std::runtime_error(fmt::format(
              "{}: output is not finite at token {} (row {}, feature {}): exp() overflowed, or a "
              "running sum of exponentials cancelled to zero (there is no max-subtraction, as "
              "in the papers); scale the input down{}",
              id, t, r, j,
              c.exp_shift || !find_variant(id)->continual
                  ? ""
                  : " or pass --exp-shift auto (the stabilised mode)"));
        out.push_back(v);
      }
  }
  return out;
}

}  // namespace

int cmd_stream(const Argv& argv) {
  Args a("stream",
         {{"variant", "V", "variant id: " + variant_list()},
          {"n", "N", "window length (tokens)"},
          {"m", "M", "landmarks (Nyström variants; ignored by the others)"},
          {"heads", "H", "heads, dividing d (default 1)"},
          {"layers", "1|2", "1 block, or the papers' two-block model (default 1)"},
          {"input", "X.npy", "T x d tokens, float32 or float64, C order"},
          {"output", "Y.npy", "outputs from the first full window on"},
          {"landmarks", "L.npy", "m x d fixed landmarks (ny_fix, cony_*_fix)"},
          {"scalar", "double|float", "arithmetic precision (default double)"},
          {"exact-pinv", "", "exact pseudo-inverse instead of 6 Razavi iterations"},
          {"exp-shift", "C|auto",
           "stabilised mode (continual variants): exp(s - C); auto calibrates C on X"}},
         argv);
  if (a.help()) {
    fmt::print(
        "usage: cosda stream --variant V --n N [--m M] --input X.npy --output Y.npy\n"
        "                    [--landmarks L.npy] [--heads H] [--layers 1|2] [--scalar S]\n"
        "Self-attention over the stream (q = k = v = each row of X). Y has shape (T-n+1, d)\n"
        "for single-output variants (and two-block continual models), (T-n+1, n, d)\n"
        "otherwise, rows oldest first. Without\n"
        "--landmarks, fixed-landmark variants take the m-means of X (seed 1, k-means++).\n\n{}",
        a.usage());
    return 0;
  }
  if (!a.positional().empty())
    throw InputError("cosda stream: unexpected argument '" + a.positional()[0] +
                     "'; all inputs are flags");
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
    throw InputError(
        "cosda stream: flag --landmarks applies to fixed-landmark variants "
        "(ny_fix, cony_si_fix, cony_re_fix), not " +
        id);

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
  const Eigen::MatrixXd tokens =
      Eigen::Map<const Eigen::Matrix<double, -1, -1, Eigen::RowMajor>>(x.data.data(), rows, d);

  Config c{.n = n, .d = d, .m = landmarks ? m : 1, .exact_pinv = a.has("exact-pinv")};
  if (t->landmarks == LandmarkKind::kFixed) {
    if (const auto l = a.get("landmarks")) {
      const NpyArray la = read_npy(*l);
      require_rank(la, 2, *l, "an m x d array of landmarks");
      if (std::int64_t(la.shape[0]) != m || std::int64_t(la.shape[1]) != d)
        throw InputError(
            fmt::format("{}: landmarks have shape ({}, {}), expected (m, d) = "
                        "({}, {}); match --m and the width of {}",
                        *l, la.shape[0], la.shape[1], m, d, in));
      c.fixed_q =
          Eigen::Map<const Eigen::Matrix<double, -1, -1, Eigen::RowMajor>>(la.data.data(), m, d);
    } else {
      c.fixed_q = m_means(tokens, m);
    }
    c.fixed_k = c.fixed_q;
  }
  if (const auto shift = a.get("exp-shift")) {
    if (!t->continual)
      throw InputError(
          "cosda stream: flag --exp-shift applies to the continual variants "
          "(co_*, cony_*), not " +
          id);
    if (*shift == "auto") {  // one C for all heads: the midpoint of their row-maxima ranges
      double lo = std::numeric_limits<double>::infinity(), hi = -lo;
      const std::int64_t dh = d / heads;
      for (std::int64_t h = 0; h < heads; ++h) {
        Config hc = c;
        hc.d = dh;
        if (c.fixed_q.size() > 0) hc.fixed_q = hc.fixed_k = c.fixed_q.middleCols(h * dh, dh);
        const Eigen::MatrixXd xh = tokens.middleCols(h * dh, dh);
        const auto [l, u] =
            row_max_range(id, hc, Qkv{xh, xh, xh}, std::max<std::int64_t>(1, n / 8));
        lo = std::min(lo, l);
        hi = std::max(hi, u);
      }
      c.exp_shift = 0.5 * (lo + hi);
    } else {
      double v = 0;
      const char* end = shift->data() + shift->size();
      const auto [p, ec] = std::from_chars(shift->data(), end, v);
      if (ec != std::errc() || p != end || !std::isfinite(v))
        throw InputError(
            "cosda stream: flag --exp-shift must be a finite number or 'auto', "
            "got '" +
            *shift + "'");
      c.exp_shift = v;
    }
  }
  const std::vector<double> y = single ? run_stream<float>(id, c, heads, layers, tokens)
                                       : run_stream<double>(id, c, heads, layers, tokens);
  const std::size_t steps = std::size_t(rows - n + 1);
  const bool one_row = layers == 2 ? t->continual : t->single_output;
  std::vector<std::size_t> shape =
      one_row ? std::vector<std::size_t>{steps, std::size_t(d)}
              : std::vector<std::size_t>{steps, std::size_t(n), std::size_t(d)};
  write_npy(out, shape, y, single);
  return 0;
}

}  // namespace cosda
