// Footprint (attention/counting/footprint.hpp): the bytes a step touches, recorded by the seam ops
// under Tally; the "bytes" of the roofline bound in cosda-bench (analysis/roofline_model.hpp,
// whose bound, machine name and figure are tested here too).
#include "attention/counting/footprint.hpp"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "analysis/heap.hpp"
#include "analysis/measure.hpp"
#include "analysis/roofline.hpp"
#include "analysis/roofline_model.hpp"
#include "attention/ops/seam.hpp"
#include "attention/registry.hpp"
#include "io/plot.hpp"
#include "tests/test_util.hpp"

namespace cosda::test {
namespace {

TEST(Footprint, CountsTheUnionOfRanges) {
  char buf[64];
  Footprint f;
  f.reserve(8);
  f.start();
  f.record(buf, 10);       // [0, 10)
  f.record(buf + 5, 10);   // [5, 15): overlaps
  f.record(buf + 15, 5);   // [15, 20): touches
  f.record(buf + 30, 10);  // [30, 40)
  f.record(buf + 32, 2);   // inside
  EXPECT_EQ(f.stop(), 30);
  f.record(buf, 10);  // not recording
  f.start();
  EXPECT_EQ(f.stop(), 0);
}

TEST(Footprint, MergingWhenFullKeepsTheUnion) {
  char buf[256];
  Footprint small, large;
  small.reserve(2);
  large.reserve(1024);
  small.start();
  large.start();
  for (int i = 0; i < 100; ++i)  // 100 ranges of 3 bytes every 2: [0, 201) in all
    for (Footprint* f : {&small, &large}) f->record(buf + 2 * i, 3);
  EXPECT_EQ(small.stop(), 201);
  EXPECT_EQ(large.stop(), 201);
}

// Seam ops record their operands under Tally, each byte once however often it is used, and
// nothing under Plain.
TEST(Footprint, SeamOpsRecordTheirOperands) {
  using T = double;
  Mat<T> a = Mat<T>::Constant(3, 5, 0.5), b = Mat<T>::Constant(4, 5, 0.25), c(3, 4);
  Footprint& f = thread_footprint();
  f.start();
  ops::gemm_nt<Tally<T>>(a, b, c);
  EXPECT_EQ(f.stop(), (3 * 5 + 4 * 5 + 3 * 4) * std::int64_t(sizeof(T)));
  f.start();
  ops::dot<Tally<T>>(a.data(), a.data() + 5, 5);
  ops::dot<Tally<T>>(a.data(), a.data() + 5, 5);
  EXPECT_EQ(f.stop(), 10 * std::int64_t(sizeof(T)));
  f.start();  // a block of rows that are not contiguous: only its own elements
  ops::exp_inplace<Tally<T>>(MatRef<T>(a.block(0, 1, 3, 2)));
  EXPECT_EQ(f.stop(), 3 * 2 * std::int64_t(sizeof(T)));
  f.start();
  ops::gemm_nt<Plain<T>>(a, b, c);
  ops::copy<Plain<T>>(a.data(), a.data() + 15, a.data());
  EXPECT_EQ(f.stop(), 0);
}

class StepFootprint : public ::testing::TestWithParam<std::string> {};

// Every step touches at least its three input tokens and its output, and the recorded bytes
// do not depend on the token values or the scalar beyond its size.
TEST_P(StepFootprint, CoversInputsAndOutputAndScalesWithTheScalar) {
  const Point p{GetParam(), 48, 16, 4, 1};
  const Cost c = measure(p, Counting::kTally, Precision::kDouble, Touched::kRecord);
  const Cost f = measure(p, Counting::kTally, Precision::kFloat, Touched::kRecord);
  const std::int64_t out = find_variant(p.variant)->single_output ? p.d : p.n * p.d;
  for (std::int64_t bytes : {c.plain_bytes, c.update_bytes}) {
    if (bytes == 0) continue;  // a step kind the variant does not have
    EXPECT_GE(bytes, (3 * p.d + out) * std::int64_t(sizeof(double))) << p;
  }
  EXPECT_GT(c.cycle_bytes, 0) << p;
  EXPECT_EQ(f.plain_bytes * 2, c.plain_bytes) << p;
  EXPECT_EQ(f.cycle_bytes * 2, c.cycle_bytes) << p;
  // Nothing is recorded beyond the memory the model holds and the caller's token (measure()
  // passes q, k and v as three rows of d). Not the logical peak: that counts scratch buffers
  // live at different times of a step once, while each is its own memory that the step touches.
  if (heap::enabled()) {
    const std::int64_t held = c.heap_retained_bytes + 3 * p.d * std::int64_t(sizeof(double));
    EXPECT_LE(c.plain_bytes, held) << p;
    EXPECT_LE(c.update_bytes, held) << p;
  }
}

INSTANTIATE_TEST_SUITE_P(AllVariants, StepFootprint, ::testing::ValuesIn(variant_ids()),
                         [](const auto& info) { return info.param; });

// The continual single-output step reads both caches whole; a continual Nyström plain step
// works on its m-landmark state and writes one row of each cache, so it touches far less
// than the caches: the point of the roofline's bytes being what a step touches, not what it
// holds.
TEST(StepFootprint, ContinualStepsTouchWhatTheirEquationsRead) {
  const std::int64_t n = 256, d = 64, m = 4;
  const std::int64_t window = n * d * std::int64_t(sizeof(double));
  auto bytes = [&](const char* id) {
    return measure(Point{id, n, d, m, 1}, Counting::kTally, Precision::kDouble, Touched::kRecord);
  };
  const Cost si = bytes("co_si");
  EXPECT_GE(si.plain_bytes, 2 * window);  // K and V (Eq. 7)
  EXPECT_LT(si.plain_bytes, 2 * window * 11 / 10);
  for (const char* id : {"cony_si_cont", "cony_si_fix"}) {
    const Cost c = bytes(id);
    EXPECT_LT(c.plain_bytes, window / 4) << id;
    EXPECT_GT(c.plain_bytes, (m * d + 3 * d) * std::int64_t(sizeof(double))) << id;
  }
  const Cost att = bytes("att");
  EXPECT_EQ(measure(Point{"att", n, d, m, 1}).plain_bytes, 0) << "recorded only on request";
  EXPECT_GE(att.plain_bytes, (n * n + 3 * n * d) * std::int64_t(sizeof(double)));  // A, Q, K, V
}

// The bound reads the bandwidth at the step's bytes off the measured curve: log-linear between
// measured working sets, clamped outside them; per core when all cores run.
TEST(RooflineBound, BandwidthAtTheStepsBytes) {
  roofline::Machine m;
  m.numbers["peak_gflops_float_one"] = 100;
  m.numbers["peak_gflops_float_all"] = 200;
  m.numbers["read_gbs_ws_1024_one"] = 100;
  m.numbers["read_gbs_ws_4096_one"] = 50;
  m.numbers["read_gbs_ws_1024_all"] = 160;
  EXPECT_DOUBLE_EQ(m.read_gbs_at(2048, false), 75);  // halfway in log(bytes)
  EXPECT_DOUBLE_EQ(m.read_gbs_at(100, false), 100);
  EXPECT_DOUBLE_EQ(m.read_gbs_at(1e9, false), 50);
  const roofline::Bound b = roofline::bound(m, true, false, 2, 1000.0, 2048.0);
  EXPECT_DOUBLE_EQ(b.gflops, 1000.0 / 2048.0 * 75);
  EXPECT_EQ(b.limit, "read at 2 KiB");
  EXPECT_DOUBLE_EQ(b.ridge, 100.0 / 75);
  // Intensity beyond the ridge: the compute peak.
  EXPECT_EQ(roofline::bound(m, true, false, 2, 1e6, 2048.0).limit, "compute");
  EXPECT_DOUBLE_EQ(roofline::bound(m, true, false, 2, 1e6, 2048.0).gflops, 100);
  // All cores: each core's share of the bytes, on the all-core curve.
  const roofline::Bound all = roofline::bound(m, true, true, 2, 1000.0, 2048.0);
  EXPECT_DOUBLE_EQ(all.gflops, 1000.0 / 2048.0 * 160);
  EXPECT_EQ(all.limit, "read at 1 KiB");
}

TEST(RooflineBound, FilesWithoutTheCurveUseTheCacheLevels) {
  roofline::Machine m;
  m.numbers["peak_gflops_double_one"] = 50;
  m.numbers["l1_bytes"] = 32 << 10;
  m.numbers["l2_bytes"] = 1 << 20;
  m.numbers["l3_bytes"] = 8 << 20;
  m.numbers["read_gbs_l2_one"] = 80;
  EXPECT_EQ(m.read_gbs_at(1 << 19, false), 0);
  const roofline::Bound b = roofline::bound(m, false, false, 1, 1000.0, double(1 << 19));
  EXPECT_EQ(b.limit, "l2 bandwidth");
  EXPECT_DOUBLE_EQ(b.gflops, 1000.0 / double(1 << 19) * 80);
}

// Results name the machine by the first processor's model name, family, model and stepping:
// a virtual machine's bare "AMD EPYC" does not tell a Zen 4 from a Zen 5. Keys are matched
// whole ("model" is not "model name"), whatever the spaces and tabs before the colon.
TEST(CpuName, NameFamilyModelSteppingOfTheFirstProcessor) {
  std::istringstream two(
      "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\n"
      "model\t\t: 17\nmodel name\t: AMD EPYC\nstepping\t: 1\n\n"
      "processor\t: 1\ncpu family\t: 26\nmodel\t\t: 2\n"
      "model name\t: other\n");
  EXPECT_EQ(roofline::cpu_name(two), "AMD EPYC (family 25, model 17, stepping 1)");
  std::istringstream bare("model name : Some CPU\n");  // no family or model: the name alone
  EXPECT_EQ(roofline::cpu_name(bare), "Some CPU");
  std::istringstream none("processor : 0\nfeatures : fp asimd\n");
  EXPECT_EQ(roofline::cpu_name(none), "unknown");
}

// machine.json keeps the CPU's name as read: json_escape's backslashes are undone on reading, so
// a name with a quote or a backslash still names this machine (measured_elsewhere compares it).
TEST(RooflineFile, ReadsBackTheStringsItWrote) {
  roofline::Machine m;
  m.numbers = {{"peak_gflops_float_one", 100},
               {"peak_gflops_double_one", 50},
               {"peak_gflops_float_all", 200},
               {"peak_gflops_double_all", 100},
               {"read_gbs_dram_one", 10},
               {"read_gbs_dram_all", 20},
               {"cores", 2}};
  m.strings = {{"cpu", "A \"quoted\" \\ CPU (family 1, model 2)"}, {"vector_isa", "AVX2"}};
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("cosda_machine_" + std::to_string(getpid()) + ".json"))
                               .string();
  std::ofstream(path) << roofline::to_json(m);
  const std::optional<roofline::Machine> read = roofline::read_machine(path);
  std::filesystem::remove(path);
  ASSERT_TRUE(read.has_value());
  EXPECT_EQ(read->strings, m.strings);
  EXPECT_EQ(roofline::machine_name(*read), "A \"quoted\" \\ CPU (family 1, model 2), 2 cores");
}

// The roofline figure goes through render_png like every figure: outside text (the CPU name, the
// points' keys) quoted, ids drawn as written (no enhanced-text subscripts), every variant in its
// registry colour with float and double drawn apart, and the script saved beside the image.
TEST(RooflineFigure, QuotesItsTextAndDrawsEachVariantInItsStyle) {
  if (!cosda::gnuplot_available()) GTEST_SKIP() << "gnuplot is not installed (make deps)";
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("cosda_roofline_" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  cosda::roofline::Machine m;
  m.numbers = {
      {"peak_gflops_float_one", 100}, {"peak_gflops_double_one", 50}, {"read_gbs_l1_one", 200}};
  m.strings = {{"cpu", "it's `cpu`"}, {"vector_isa", "AVX2"}};
  std::vector<cosda::roofline::MeasuredPoint> points;
  for (const cosda::VariantTraits& v : cosda::kVariants)
    for (const char* scalar : {"float", "double"})
      points.push_back({std::string(v.id), "table3", scalar, 0.5, 20});
  cosda::roofline::draw(m, points, dir / "roofline.png");
  ASSERT_TRUE(std::filesystem::exists(dir / "roofline.png"));
  std::ifstream in(dir / "roofline.gp");
  const std::string gp((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(gp.find("noenhanced"), std::string::npos) << gp;
  EXPECT_NE(gp.find("'Roofline of it''s `cpu` (one thread; AVX2)"), std::string::npos) << gp;
  // The style a point set is drawn in: "pt P ps S lc rgb 'C'" before its title.
  auto style = [&](const std::string& title) {
    const std::size_t at = gp.find(" t '" + title + "'"), pt = gp.rfind(" pt ", at);
    return at == std::string::npos || pt == std::string::npos ? "" : gp.substr(pt, at - pt);
  };
  for (const cosda::VariantTraits& v : cosda::kVariants) {
    const std::string id(v.id), single = style(id + " float"), twice = style(id + " double");
    SCOPED_TRACE(id + ": '" + single + "' / '" + twice + "'");
    EXPECT_NE(single.find("lc rgb '" + std::string(v.style.colour) + "'"), std::string::npos);
    EXPECT_NE(twice.find("lc rgb '" + std::string(v.style.colour) + "'"), std::string::npos);
    EXPECT_NE(single, twice);
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace cosda::test
