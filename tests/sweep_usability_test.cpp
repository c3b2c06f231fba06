// Sweep usability: figures labelled whatever their range, the progress estimate weighted by
// each point's predicted cost, --quiet, and one row per grid point for variants without m.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "io/errors.hpp"
#include "sweeps/config.hpp"
#include "sweeps/report.hpp"
#include "sweeps/sweep.hpp"

namespace cosda {
namespace {

namespace fs = std::filesystem;

// co_si and cony_si_cont over n = 16..64: flops stay within one decade.
const char* const kNarrow = R"(name = "narrow"
variants = ["co_si", "cony_si_cont"]
n = [16, 32, 64]
d = [32]
m = [4]

[[figure]]
file = "flops_vs_n"
x = "n"
y = "flops"
)";

SweepRow row(const std::string& id, std::int64_t n, double flops) {
  SweepRow r;
  r.point.variant = id;
  r.point.n = n;
  r.point.d = 32;
  r.point.m = 4;
  r.flops = flops;
  return r;
}

TEST(SweepFigure, NarrowRangeAxisIsLinearWithPlainNumbers) {
  const SweepConfig c = parse_config(kNarrow, "narrow.toml");
  const std::vector<SweepRow> rows = run_sweep(c, 1);
  const std::string s = gnuplot_script(c, c.figures[0], rows);
  EXPECT_EQ(s.find("10^{%L}"), std::string::npos) << s;
  EXPECT_NE(s.find("set logscale x\nset format y '%g'\n"), std::string::npos) << s;
}

TEST(SweepFigure, WideRangeAxisKeepsItsLogAxisAndPowersOfTen) {
  const SweepConfig c = parse_config(kNarrow, "narrow.toml");
  const std::vector<SweepRow> rows = {row("co_si", 16, 2e3), row("co_si", 32, 3e4),
                                      row("co_si", 64, 4e5)};
  const std::string s = gnuplot_script(c, c.figures[0], rows);
  EXPECT_NE(s.find("set logscale xy\nset format y '10^{%L}'\nset xtics"), std::string::npos) << s;
  EXPECT_EQ(s.find("set ytics"), std::string::npos) << s;
}

TEST(SweepFigure, OneDecadeBeyondAFactorTwentyIsLabelledAtOneTwoFive) {
  const SweepConfig c = parse_config(kNarrow, "narrow.toml");
  const std::vector<SweepRow> rows = {row("co_si", 16, 150), row("co_si", 32, 900),
                                      row("co_si", 64, 4000)};
  const std::string s = gnuplot_script(c, c.figures[0], rows);
  EXPECT_NE(s.find("set logscale xy\nset format y '%g'\n"
                   "set ytics ('200' 200, '500' 500, '1000' 1000, '2000' 2000)\n"),
            std::string::npos)
      << s;
}

TEST(SweepProgress, EtaIsTheRateSoFarAppliedToTheCostLeft) {
  EXPECT_FALSE(eta_seconds(5, 0, 100).has_value());
  EXPECT_DOUBLE_EQ(*eta_seconds(10, 50, 150), 30);
  EXPECT_DOUBLE_EQ(*eta_seconds(10, 50, 0), 0);
  // Largest first: one big point done in 9 s, nine small ones of a tenth of its cost left,
  // about 8 s more (a count of points would say 81 s).
  EXPECT_NEAR(*eta_seconds(9, 100, 90), 8.1, 1e-12);
}

TEST(SweepProgress, PredictedCostFollowsTheExactFormsAndLayers) {
  Point p{"cony_si_cont", 64, 32, 4, 1, 1, false};
  Point two = p;
  two.layers = 2;
  Point small = p;
  small.n = 16;
  EXPECT_GT(predicted_cost(p), 0);
  EXPECT_DOUBLE_EQ(predicted_cost(two), 2 * predicted_cost(p));
  EXPECT_GT(predicted_cost(p), predicted_cost(small));
  Point skipped = p;
  skipped.m = 128;  // m > n
  EXPECT_EQ(predicted_cost(skipped), 0);
}

struct SweepCommand : ::testing::Test {
  fs::path dir = fs::temp_directory_path() / ("cosda_usability_" + std::to_string(::getpid()));
  void SetUp() override {
    fs::remove_all(dir);
    fs::create_directories(dir);
    std::ofstream(dir / "small.toml") << "name = \"small\"\nvariants = [\"att\", \"co_si\"]\n"
                                         "n = [4, 8]\nd = [4]\nm = [2]\n";
  }
  void TearDown() override { fs::remove_all(dir); }
  // The stderr of the cosda executable's sweep of small.toml with `flags`.
  std::string stderr_of(const std::string& flags) {
    const fs::path err = dir / "err.txt";
    const std::string command = std::string(COSDA_BIN) + " sweep " + (dir / "small.toml").string() +
                                " --out " + (dir / "out").string() + " --no-report --fresh " +
                                flags + " > " + (dir / "out.txt").string() + " 2> " + err.string();
    EXPECT_EQ(std::system(command.c_str()), 0) << command;
    std::ifstream in(err);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  }
};

TEST_F(SweepCommand, QuietPrintsNothingOnStderr) { EXPECT_EQ(stderr_of("--quiet"), ""); }

TEST_F(SweepCommand, WithoutATerminalAFinalPlainLineIsPrinted) {
  const std::string err = stderr_of("");
  EXPECT_NE(err.find("cosda sweep small: 4/4 points"), std::string::npos) << err;
  EXPECT_EQ(err.find('\r'), std::string::npos) << err;
  EXPECT_EQ(err.back(), '\n');
}

// A sweep or report replaces the folder's table and figures: what it does not write again (a
// --no-report sweep's, a figure renamed in the config) goes, the user's own files stay.
TEST_F(SweepCommand, NoTableOrFigureOfOtherPointsStaysBesideNewOnes) {
  auto cosda = [&](const std::string& args) {
    const std::string command = std::string(COSDA_BIN) + " " + args + " --out " +
                                (dir / "out").string() + " > /dev/null 2>&1";
    EXPECT_EQ(std::system(command.c_str()), 0) << command;
  };
  const std::string figure = "[[figure]]\nfile = \"f{}\"\nx = \"n\"\ny = \"flops\"\nm = 2\n";
  std::ofstream(dir / "fig.toml") << "name = \"small\"\nvariants = [\"att\", \"co_si\"]\n"
                                     "n = [4, 8]\nd = [4]\nm = [2]\n"
                                  << fmt::format(fmt::runtime(figure), 1);
  cosda("sweep " + (dir / "fig.toml").string() + " --no-figures");
  const fs::path out = dir / "out" / "small";
  std::ofstream(out / "notes.txt") << "mine";
  ASSERT_TRUE(fs::exists(out / "table.md") && fs::exists(out / "f1.gp"));
  std::ofstream(dir / "fig.toml", std::ios::app) << fmt::format(fmt::runtime(figure), 2);
  std::string text;
  {
    std::ifstream in(dir / "fig.toml");
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  text.replace(text.find("file = \"f1\""), 11, "file = \"f3\"");
  std::ofstream(dir / "fig.toml") << text;
  cosda("report " + (dir / "fig.toml").string() + " --no-figures");
  EXPECT_FALSE(fs::exists(out / "f1.gp")) << "a figure the config no longer has";
  EXPECT_TRUE(fs::exists(out / "f2.gp") && fs::exists(out / "f3.gp"));
  cosda("sweep " + (dir / "small.toml").string() + " --no-report");
  for (const char* stale : {"table.md", "f2.gp", "f3.gp"})
    EXPECT_FALSE(fs::exists(out / stale)) << stale << " of the points the sweep replaced";
  EXPECT_TRUE(fs::exists(out / "notes.txt") && fs::exists(out / "points.csv"));
}

TEST(SweepGrid, VariantsWithoutLandmarksHaveOneRowWithMOne) {
  const SweepConfig c = parse_config(
      "name = \"g\"\nvariants = [\"att\", \"co_si\", \"cony_si_fix\"]\nn = [8]\nd = [4]\n"
      "m = [2, 4, 8]\n",
      "g.toml");
  const std::vector<Point> p = grid_points(c);
  ASSERT_EQ(p.size(), 5u);  // att, co_si once; cony_si_fix at m = 2, 4, 8
  EXPECT_EQ(p[0].variant, "att");
  EXPECT_EQ(p[0].m, 1);
  EXPECT_EQ(p[1].variant, "co_si");
  EXPECT_EQ(p[1].m, 1);
  EXPECT_EQ(p[2].m, 2);
  EXPECT_EQ(p[4].m, 8);
}

// A figure against m draws a variant without landmarks flat over the grid's m values.
TEST(SweepGrid, FiguresAgainstMDrawVariantsWithoutLandmarksFlat) {
  const SweepConfig c = parse_config(
      "name = \"g\"\nvariants = [\"att\", \"cony_si_fix\"]\nn = [8]\nd = [4]\nm = [2, 4]\n"
      "[[figure]]\nfile = \"f\"\nx = \"m\"\ny = \"flops\"\n",
      "g.toml");
  const std::string s = gnuplot_script(c, c.figures[0], run_sweep(c, 1));
  const std::size_t at = s.find("$e_att << EOD\n");
  ASSERT_NE(at, std::string::npos) << s;
  const std::string block = s.substr(at, s.find("EOD\n", at + 14) - at);
  EXPECT_NE(block.find("\n2 "), std::string::npos) << block;
  EXPECT_NE(block.find("\n4 "), std::string::npos) << block;
  EXPECT_EQ(block.find("\n1 "), std::string::npos) << block;
}

// The config's title reaches the figure, whose title and y label name the convention of its
// FLOPs; the published formula (App. A, mac) is drawn beside executed FLOPs in mac, which
// are max(mul, add) + div + exp + other of the row.
TEST(SweepFigure, TitleAndConventionReachTheFigure) {
  const std::string text = std::string("title = \"My shapes\"\n") + kNarrow;
  SweepConfig c = parse_config(text, "narrow.toml");
  const std::vector<SweepRow> rows = run_sweep(c, 1);
  const std::string all = gnuplot_script(c, c.figures[0], rows);
  EXPECT_NE(all.find("set title 'My shapes' . \"\\n\" . 'FLOPs in convention all"),
            std::string::npos)
      << all;
  EXPECT_NE(all.find("$c_co_si << EOD"), std::string::npos) << all;  // executed in mac
  EXPECT_NE(all.find("title 'executed (mac)'"), std::string::npos) << all;
  const SweepRow& r = rows.front();
  const double mac = std::max(r.mul, r.add) + r.div + r.exp + r.other;
  EXPECT_LT(mac, r.flops);
  c.convention = "mac";
  const std::string m = gnuplot_script(c, c.figures[0], rows);
  EXPECT_NE(m.find("'FLOPs in convention mac"), std::string::npos) << m;
  EXPECT_EQ(m.find("$c_"), std::string::npos) << m;  // already the paper's convention
  EXPECT_NE(m.find(fmt::format("{} {:.10g}\n", r.point.n, mac)), std::string::npos) << m;
  EXPECT_NE(table_md(c, rows).find("executed FLOPs (mac)"), std::string::npos);
}

// m may be left out where no listed variant has a rank, not where one has.
TEST(SweepGrid, MIsOptionalWithoutRank) {
  const SweepConfig c =
      parse_config("name = \"g\"\nvariants = [\"att\", \"co_si\"]\nn = [8]\nd = [4]\n", "g.toml");
  EXPECT_EQ(grid_points(c).size(), 2u);
  try {
    parse_config("name = \"g\"\nvariants = [\"att\", \"ny\"]\nn = [8]\nd = [4]\n", "g.toml");
    ADD_FAILURE() << "ny without m was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("g.toml: key 'm' is missing: ny has a rank"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace cosda
