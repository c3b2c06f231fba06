// The memory of the head-batched kernels (attention/variants/<id>_heads.hpp, COSDA_BATCHED):
// valley and peak (attention/counting/liveness.hpp) of one batched object for h heads, traced
// as MultiHead traces one head (the token's q, k and v written at the step's start, the output
// read at its end) and measured by analysis/measure.cpp's procedure, against the forms
// (Forms::heads, analysis/exact.hpp heads_memory).
#include <algorithm>
#include <functional>
#include <random>
#include <string>

#include "analysis/exact.hpp"
#include "attention/counting/liveness.hpp"
#include "attention/ops/heads_attention.hpp"
#include "attention/registry.hpp"
#include "tests/test_util.hpp"

namespace cosda::test::batched_memory {
namespace {

using E = Tally<double>;
using S = E::Scalar;

struct Figures {
  std::int64_t valley = 0, plain_peak = 0, update_peak = 0;
};

// make_<id>_heads for any h, one head included.
std::unique_ptr<Attention<E>> make_twin(std::string_view id, const Config& c, std::int64_t h) {
#define COSDA_MAKE_TWIN(vid, Class) \
  if (id == #vid) return make_##vid##_heads<E>(c, h);
  COSDA_BATCHED(COSDA_MAKE_TWIN)
#undef COSDA_MAKE_TWIN
  throw std::invalid_argument("no batched kernel for " + std::string(id));
}

struct Shape {
  std::int64_t n, d, m, h;
};

Config config_of(std::string_view id, const Shape& s) {
  Config c{.n = s.n, .d = s.d, .m = s.m};
  if (find_variant(id)->landmarks == LandmarkKind::kFixed) {
    std::mt19937_64 rng(20231122);
    std::normal_distribution<double> normal(0.0, 1.0);
    c.fixed_q.resize(c.m, c.d);
    for (std::int64_t i = 0; i < c.fixed_q.size(); ++i) c.fixed_q.data()[i] = 0.5 * normal(rng);
    c.fixed_k = c.fixed_q;
  }
  return c;
}

// analysis/measure.cpp's procedure on any object: n unmeasured steps, `measured` measured ones,
// then steps recording accesses only until every value held at the last measured boundary is
// read again or overwritten (patience as there). step(measured) takes one traced step.
Figures measure_traces(std::string_view id, const Shape& s, std::int64_t measured,
                       std::vector<Liveness>& traces, const std::function<bool(bool)>& step) {
  std::vector<bool> updated;
  for (std::int64_t i = 0; i < s.n; ++i) step(false);
  for (std::int64_t i = 0; i < measured; ++i) updated.push_back(step(true));
  auto pending = [&] {
    std::int64_t p = 0;
    for (const auto& t : traces) p += t.pending();
    return p;
  };
  for (auto& t : traces) t.mark_pending();
  ops::accesses_only() = true;
  const bool cycles = find_variant(id)->landmarks == LandmarkKind::kContinual;
  const std::int64_t patience = cycles ? s.n / s.m + 2 : 2;
  std::int64_t left = pending(), idle = 0;
  for (std::int64_t i = 0; i <= s.n + patience && left > 0 && idle < patience; ++i) {
    step(false);
    const std::int64_t now = pending();
    idle = now < left ? 0 : idle + 1;
    left = now;
  }
  ops::accesses_only() = false;
  Figures f;
  std::vector<std::int64_t> peaks(std::size_t(measured), 0);
  for (auto& t : traces) {
    const Liveness::Figures g = t.finish();
    f.valley += g.valley;
    for (std::size_t i = 0; i < peaks.size(); ++i) peaks[i] += g.step_peaks[i];
  }
  for (std::size_t i = 0; i < peaks.size(); ++i) {
    std::int64_t& kind = updated[i] ? f.update_peak : f.plain_peak;
    kind = std::max(kind, peaks[i]);
  }
  return f;
}

// Tokens as analysis/measure.cpp draws them: q, k and v of a token are three separate rows.
class Tokens {
 public:
  explicit Tokens(std::int64_t d) : token_(std::size_t(3 * d)) {}
  const S* next() {
    for (auto& x : token_) x = S(0.5 * normal_(rng_));
    return token_.data();
  }

 private:
  std::vector<S> token_;
  std::mt19937_64 rng_{7};
  std::normal_distribution<double> normal_{0.0, 1.0};
};

// One step of obj traced as MultiHead::traced_step traces a head: its token (q, k and v of the
// object's width) written at the step's start, its output read at its end.
bool traced_step(Attention<E>& obj, Liveness& l, bool measured, const S* q, const S* k, const S* v,
                 std::int64_t width) {
  const std::int64_t bytes = width * std::int64_t(sizeof(S));
  thread_liveness() = &l;
  l.begin_step(measured);
  l.write(q, bytes), l.write(k, bytes), l.write(v, bytes);
  const bool ready = obj.step(q, k, v);
  l.end_step();
  if (ready) {
    const MatCRef<S> o = obj.output();
    for (std::int64_t r = 0; r < o.rows(); ++r)
      l.read(o.row(r).data(), o.cols() * std::int64_t(sizeof(S)));
  }
  thread_liveness() = nullptr;
  return ready;
}

// The batched object of all h heads with one trace, measured as analysis/measure.cpp measures
// a point: one step after a ring pass, a whole landmark cycle (n steps) for continual landmarks.
Figures twin(std::string_view id, const Shape& s) {
  const Config c = config_of(id, s);
  std::vector<Liveness> traces(1, Liveness(sizeof(S)));
  auto obj = make_twin(id, c, s.h);
  Tokens tokens(s.d);
  const bool cycles = find_variant(id)->landmarks == LandmarkKind::kContinual;
  return measure_traces(id, s, cycles ? s.n : 1, traces, [&](bool measured) {
    const S* q = tokens.next();
    traced_step(*obj, traces[0], measured, q, q + s.d, q + 2 * s.d, s.d);
    return obj->updated_landmarks();
  });
}

// Table III of the Nystrom paper (n = 120, d = 192 as 16 heads of 12, m = 4; configs/timing.toml
// table3), two mid shapes, and small windows of 2 and 3 heads as narrow as one feature, at the
// widest head panel (ops::kSingleQueryMaxWidth) and beyond it, as `cosda verify`'s grid has.
std::vector<Shape> shapes() {
  std::vector<Shape> v{{120, 192, 4, 16}, {37, 48, 3, 4}, {20, 24, 5, 3}};
  for (std::int64_t n : {3, 4, 5, 8, 13, 24})
    for (std::int64_t dh : {std::int64_t(1), std::int64_t(3), ops::kSingleQueryMaxWidth,
                            ops::kSingleQueryMaxWidth + 4})
      for (std::int64_t h : {2, 3})
        for (std::int64_t m : {2, 3, 5, 7})
          if (m < n) v.push_back({n, dh * h, m, h});
  return v;
}

class BatchedMemory : public ::testing::TestWithParam<std::string_view> {};

// The batched object's valley, and the live beside it on its plain steps, equal the forms'
// (Forms::heads, written from one head's forms in attention/variants/<id>.cpp), wherever the
// forms give them.
TEST_P(BatchedMemory, EqualsTheHeadsForms) {
  const std::string_view id = GetParam();
  std::int64_t lives = 0;
  for (const Shape& s : shapes()) {
    const Point p{.variant = std::string(id),
                  .n = s.n,
                  .d = s.d,
                  .m = s.m,
                  .heads = s.h,
                  .layers = 1,
                  .stabilised = false};
    SCOPED_TRACE(::testing::PrintToString(p));
    const Figures one = twin(id, s);
    const exact::HeadsMemory forms = exact::heads_memory(p);
    ASSERT_TRUE(exact::valley_exact(p));
    EXPECT_EQ(one.valley, forms.valley);
    if (forms.live) {
      EXPECT_EQ(one.plain_peak - one.valley, *forms.live);
      ++lives;
    }
    if (find_variant(id)->landmarks != LandmarkKind::kContinual) {
      EXPECT_EQ(one.update_peak, 0);
    }
  }
  // Whose peaks are measured only (continual landmarks' as one head's, closed_form.hpp), so that
  // no other variant drops its form unseen.
  const bool measured_only =
      id == "ny" || id == "ny_fix" || find_variant(id)->landmarks == LandmarkKind::kContinual;
  EXPECT_EQ(lives == 0, measured_only);
}

INSTANTIATE_TEST_SUITE_P(Batched, BatchedMemory, ::testing::ValuesIn(kBatchedIds),
                         [](const auto& info) { return std::string(info.param); });

}  // namespace
}  // namespace cosda::test::batched_memory
