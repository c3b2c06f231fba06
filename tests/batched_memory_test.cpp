// The memory of h heads in one batched object (attention/variants/<id>_heads.hpp, COSDA_BATCHED),
// as measure() reports it (MultiHead counts the object it times, with one liveness trace),
// against the forms (Forms::heads, analysis/exact.hpp), on shapes beyond `cosda verify`'s grid:
// three heads, Table III's sixteen, and heads at and beyond the widest head panel.
#include <string>
#include <vector>

#include "analysis/exact.hpp"
#include "analysis/measure.hpp"
#include "attention/ops/heads_attention.hpp"
#include "attention/registry.hpp"
#include "tests/test_util.hpp"

namespace cosda::test::batched_memory {
namespace {

struct Shape {
  std::int64_t n, d, m, h;
};

// Table III of the Nystrom paper (n = 120, d = 192 as 16 heads of 12, m = 4; configs/timing.toml
// table3), two mid shapes, and small windows of 2 and 3 heads from one feature to beyond the
// widest head panel (ops::kSingleQueryMaxWidth).
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

// The valley, and the live beside it on plain steps, equal the forms' wherever the forms give
// them; the peaks of ny and ny_fix, and of continual landmarks as for one head, are measured
// only.
TEST_P(BatchedMemory, EqualsTheHeadsForms) {
  const std::string id(GetParam());
  std::int64_t lives = 0;
  for (const Shape& s : shapes()) {
    const Point p{id, s.n, s.d, s.m, s.h};
    SCOPED_TRACE(::testing::PrintToString(p));
    const Cost c = measure(p);
    const exact::HeadsMemory forms = exact::heads_memory(p);
    ASSERT_TRUE(exact::valley_exact(p));
    EXPECT_EQ(c.valley, forms.valley);
    if (forms.live) {
      EXPECT_EQ(c.plain_peak - c.valley, *forms.live);
      ++lives;
    }
    EXPECT_EQ(exact::memory_exact(p),
              forms.live.has_value() && find_variant(id)->landmarks != LandmarkKind::kContinual);
  }
  // No variant drops its form unseen.
  const bool measured_only =
      id == "ny" || id == "ny_fix" || find_variant(id)->landmarks == LandmarkKind::kContinual;
  EXPECT_EQ(lives == 0, measured_only);
}

INSTANTIATE_TEST_SUITE_P(Batched, BatchedMemory, ::testing::ValuesIn(kBatchedIds),
                         [](const auto& info) { return std::string(info.param); });

}  // namespace
}  // namespace cosda::test::batched_memory
