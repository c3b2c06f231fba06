// Evaluation order of the product chains (docs/counting.md, "Product chains"): a matrix-chain
// helper computes the cheapest association of each chain from its dimensions alone, and the
// multiplications each variant executes for the chain in a steady-state step (ChainScope,
// attention/counting/chain_tally.hpp) equal it; where cosda keeps another order on purpose, they
// equal that order's cost, which the table in docs/counting.md gives beside the optimum.
#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "attention/counting/chain_tally.hpp"
#include "tests/test_util.hpp"

namespace cosda::test {
namespace {

// One factor of a chain: a rows x cols matrix, or a diagonal (rows = cols) stored as a vector.
struct Factor {
  std::int64_t rows, cols;
  bool diagonal = false;
};
Factor dense(std::int64_t r, std::int64_t c) { return {r, c, false}; }
Factor diag(std::int64_t k) { return {k, k, true}; }

// Multiplications of l r: a diagonal scales the other side's rows or columns.
std::int64_t product_cost(const Factor& l, const Factor& r) {
  if (l.diagonal && r.diagonal) return l.rows;
  if (l.diagonal) return r.rows * r.cols;
  if (r.diagonal) return l.rows * l.cols;
  return l.rows * l.cols * r.cols;
}

// The cheapest association of the chain (dynamic programming over its intervals).
std::int64_t cheapest(const std::vector<Factor>& f) {
  const std::size_t k = f.size();
  std::vector<std::vector<std::int64_t>> best(k, std::vector<std::int64_t>(k, 0));
  std::vector<std::vector<Factor>> shape(k, std::vector<Factor>(k));
  for (std::size_t i = 0; i < k; ++i) shape[i][i] = f[i];
  for (std::size_t len = 2; len <= k; ++len)
    for (std::size_t i = 0; i + len <= k; ++i) {
      const std::size_t j = i + len - 1;
      best[i][j] = std::numeric_limits<std::int64_t>::max();
      for (std::size_t s = i; s < j; ++s)
        best[i][j] = std::min(
            best[i][j], best[i][s] + best[s + 1][j] + product_cost(shape[i][s], shape[s + 1][j]));
      shape[i][j] = {f[i].rows, f[j].cols, shape[i][j - 1].diagonal && f[j].diagonal};
    }
  return best[0][k - 1];
}

// The cost of one association, given as the merges in order: merge i joins items i and i + 1.
std::int64_t cost_of(std::vector<Factor> f, const std::vector<std::size_t>& merges) {
  std::int64_t total = 0;
  for (const std::size_t i : merges) {
    total += product_cost(f[i], f[i + 1]);
    f[i] = {f[i].rows, f[i + 1].cols, f[i].diagonal && f[i + 1].diagonal};
    f.erase(f.begin() + std::ptrdiff_t(i) + 1);
  }
  return total;
}

TEST(ChainOrder, HelperFindsTheTextbookOptimum) {
  // CLRS 15.2: 10x100, 100x5, 5x50 costs 7500 as (A1 A2) A3 and 75000 the other way.
  const std::vector<Factor> abc = {dense(10, 100), dense(100, 5), dense(5, 50)};
  EXPECT_EQ(cheapest(abc), 7500);
  EXPECT_EQ(cost_of(abc, {1, 0}), 75000);
  // A diagonal goes to the smaller side: diag(3) (3 x 40) (40 x 2) scales the 3 x 2 result.
  EXPECT_EQ(cheapest({diag(3), dense(3, 40), dense(40, 2)}), 3 * 40 * 2 + 6);
}

// The chains' multiplications in the first steady-state plain step after 2n tokens.
ChainTally chains_of_step(const std::string& id, const Shape& s, int layers) {
  Config c{.n = s.n, .d = s.d, .m = s.m};
  if (find_variant(id)->landmarks == LandmarkKind::kFixed)
    c.fixed_q = c.fixed_k = random_stream(s.m, s.d, 3);
  auto v = make_model<Tally<double>>(id, c, layers);
  const MatD x = random_stream(3 * s.n, s.d, 11);
  for (std::int64_t i = 0; i < x.rows(); ++i) {
    const Mat<double> xi = x.row(i);
    if (i < 2 * s.n) {
      v->step(xi.data(), xi.data(), xi.data());
      continue;
    }
    ChainTally t;
    const RecordChains record(t);
    v->step(xi.data(), xi.data(), xi.data());
    if (!v->updated_landmarks()) return t;
  }
  ADD_FAILURE() << id << ": no plain step";
  return {};
}

// Shapes with m <= d and m <= n (landmarks and features fewer than tokens and features).
const Shape kShapes[] = {{12, 16, 3}, {20, 8, 4}, {120, 192, 4}};

// The single-output steps: the landmark row against Delta_phi V, one row from the left.
TEST(ChainOrder, ContinualSingleOutputNystromRowIsCheapest) {
  for (const Shape& s : kShapes)
    for (const char* id : {"cony_si_fix", "cony_si_cont"}) {
      const ChainTally t = chains_of_step(id, s, 1);
      const std::vector<Factor> chain = {dense(1, s.m), dense(s.m, s.m), diag(s.m),
                                         dense(s.m, s.d)};
      EXPECT_EQ(t.mul.at("beta_phi G") + t.mul.at("row Delta_phi V"), cheapest(chain))
          << shape_name(id, s);
    }
}

// The two-block models' single-output second blocks over the first block's window.
TEST(ChainOrder, TwoBlockSecondBlocksAreCheapest) {
  for (const Shape& s : kShapes) {
    for (const char* id : {"cony_si_fix", "cony_si_cont", "cony_re_fix", "cony_re_cont"}) {
      const ChainTally t = chains_of_step(id, s, 2);
      const std::vector<Factor> chain = {dense(1, s.m), dense(s.m, s.m), diag(s.m), dense(s.m, s.n),
                                         dense(s.n, s.d)};
      EXPECT_EQ(t.mul.at("nystrom one row: ((beta_phi G) Delta_phi) V"), cheapest(chain))
          << shape_name(id, s);
    }
    for (const char* id : {"corf_si", "corf_re"}) {
      const ChainTally t = chains_of_step(id, s, 2);
      const std::vector<Factor> chain = {dense(1, s.m), dense(s.m, s.n), dense(s.n, s.d)};
      EXPECT_EQ(t.mul.at("(u phi(K)^T) V"), cheapest(chain)) << shape_name(id, s);
    }
  }
}

// The orders that are not the cheapest at every shape (docs/counting.md says why): executed
// equals the order's cost, and the optimum is the table's form, also where the window is
// shorter than twice the rank (n < 2m: the n x n product first is cheapest for ny and rf).
TEST(ChainOrder, KeptOrdersCostWhatTheTableSays) {
  std::vector<Shape> shapes(std::begin(kShapes), std::end(kShapes));
  shapes.insert(shapes.end(), {{8, 200, 8}, {4, 64, 4}, {16, 200, 8}});
  for (const Shape& s : shapes) {
    const std::int64_t n = s.n, d = s.d, m = s.m;
    // Nyström over a window: B_phi ((G) (diag (Delta V))) as (B_phi G) (diag(1/phi) (Delta V)).
    const std::vector<Factor> window = {dense(n, m), dense(m, m), diag(m), dense(m, n),
                                        dense(n, d)};
    const std::int64_t kept = cost_of(window, {3, 2, 0, 0});
    for (const char* id : {"ny", "ny_fix"}) {
      const ChainTally t = chains_of_step(id, s, 1);
      EXPECT_EQ(t.mul.at("nystrom window: B_phi G (Delta_phi V)"), kept) << shape_name(id, s);
    }
    // Not yet the cheapest (docs/counting.md): D on G (m^2, not md), G (Delta V) at d < n, and
    // at n (m + d) < 2md the n x n product B_phi G D Delta first.
    EXPECT_EQ(cheapest(window), std::min(2 * n * d * m + std::min(n * m * m, m * m * d) + m * m,
                                         n * (m * m + m + n * m + n * d)))
        << shape_name("ny", s);
    // Retroactive continual Nyström: the n kept rows of B_phi G against diag(1/phi) Delta V.
    const std::vector<Factor> rows = {dense(n, m), diag(m), dense(m, d)};
    for (const char* id : {"cony_re_fix", "cony_re_cont"}) {
      if (n == m) continue;  // continual landmarks: every step an update
      const ChainTally t = chains_of_step(id, s, 1);
      EXPECT_EQ(t.mul.at("rows Delta_phi V"), cost_of(rows, {1, 0})) << shape_name(id, s);
    }
    EXPECT_EQ(cost_of(rows, {1, 0}) - cheapest(rows), std::max<std::int64_t>(0, m * (d - n)));
    // Random features: the denominators scale the output rows (r d), not the features (r m).
    const std::vector<Factor> rf = {diag(n), dense(n, m), dense(m, n), dense(n, d)};
    const ChainTally t = chains_of_step("rf", s, 1);
    EXPECT_EQ(t.mul.at("phi(K)^T V") + t.mul.at("D phi(Q) S"), cost_of(rf, {2, 1, 0}))
        << shape_name("rf", s);
    EXPECT_EQ(cheapest(rf),
              std::min(2 * n * d * m + n * std::min(m, d), n * n * (m + d) + n * std::min(n, d)))
        << shape_name("rf", s);
    const std::vector<Factor> one = {diag(1), dense(1, m), dense(m, d)};
    const ChainTally u = chains_of_step("corf_si", s, 1);
    EXPECT_EQ(u.mul.at("D phi(Q) S"), cost_of(one, {1, 0})) << shape_name("corf_si", s);
    EXPECT_EQ(cost_of(one, {1, 0}) - cheapest(one), std::max<std::int64_t>(0, d - m));
  }
}

}  // namespace
}  // namespace cosda::test
