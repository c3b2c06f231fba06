// Independent anchors for the operation counts: every variant's FLOPs per step by bucket,
// derived here by hand from its algorithm (the paper's equations, in the order the kernel
// evaluates them), against what measure() counts by executing the kernel. Nothing here comes
// from the closed forms (analysis/exact.hpp) or from a measured value.
//
// Conventions, the kernels' and so the hand counts': a length-k dot product is k mul and k - 1
// add; an r x k by k x c product r c of them; a sum of k values k - 1 add; a running-sum update
// x - a + b two add; c I - X is m^2 add (the negations included); a mean of s rows of d is
// (s - 1) d add and d div; a reciprocal is one div, then multiplications; the max of k values
// k - 1 `other`. Copies and ring moves are free. Counts are per head (heads = 1).
#include "analysis/measure.hpp"
#include "tests/test_util.hpp"

namespace cosda::test::hand_counts {
namespace {

using I = std::int64_t;

// r x c entries, each a dot product of length k.
OpCounts product(I r, I k, I c) { return {.mul = r * c * k, .add = r * c * (k - 1)}; }
// Rows of an r x c matrix divided by their sums: the sums, r reciprocals, r c multiplications.
OpCounts normalise_rows(I r, I c) { return {.mul = r * c, .add = r * (c - 1), .div = r}; }
OpCounts times(I k, OpCounts c) {
  return {
      .mul = k * c.mul, .add = k * c.add, .div = k * c.div, .exp = k * c.exp, .other = k * c.other};
}
OpCounts exps(I k) { return {.exp = k}; }
OpCounts muls(I k) { return {.mul = k}; }
OpCounts adds(I k) { return {.add = k}; }
OpCounts divs(I k) { return {.div = k}; }

// One query's (or landmark's) retroactive update against the key that leaves and the key that
// enters (CoTrans Eqs. 2, 4; Nyström Eqs. 17, 24-25): two dot products of d, two exp, the
// running sum -a + b, and the running d-vector -a v_old + b v_new.
OpCounts retro_update(I d) {
  return product(1, d, 2) + exps(2) + adds(2) + OpCounts{.mul = 2 * d, .add = 2 * d};
}

// Razavi's iteration for the m x m pseudo-inverse (Nyström paper Sec. IV-C), `it` times:
// Z_0 = X^T / max column sum (m column sums, m - 1 comparisons, one reciprocal, m^2 mul);
// then four m x m products, three shifted negations c I - Y and the scaling by 1/4.
OpCounts pinv(I m, I it) {
  const OpCounts start = adds(m * (m - 1)) + OpCounts{.other = m - 1} + divs(1) + muls(m * m);
  const OpCounts iteration = times(4, product(m, m, m)) + adds(3 * m * m) + muls(m * m);
  return start + times(it, iteration);
}

// The newest query's row of B_phi Gamma_phi^+ (Nyström Eqs. 22-23, 26): beta = exp(q Kt^T)
// (m dots of d, m exp), its sum, one reciprocal and m mul, then the 1 x m by m x m product.
OpCounts beta_row(I d, I m) {
  return product(1, d, m) + exps(m) + adds(m - 1) + divs(1) + muls(m) + product(1, m, m);
}

// Delta_phi V from the kept Delta V and phi(Delta): m reciprocals, m d mul.
OpCounts normalised_delta_v(I d, I m) { return divs(m) + muls(m * d); }

// att (CoTrans Eq. 1; Nyström Eq. 1): Q / sqrt(d), A = exp(Q K^T), A 1, A V, D^-1.
OpCounts att(I n, I d) {
  return muls(n * d) + product(n, d, n) + exps(n * n) + adds(n * (n - 1)) + product(n, n, d) +
         divs(n) + muls(n * d);
}

// co_si (CoTrans Eq. 7): q / sqrt(d), a = exp(q K^T), a 1, a V, then one reciprocal and d mul.
OpCounts co_si(I n, I d) {
  return muls(d) + product(1, d, n) + exps(n) + adds(n - 1) + product(1, n, d) + divs(1) + muls(d);
}

// co_re (CoTrans Eqs. 2-6): the new query scaled; the n - 1 kept queries updated (Eqs. 2, 4);
// the newest query's full row (Eqs. 3, 5); Eq. 6: n reciprocals, n d mul.
OpCounts co_re(I n, I d) {
  return muls(d) + times(n - 1, retro_update(d)) + product(1, d, n) + exps(n) + adds(n - 1) +
         product(1, n, d) + divs(n) + muls(n * d);
}

// Att_Ny over a window with Gamma_phi^+ given (Nyström Eqs. 8-12, the order of NystromCore):
// B_phi (n x m: dots, exp, row normalisation); Delta = exp(Qt K^T) (m x n) with its row sums;
// Delta V; m reciprocals and m d mul; B_phi Gamma_phi^+ (n x m x m); times Delta_phi V.
OpCounts nystrom_core(I n, I d, I m) {
  return product(n, d, m) + exps(n * m) + normalise_rows(n, m) + product(m, d, n) + exps(m * n) +
         adds(m * (n - 1)) + product(m, n, d) + divs(m) + muls(m * d) + product(n, m, m) +
         product(n, m, d);
}

// Gamma_phi^+ from landmarks (Eq. 11): Qt Kt^T, exp, row normalisation, the pseudo-inverse.
OpCounts landmark_kernel(I d, I m, I it) {
  return product(m, d, m) + exps(m * m) + normalise_rows(m, m) + pinv(m, it);
}

// ny: Q / sqrt(d); segment means of Q and K, 2 m landmarks (Sec. IV-C: (n - m) d add and m d div
// each); Gamma_phi^+ of them; the core.
OpCounts ny(I n, I d, I m, I it) {
  return muls(n * d) + times(2, adds((n - m) * d) + divs(m * d)) + landmark_kernel(d, m, it) +
         nystrom_core(n, d, m);
}

// ny_fix: Gamma_phi^+ of the fixed landmarks is computed once, at construction, and their keys
// are scaled there, so the queries are not.
OpCounts ny_fix(I n, I d, I m) { return nystrom_core(n, d, m); }

// The one output row of the single-output variants (Eq. 26), in its cheapest order: the row
// scaled by 1/phi(Delta) (m reciprocals, m mul) rather than Delta V (m d), then times Delta V.
OpCounts scaled_row_output(I d, I m) { return divs(m) + muls(m) + product(1, m, d); }

// Delta V and phi(Delta) slid for all m landmarks (Eqs. 24-25) with fixed landmarks: the new
// key's m scores (m dots of d, m exp), then per landmark the kept old score and the new one
// out of and into phi (2 add) and Delta V (2 d mul, 2 d add). The old scores are kept, not
// recomputed (continual landmarks change, so theirs are: retro_update per landmark).
OpCounts fixed_slide(I d, I m) {
  return product(m, d, 1) + exps(m) + times(m, adds(2) + OpCounts{.mul = 2 * d, .add = 2 * d});
}

// cony_si_fix (Sec. IV-B, Eq. 26): the slide; beta's row (the keys come scaled); the output row.
OpCounts cony_si_fix(I d, I m) {
  return fixed_slide(d, m) + beta_row(d, m) + scaled_row_output(d, m);
}

// cony_re_fix (Eq. 23): the slide, beta's row, then the n kept rows of B_phi Gamma_phi^+ times
// Delta_phi V.
OpCounts cony_re_fix(I n, I d, I m) {
  return fixed_slide(d, m) + beta_row(d, m) + normalised_delta_v(d, m) + product(n, m, d);
}

// The landmark update of the continual-landmark variants (Sec. IV-A) over a segment of s
// tokens: the slide skips the replaced landmark (m - 1 rows); the new landmarks are segment
// means (Eqs. 13-14); Gamma's column for the m - 1 other landmarks (a dot, an exp, -a + b into
// phi(Gamma): Eqs. 16, 19) and its new row (m dots, m exp, its sum); phi(Gamma) inverted and
// Gamma normalised (m div, m^2 mul) and pseudo-inverted; Delta's new row over the window (n
// dots, n exp, the sum, the 1 x n by n x d product: Eqs. 17, 20).
// query_adds: the additions of the query mean left to the update step ((s - 1) d over a ring
// of the segment's queries; 0 where a running sum adds each query as it comes).
OpCounts landmark_update(I n, I d, I m, I s, I it, I query_adds) {
  const OpCounts means = adds((s - 1) * d) + adds(query_adds) + divs(2 * d);
  const OpCounts gamma = times(m - 1, product(1, d, 1) + exps(1) + adds(2)) + product(1, d, m) +
                         exps(m) + adds(m - 1) + divs(m) + muls(m * m) + pinv(m, it);
  const OpCounts delta_row = product(1, d, n) + exps(n) + adds(n - 1) + product(1, n, d);
  return times(m - 1, retro_update(d)) + means + gamma + delta_row;
}

// cony_si_cont (Eqs. 22, 26): a plain step is cony_si_fix's with the old scores recomputed, plus
// q / sqrt(d) (its landmark keys are raw) and the query added to the segment's running sum (d
// add); an update step replaces the slide, and its query mean is that sum divided by s.
OpCounts cony_si_cont_plain(I d, I m) {
  return times(m, retro_update(d)) + beta_row(d, m) + scaled_row_output(d, m) + muls(d) + adds(d);
}
OpCounts cony_si_cont_update(I n, I d, I m, I s, I it) {
  return landmark_update(n, d, m, s, it, 0) + adds(d) + muls(d) + beta_row(d, m) +
         scaled_row_output(d, m);
}

// cony_re_cont (Eqs. 15, 18, 21): besides the update, B's column of the replaced landmark for
// the n - 1 kept queries (a dot, an exp, -a + b into phi(B)), the newest query's row of B (m
// dots, m exp, its sum), then every row of B_phi Gamma_phi^+: n reciprocals, n m mul, n x m x m.
OpCounts cony_re_cont_update(I n, I d, I m, I s, I it) {
  const OpCounts b = times(n - 1, product(1, d, 1) + exps(1) + adds(2)) + product(1, d, m) +
                     exps(m) + adds(m - 1) + divs(n) + muls(n * m) + product(n, m, m);
  return landmark_update(n, d, m, s, it, (s - 1) * d) + muls(d) + b + normalised_delta_v(d, m) +
         product(n, m, d);
}

// The feature maps (attention/families/random_features.hpp): a query's m features, w . q for m
// features, their max (m - 1 other), exp(u - max) (m add, m exp); a key's, w . k, then
// |k|^2 / (2 sqrt d) (a dot of d and one mul), exp(u - that) (m add, m exp).
OpCounts query_features(I d, I m) {
  return product(1, d, m) + OpCounts{.other = m - 1} + adds(m) + exps(m);
}
OpCounts key_features(I d, I m) {
  return product(1, d, m) + product(1, d, 1) + muls(1) + adds(m) + exps(m);
}
// r outputs from the sums: u S (r x m by m x d), u z (r x m by m x 1), r reciprocals, r d mul.
OpCounts feature_outputs(I r, I d, I m) {
  return product(r, m, d) + product(r, m, 1) + divs(r) + muls(r * d);
}

// rf: the n keys' features, S = phi(K)^T V (m x n by n x d), z = phi(K)^T 1 (m sums of n), the
// n queries' features, the n outputs.
OpCounts rf(I n, I d, I m) {
  return times(n, key_features(d, m)) + product(m, n, d) + adds(m * (n - 1)) +
         times(n, query_features(d, m)) + feature_outputs(n, d, m);
}

// corf_si: the new key's features; S and z slide (-a_old v_old + a_new v_new: 2 m d mul,
// 2 m d add; z: 2 m add); the new query's features; one output.
OpCounts corf_si(I d, I m) {
  return key_features(d, m) + OpCounts{.mul = 2 * m * d, .add = 2 * m * d + 2 * m} +
         query_features(d, m) + feature_outputs(1, d, m);
}

// corf_re: corf_si's step, and all n outputs from the kept query features.
OpCounts corf_re(I n, I d, I m) {
  return key_features(d, m) + OpCounts{.mul = 2 * m * d, .add = 2 * m * d + 2 * m} +
         query_features(d, m) + feature_outputs(n, d, m);
}

struct HandShape {
  I n, d, m;
};
// Two small shapes: n mod m = 1 with d < 16 (the short-row ring layouts), and n mod m = 0
// with d >= 16 (the long-row layouts): the counts must not depend on the layout.
constexpr HandShape kShapes[] = {{9, 6, 2}, {12, 20, 3}};
constexpr I kIterations = 6;  // Config::pinv_iterations

// The hand count of a step of `id`: the only step (plain) and, for continual landmarks, the
// update step of a segment of s tokens.
OpCounts hand_plain(const std::string& id, const HandShape& s) {
  const auto [n, d, m] = s;
  if (id == "att") return att(n, d);
  if (id == "co_si") return co_si(n, d);
  if (id == "co_re") return co_re(n, d);
  if (id == "ny") return ny(n, d, m, kIterations);
  if (id == "ny_fix") return ny_fix(n, d, m);
  if (id == "cony_si_fix") return cony_si_fix(d, m);
  if (id == "cony_si_cont") return cony_si_cont_plain(d, m);
  if (id == "cony_re_fix") return cony_re_fix(n, d, m);
  if (id == "cony_re_cont")  // the old scores recomputed, and q / sqrt(d): raw keys
    return times(m, retro_update(d)) + beta_row(d, m) + normalised_delta_v(d, m) +
           product(n, m, d) + muls(d);
  if (id == "rf") return rf(n, d, m);
  if (id == "corf_si") return corf_si(d, m);
  if (id == "corf_re") return corf_re(n, d, m);
  ADD_FAILURE() << "no hand count for " << id;
  return {};
}
OpCounts hand_update(const std::string& id, const HandShape& s, I segment) {
  return id == "cony_si_cont" ? cony_si_cont_update(s.n, s.d, s.m, segment, kIterations)
                              : cony_re_cont_update(s.n, s.d, s.m, segment, kIterations);
}

class HandCounts : public ::testing::TestWithParam<std::string> {};

TEST_P(HandCounts, MeasuredStepEqualsTheHandDerivation) {
  const std::string id = GetParam();
  const bool continual_landmarks = find_variant(id)->landmarks == LandmarkKind::kContinual;
  for (const HandShape& s : kShapes) {
    SCOPED_TRACE(shape_name(id, {s.n, s.d, s.m}));
    const Cost c =
        measure({id, s.n, s.d, find_variant(id)->landmarks == LandmarkKind::kNone ? 1 : s.m});
    const OpCounts plain = hand_plain(id, s);
    EXPECT_EQ(c.plain_step, plain) << describe(c.plain_step) << " vs hand " << describe(plain);
    if (!continual_landmarks) continue;
    // The m update steps of a cycle replace the m segments once each (sizes: Sec. IV-C); the
    // largest is the update step measure() reports.
    const std::vector<I> sizes = segment_sizes(s.n, s.m);
    OpCounts cycle = times(s.n - s.m, plain);
    for (const I size : sizes) cycle += hand_update(id, s, size);
    const OpCounts update = hand_update(id, s, sizes.front());
    EXPECT_EQ(c.update_step, update) << describe(c.update_step) << " vs " << describe(update);
    EXPECT_EQ(c.cycle_total, cycle) << describe(c.cycle_total) << " vs " << describe(cycle);
    EXPECT_EQ(c.update_steps, s.m);
  }
}

INSTANTIATE_TEST_SUITE_P(AllVariants, HandCounts, ::testing::ValuesIn(variant_ids()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace cosda::test::hand_counts
