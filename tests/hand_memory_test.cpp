// Independent anchors for the memory figures: valley and peak of a steady-state step counted
// by hand, buffer by buffer, from what each kernel keeps and when it reads it, against what
// measure() finds by tracing the kernel's reads and writes (attention/counting/liveness.hpp).
//
// The rules the hand counts follow (docs/counting.md, "Memory"): a value is live from its
// write to its last read; the valley is what crosses a step boundary, the peak the most live
// at one op. The step's input token (3 d) is written at its start, its output read at its end.
// A ring slot the next step overwrites before reading it is dead once this step has read it:
// the rings of att, ny_fix and rf (recomputed from scratch), co_si's K and V, co_re's Q; a
// ring whose leaving token is read by the next step (a running sum slides it out) keeps all n.
// Measured steps have the oldest token in ring slot 1, so outputs in window order take two
// ops (rows 1..n-1, then row 0). Counts are per head (heads = 1).
#include <algorithm>
#include <map>

#include "analysis/measure.hpp"
#include "attention/counting/liveness.hpp"
#include "models/multi_head.hpp"
#include "tests/test_util.hpp"

namespace cosda::test::hand_memory {
namespace {

using I = std::int64_t;

struct Memory {
  I valley, peak;
};

// att: Q, K, V rings; the oldest token of each is overwritten next step: 3 (n-1) d. Peak: at
// A V (Eq. 1), Q and K less their oldest token, V, A (n^2), A 1 (n), the output (n d); at
// Q K^T, K whole and Q / sqrt(d) (n d) instead, without A 1 and the output.
Memory att(I n, I d) {
  const I at_av = 2 * (n - 1) * d + n * d + n * n + n + n * d;
  const I at_qk = (n - 1) * d + n * d + n * d + n * d + n * n;
  return {3 * (n - 1) * d, std::max(at_av, at_qk)};
}

// co_si: K and V rings less the slot overwritten next step. Peak at a = exp(q K^T) (Eq. 7):
// all of K (its oldest token read now), V, the scaled q (d) and a (n); or, where d > n, at
// q / sqrt(d): K, V, the input q and the scaled one (d each).
Memory co_si(I n, I d) { return {2 * (n - 1) * d, 2 * n * d + d + std::max(n, d)}; }

// co_re: Q (less the next slot), K and V whole (k_old, v_old are read by the next update,
// Eqs. 2, 4), AV and d per query less the next slot's (Eqs. 3, 5 overwrite them). Peak at the
// first op of Eq. 6: AV whole, 1/d (n) and n - 1 rows of the output.
Memory co_re(I n, I d) {
  const I valley = (n - 1) * d + 2 * n * d + (n - 1) * d + (n - 1);
  return {valley, valley + d + n + (n - 1) * d};
}

// ny_fix: Q, K, V rings less their oldest token, and the fixed Qt, Kt (m d each) and
// Gamma_phi^+ (m^2). Peak at B_phi = exp(Qs Kt^T) (Eq. 10): Q less its oldest, K and V whole,
// Qs (n d), B (n m); or at the last product (Eq. 8): B_phi Gamma_phi^+ (n m), Delta_phi V (m d)
// and the output (n d).
Memory ny_fix(I n, I d, I m) {
  const I fixed = 2 * m * d + m * m;
  const I at_b = (n - 1) * d + 2 * n * d + fixed + n * d + n * m;
  const I at_out = 3 * (n - 1) * d + fixed + n * m + m * d + n * d;
  return {3 * (n - 1) * d + fixed, std::max(at_b, at_out)};
}

// ny: Q, K, V rings less their oldest token; the landmarks are recomputed every step (Sec.
// IV-C). Peak at B_phi = exp(Qs Kt^T) (Eq. 10): Q less its oldest, K and V whole, Qs (n d), the
// segment means Qt and Kt (m d each), B (n m); the last product holds less (n d + 2 d + m d).
Memory ny(I n, I d, I m) { return {3 * (n - 1) * d, (n - 1) * d + 3 * n * d + 2 * m * d + n * m}; }

// The continual fixed-landmark state (Sec. IV-B): V whole and every token's scores rho(Qt, k)
// (n m; v_old and its scores slide out of Delta V, Eqs. 24-25: the landmarks are fixed, so the
// scores need not be recomputed from K), Qt, Kt, Gamma_phi^+, Delta V (m d), phi(Delta) (m).
I fixed_landmark_state(I n, I d, I m) { return n * d + n * m + 3 * m * d + m * m + m; }

// cony_si_fix: the state. Peak beyond it: at the slide, the input token (3 d) and the new key's
// scores (m); while the row is scaled (Eq. 26), the row and the reciprocals 1/phi(Delta) (2 m);
// at the last product, the row and the output (m + d, less than the first). Delta V itself is
// state: the row is scaled, not Delta V.
Memory cony_si_fix(I n, I d, I m) {
  const I state = fixed_landmark_state(n, d, m);
  return {state, state + std::max(3 * d + m, 2 * m)};
}

// cony_re_fix: the state and B_phi Gamma_phi^+ less the next slot's row ((n - 1) m). Peak at
// the one op of Eq. 23 (both runs of the ring): Delta_phi V (m d), the whole output (n d) and
// the next slot's row of B_phi Gamma_phi^+ (m), read there for the last time.
Memory cony_re_fix(I n, I d, I m) {
  const I valley = fixed_landmark_state(n, d, m) + (n - 1) * m;
  return {valley, valley + m * d + n * d + m};
}

// rf: Q, K, V rings less their oldest token and the features (m d). Peak at phi(Q) S
// (the output, n d; phi(Q), n m; S, m d; z, m) or at phi(Q) z (the same with the
// denominators, n, for S).
Memory rf(I n, I d, I m) {
  const I valley = 3 * (n - 1) * d + m * d;
  return {valley, valley + n * d + n * m + m + std::max(m * d, n)};
}

// corf_si: V whole and the keys' features whole (both slide out of S and z), S (m d), z (m),
// the features (m d). Peak at the new key's features: the input token (3 d) and them (m).
Memory corf_si(I n, I d, I m) {
  const I valley = n * d + n * m + m * d + m + m * d;
  return {valley, valley + 3 * d + m};
}

// corf_re: corf_si's state and the queries' features less the next slot's ((n - 1) m). Peak at
// the one op of the outputs (ops::heads_attend_cols): the whole output (n d) and the next slot's
// query features (m), read there for the last time; the denominators are written and read
// within that op.
Memory corf_re(I n, I d, I m) {
  const I valley = n * d + n * m + m * d + m + m * d + (n - 1) * m;
  return {valley, valley + n * d + m};
}

// cony_re_cont (Sec. IV-A; App. B.8 itemises the same buffers). What a boundary g steps before
// the next landmark update (g >= 1) holds:
//   K, V whole (the leaving token's rows slide out of Delta V, Eqs. 17, 24-25);
//   Q, B and phi(B) are reread only by updates (Eqs. 13, 15, 18 and the new B_phi Gamma_phi^+),
//   so only the tokens still in the window then count: n - g rows of d + m + 1;
//   B_phi Gamma_phi^+ less the next slot's row ((n - 1) m), or none where the update rewrites it;
//   Qt, Kt, Delta V, phi(Delta), Gamma_phi^+ whole, less, before the update, the replaced
//   landmark's rows and Gamma_phi^+ (rewritten unread: Eqs. 16-17, the pseudo-inverse);
//   Gamma and phi(Gamma) less the next replaced landmark's row and entry, rewritten unread
//   (Eq. 16's row; Eq. 19 reads Gamma's old column only for the other landmarks).
// App. B.8 keeps Q, K, V less a token each, B and phi(B) whole, and a (Delta V)_prev beside
// Delta V; this kernel updates Delta V in place. Its 5 m^2 for the pseudo-inverse is the
// update step's below.
I cony_re_cont_state(I n, I d, I m, I g) {
  const I rows = (n - g) * (d + m + 1), before = g == 1;
  const I bg = before ? 0 : (n - 1) * m;
  const I landmarks = 2 * m * d + m * d + m - before * (3 * d + 1), pinv = before ? 0 : m * m;
  return 2 * n * d + rows + bg + landmarks + pinv + (m * m - m) + (m - 1);
}

// A plain step (Eq. 23), g >= 2 steps before the update. Live at each op, in the kernel's order,
// beside the state:
//   the token's q, k, v (3d) at its start and the slide (Eqs. 24-25);
//   q, k, v copied over the leaving rows (net +d) and q scaled: y below;
//   B's new row (m) with phi(B)'s entry, its scaled copy (m), the row of B_phi Gamma_phi^+ (m);
//   1/phi(Delta) (m), then Delta_phi V (md);
//   the output, one op over both runs of the ring (ops::heads_ring_gemm_nn): all n d written
//   while every row of B_phi Gamma_phi^+ is read, the rows the next step rewrites unread too.
// The step before an update (g = 2) reads for the last time the replaced landmark's Qt row (at
// the slide), its Kt row (at B's row), Gamma_phi^+ (at the product), its phi(Delta) entry (at
// the reciprocals) and Delta V row (at Delta_phi V).
I cony_re_cont_plain(I n, I d, I m, I g) {
  const I last = g == 2;
  const I y = cony_re_cont_state(n, d, m, g) + d;
  const I qt = last * d, kt = last * d, gp = last * m * m;
  const I stored = y + 2 * m + 1 - qt - kt - gp;  // B's row, its B_phi Gamma_phi^+ row, phi
  const I normalized = stored + m * d - last * (d + 1);
  return std::max({y + 2 * d, y + m - qt, y + 3 * m + 1 - qt - kt, stored + m,
                   stored + m + m * d - last, normalized + n * d});
}

// An update step (Eq. 21) at ring slot j, the next segment s >= 2 tokens long (its step is
// plain). Live at each op, in the kernel's order, beside the state g = 1 before it:
//   the token (3d) and the slide; q scaled in its ring row (d);
//   the segment means (2d, Eqs. 13-14), copied into the landmark pair's rows (2d);
//   Gamma's new column (at most m - 1) and row (m) and phi(Gamma)'s entry (Eqs. 16, 19);
//   1/phi(Gamma) (m); Gamma_phi (m^2), after which the next replaced landmark's Gamma row
//   and phi(Gamma) entry are dead; the pseudo-inverse: X, Z, X Z and two iterates, 5 m^2 in
//   every iteration but the last (4 m^2 there);
//   Delta's new row (n weights), phi(Delta)'s entry and Delta V's row (Eqs. 17, 20);
//   B's new column in two ring ranges, 0..j-1 then j+1..n-1 (Eqs. 15, 18): the first range
//   reads for the last time the q rows of those of the s oldest tokens it holds (they leave
//   before the next update); B's new row (m) and phi(B)'s entry;
//   1/phi(B) (n); B_phi (nm), while the s oldest tokens' rows of B and phi(B) are read for
//   the last time; B_phi Gamma_phi^+ (nm); then the output as in a plain step.
I cony_re_cont_update(I n, I d, I m, I j, I s, int iterations) {
  const I v = cony_re_cont_state(n, d, m, 1);
  const I lm = v + 3 * d;  // the scaled q row and the new landmark pair
  const I gamma = lm + 2 * m + m * m;
  const I pinv = lm + (iterations >= 2 ? 5 : 4) * m * m;
  const I delta = lm + m * m + n + 1 + d;
  const I a = lm + d + m * m + 1;                   // Gamma_phi^+, Delta V's row, phi entry
  const I wrapped = std::max<I>(0, j + s - n + 1);  // oldest rows in the first range
  const I cols = std::max(j > 0 ? a + j : 0, a + (n - j - 1) - wrapped * d);
  const I b = a - s * d + m + 1;             // B's new row and phi(B) entry
  const I bg = b - s * (m + 1) + 2 * n * m;  // B_phi and B_phi Gamma_phi^+
  const I w = b - s * (m + 1) + n * m;       // B_phi Gamma_phi^+ kept
  return std::max({v + 3 * d, lm + d, gamma, pinv, delta, cols, b + n + n * m - s, bg,
                   w + m + m * d, w + m * d + n * d});
}

// The hand peaks of the steps measure() traces: the n steps after the first window, at ring
// slots 0..n-1, over which the m landmarks are replaced in turn (Sec. IV-C: segment l holds
// floor(n/m) tokens, one more for l < n mod m; its update ends it). Every segment here has two
// tokens or more (n >= 2m).
struct CyclePeaks {
  std::vector<I> peaks;
  std::vector<bool> updated;
};
CyclePeaks cony_re_cont_cycle(I n, I d, I m, int iterations) {
  const auto size = [&](I l) { return n / m + (l < n % m ? 1 : 0); };
  CyclePeaks c;
  for (I l = 0, end = 0; l < m; ++l) {
    const I start = end;
    end += size(l);
    for (I i = start; i + 1 < end; ++i) {
      c.peaks.push_back(cony_re_cont_plain(n, d, m, end - i));
      c.updated.push_back(false);
    }
    c.peaks.push_back(cony_re_cont_update(n, d, m, end - 1, size((l + 1) % m), iterations));
    c.updated.push_back(true);
  }
  return c;
}

// The valley: the state grows by d + m + 1 per step as an update nears, and at g = 1 loses
// B_phi Gamma_phi^+, Gamma_phi^+ and the replaced landmark's rows, far more: the fullest
// boundary is g = 2. The peak: the cycle's largest.
Memory cony_re_cont(I n, I d, I m) {
  const CyclePeaks c = cony_re_cont_cycle(n, d, m, Config{}.pinv_iterations);
  return {cony_re_cont_state(n, d, m, 2), *std::max_element(c.peaks.begin(), c.peaks.end())};
}

struct HandShape {
  I n, d, m;
};
// Three small shapes: d < n with m = 2 and m = 3, and d > n.
constexpr HandShape kShapes[] = {{9, 6, 2}, {11, 4, 3}, {8, 20, 3}};

Memory hand(const std::string& id, const HandShape& s) {
  const auto [n, d, m] = s;
  if (id == "att") return att(n, d);
  if (id == "co_si") return co_si(n, d);
  if (id == "co_re") return co_re(n, d);
  if (id == "ny") return ny(n, d, m);
  if (id == "ny_fix") return ny_fix(n, d, m);
  if (id == "cony_si_fix") return cony_si_fix(n, d, m);
  if (id == "cony_re_fix") return cony_re_fix(n, d, m);
  if (id == "rf") return rf(n, d, m);
  if (id == "corf_si") return corf_si(n, d, m);
  if (id == "corf_re") return corf_re(n, d, m);
  if (id == "cony_re_cont") return cony_re_cont(n, d, m);
  return {-1, -1};
}

// The variants without a hand count here, and why.
const std::map<std::string, std::string> kNotCounted = {
    {"cony_si_cont",
     "counted by hand in tests/memory_test.cpp (MemoryByBuffer.ContinualLandmarkState)"},
};

class HandMemory : public ::testing::TestWithParam<std::string> {};

TEST_P(HandMemory, MeasuredValleyAndPeakEqualTheHandCount) {
  const std::string id = GetParam();
  for (const HandShape& s : kShapes) {
    SCOPED_TRACE(shape_name(id, {s.n, s.d, s.m}));
    const bool landmarks = find_variant(id)->landmarks != LandmarkKind::kNone;
    const Cost c = measure({id, s.n, s.d, landmarks ? s.m : 1});
    const Memory h = hand(id, s);
    EXPECT_EQ(c.valley, h.valley);
    EXPECT_EQ(c.peak, h.peak);
  }
}

std::vector<std::string> counted_ids() {
  std::vector<std::string> ids;
  for (const std::string& id : variant_ids())
    if (!kNotCounted.contains(id)) ids.push_back(id);
  return ids;
}

INSTANTIATE_TEST_SUITE_P(Counted, HandMemory, ::testing::ValuesIn(counted_ids()),
                         [](const auto& info) { return info.param; });

// The peak of every step of cony_re_cont's cycle, as measure() traces it (warm-up of n tokens,
// n measured steps, look-ahead), against the hand count of its phase; and the cycle's plain and
// update peaks as measure() reports them. Beside the three shapes, d < m (which of the two
// output ranges holds more changes) and segments of two tokens with d = 1.
constexpr HandShape kContinualShapes[] = {
    {9, 6, 2}, {11, 4, 3}, {8, 20, 3}, {20, 3, 4}, {12, 1, 6}};
TEST(HandMemory, ContinualRetroactivePeaksStepByStep) {
  for (const HandShape& s : kContinualShapes) {
    SCOPED_TRACE(shape_name("cony_re_cont", {s.n, s.d, s.m}));
    Config c;
    c.n = s.n, c.d = s.d, c.m = s.m;
    std::vector<Liveness> traces(1, Liveness(sizeof(double)));
    MultiHead<Tally<double>> mh("cony_re_cont", c, 1);
    mh.attach(&traces);
    using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    const RowMajor x = random_stream(3 * s.n + s.n / s.m + 2, 3 * s.d, 5);  // q, k, v per row
    std::int64_t t = 0;
    const auto step = [&] { mh.step(&x(t, 0), &x(t, s.d), &x(t, 2 * s.d)), ++t; };
    while (t < s.n) step();
    std::vector<bool> updated;
    mh.measure_steps(true);
    while (t < 2 * s.n) step(), updated.push_back(mh.updated_landmarks());
    mh.measure_steps(false);
    traces[0].mark_pending();
    while (t < x.rows() && traces[0].pending() > 0) step();
    const std::vector<I> measured = traces[0].finish().step_peaks;
    const CyclePeaks hand = cony_re_cont_cycle(s.n, s.d, s.m, c.pinv_iterations);
    EXPECT_EQ(updated, hand.updated);
    EXPECT_EQ(measured, hand.peaks);
    const Cost cost = measure({"cony_re_cont", s.n, s.d, s.m});
    I plain = 0, update = 0;
    for (std::size_t i = 0; i < hand.peaks.size(); ++i) {
      I& kind = hand.updated[i] ? update : plain;
      kind = std::max(kind, hand.peaks[i]);
    }
    EXPECT_EQ(cost.plain_peak, plain);
    EXPECT_EQ(cost.update_peak, update);
  }
}

// Every variant of the registry has a hand count above or is listed, with its reason, in
// kNotCounted: a new variant must be counted (or listed) here.
TEST(HandMemory, EveryVariantIsCountedOrListed) {
  for (const std::string& id : variant_ids())
    EXPECT_EQ(hand(id, kShapes[0]).valley < 0, kNotCounted.contains(id)) << id;
  for (const auto& [id, why] : kNotCounted) EXPECT_NE(find_variant(id), nullptr) << id;
}

}  // namespace
}  // namespace cosda::test::hand_memory
