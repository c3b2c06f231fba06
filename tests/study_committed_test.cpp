// The committed study results (results/drift, results/overflow) hold what this code computes:
// their FLOPs per step everywhere (counts do not depend on the machine), the overflow thresholds
// where the Release build meets the CPU and vector unit that wrote them (round-off does).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <Eigen/Core>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "analysis/measure.hpp"
#include "analysis/overflow_report.hpp"
#include "analysis/roofline_model.hpp"
#include "sweeps/stream_config.hpp"

// Its own namespace: the sanitizer tree compiles the tests as unity batches.
namespace cosda::test::study_committed {
namespace {

namespace fs = std::filesystem;

const fs::path kRepo = fs::path(__FILE__).parent_path().parent_path();

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The cells of a Markdown table's rows whose first cell is one of `first`, trimmed.
std::vector<std::vector<std::string>> rows_of(const std::string& md,
                                              const std::vector<std::string>& first) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream lines(md);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("| ", 0) != 0) continue;
    std::vector<std::string> cells;
    for (std::size_t at = 1, bar; (bar = line.find('|', at)) != std::string::npos; at = bar + 1)
      cells.push_back(line.substr(at + 1, bar - at - 2));
    for (const std::string& f : first)
      if (!cells.empty() && cells[0] == f) rows.push_back(cells);
  }
  return rows;
}

// FLOPs per step as the reports print them (six significant digits).
std::string flops(const std::string& variant, std::int64_t n, std::int64_t d, std::int64_t m,
                  bool stabilised) {
  return fmt::format(
      "{:.6g}", measure(Point{.variant = variant, .n = n, .d = d, .m = m, .stabilised = stabilised})
                    .amortized_flops());
}

TEST(StudyCommitted, DriftAndOverflowFlopsAreThisCodesCounts) {
  const DriftConfig dc = parse_drift_config(kRepo / "configs/drift.toml");
  std::vector<std::string> streams;
  for (const NamedStream& s : dc.streams) streams.push_back(s.name);
  const auto drift = rows_of(read(kRepo / "results/drift/drift.md"), streams);
  // | stream | variant | scalar | mode | 5 errors | FLOPs/step | C | seconds | status |
  ASSERT_GE(drift.size(), dc.variants.size()) << "run make reproduce";
  for (const auto& r : drift) {
    ASSERT_EQ(r.size(), 13u);
    EXPECT_EQ(r[9], flops(r[1], dc.n, dc.d, dc.m, r[3] == "stabilised"))
        << "drift.md: " << r[0] << " " << r[1] << " " << r[3] << ": run make reproduce";
  }
  const OverflowConfig oc = parse_overflow_config(kRepo / "configs/overflow.toml");
  const auto cost = rows_of(read(kRepo / "results/overflow/overflow.md"), oc.variants);
  int rows = 0;
  for (const auto& r : cost) {
    if (r.size() != 4 || r[3].rfind("+", 0) != 0) continue;  // | variant | plain | stab. | +x% |
    EXPECT_EQ(r[1], flops(r[0], oc.n, oc.d, oc.m, false)) << r[0];
    EXPECT_EQ(r[2], flops(r[0], oc.n, oc.d, oc.m, true)) << r[0];
    ++rows;
  }
  EXPECT_GT(rows, 0) << "overflow.md's cost table: run make reproduce";
}

// The committed thresholds are what this code computes (4 s): a kernel change that moves their
// round-off must come with `make reproduce`.
TEST(StudyCommitted, OverflowRerunsToTheCommittedThresholds) {
#ifndef NDEBUG
  GTEST_SKIP() << "the committed results come from the Release build";
#endif
  const std::string meta = read(kRepo / "results/overflow/meta.json");
  if (meta.find("\"cpu\": \"" + roofline::cpu_name() + "\"") == std::string::npos ||
      meta.find(std::string("\"simd\": \"") + Eigen::SimdInstructionSetsInUse() + "\"") ==
          std::string::npos)
    GTEST_SKIP() << "results/overflow/ was written on another CPU or vector unit";
  const OverflowConfig c = parse_overflow_config(kRepo / "configs/overflow.toml");
  EXPECT_EQ(overflow_csv(c, run_overflow_study(c)), read(kRepo / "results/overflow/overflow.csv"))
      << "run make reproduce";
}

}  // namespace
}  // namespace cosda::test::study_committed
