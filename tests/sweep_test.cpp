// Sweeps: config validation, skip rows, determinism across thread counts, the CSV round trip,
// the published compositions against the printed tables, and that the committed results/
// still match what the code produces.
#include "sweeps/sweep.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <tuple>

#include "analysis/heap.hpp"
#include "analysis/published.hpp"
#include "analysis/roofline_model.hpp"
#include "io/errors.hpp"
#include "sweeps/config.hpp"
#include "sweeps/report.hpp"
#include "sweeps/run_checks.hpp"

namespace cosda {
namespace {

namespace fs = std::filesystem;

const fs::path kRepo = fs::path(__FILE__).parent_path().parent_path();
// The sweep configs whose results are committed (configs/ also holds other commands' files).
const char* const kCommittedConfigs[] = {"nystrom_fig4",      "nystrom_table3", "nystrom_table4",
                                         "nystrom_landmarks", "cotrans_fig3",   "random_features",
                                         "gtzan_counts"};

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The InputError message parse_config throws for `text` ("" if none).
std::string config_error(const std::string& text) {
  try {
    parse_config(text, "t.toml");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// A grid point is the arguments of one cosda count: the grid keys take count's ranges
// (sweeps/run_checks.hpp), so no sweep measures a point count refuses.
TEST(SweepConfig, GridRangesAreThoseOfCount) {
  for (const char* key : {"n", "d", "m", "heads", "layers"}) {
    const Range r = range_of(key);
    const auto with = [&](std::int64_t v) {
      return fmt::format(
          "name = \"t\"\nvariants = [\"att\"]\nn = [8]\nd = [8]\n[[grid]]\n{} = [{}]\n", key, v);
    };
    EXPECT_EQ(config_error(with(r.hi)), "") << key;
    EXPECT_NE(config_error(with(r.hi + 1))
                  .find(fmt::format("integers in [{}, {}], got element {}", r.lo, r.hi, r.hi + 1)),
              std::string::npos)
        << key;
  }
}

const char* const kSmall = R"(name = "small"
variants = ["att", "co_si"]
n = [4, 8]
d = [4]
m = [2]
)";

// Two points.csv texts agree: same rows in the same order, every column equal except
// heap_peak_bytes, which is physical (malloc_usable_size of chunks whose size depends on the
// allocator's history) and may differ by chunk rounding and by where glibc's dynamic mmap
// threshold stands (two-block points: 16 KiB at 800 KiB seen): a page plus 3%.
void expect_same_points(const std::string& a, const std::string& b, const std::string& what) {
  const std::vector<SweepRow> ra = read_points_csv(a, "a.csv"), rb = read_points_csv(b, "b.csv");
  ASSERT_EQ(ra.size(), rb.size()) << what;
  std::vector<SweepRow> na = ra, nb = rb;
  for (std::size_t i = 0; i < ra.size(); ++i) {
    const double x = double(ra[i].heap_peak_bytes), y = double(rb[i].heap_peak_bytes);
    EXPECT_LE(std::fabs(x - y), 4096 + 0.03 * std::max(x, y)) << what << ": " << ra[i].point;
    na[i].heap_peak_bytes = nb[i].heap_peak_bytes = -1;
  }
  EXPECT_EQ(points_csv(na), points_csv(nb)) << what;
}

// ---------------------------------------------------------------------------------------
// Config validation.

TEST(SweepConfig, UnknownKeyNamesFileLineAndClosestKey) {
  const std::string e = config_error(std::string(kSmall) + "heds = [1]\n");
  EXPECT_NE(e.find("t.toml:6:"), std::string::npos) << e;
  EXPECT_NE(e.find("key 'heds' is not known"), std::string::npos) << e;
  EXPECT_NE(e.find("did you mean 'heads'"), std::string::npos) << e;
  EXPECT_EQ(e.find('\n'), std::string::npos);
}

TEST(SweepConfig, UnknownKeyInsideFigureSuggestsFromFigureKeys) {
  const std::string e = config_error(std::string(kSmall) +
                                     "[[figure]]\nfile = \"f\"\nx = \"n\"\ny = \"flops\"\n"
                                     "tilte = \"x\"\n");
  EXPECT_NE(e.find("t.toml:10:"), std::string::npos) << e;
  EXPECT_NE(e.find("did you mean 'title'"), std::string::npos) << e;
}

TEST(SweepConfig, WrongTypesAreOneLineErrorsNamingTheKey) {
  struct Case {
    std::string replace, with, expect;
  };
  const Case cases[] = {
      {"n = [4, 8]", "n = \"4\"",
       "key 'n' must be a non-empty array of distinct integers in "
       "[1, 1048576], got '4' (a string)"},
      {"n = [4, 8]", "n = 4", "key 'n' must be a non-empty array of distinct integers"},
      {"d = [4]", "d = [4.0]", "got element 4 (a floating-point number)"},
      {"m = [2]", "m = [0]", "key 'm' must be a non-empty array of distinct integers in [1,"},
      {"m = [2]", "m = []", "got an empty array"},
      {"n = [4, 8]", "n = [4, 4]", "lists 4 twice"},
      {"variants = [\"att\", \"co_si\"]", "variants = [\"att\", \"cosi\"]",
       "got 'cosi'; did you mean 'co_si'?"},
      {"variants = [\"att\", \"co_si\"]", "variants = \"att\"", "key 'variants' must be"},
      {"name = \"small\"", "name = \"Small Sweep\"", "key 'name' must use only"},
      {"name = \"small\"", "name = 3", "key 'name' must be a string, got 3"},
      {"name = \"small\"", "", "key 'name' is missing; add it"},
      {"d = [4]", "", "key 'd' is missing; add it"},
      {"n = [4, 8]", "n = [4, 8\n", "not valid TOML"},
  };
  for (const Case& c : cases) {
    std::string text = kSmall;
    text.replace(text.find(c.replace), c.replace.size(), c.with);
    const std::string e = config_error(text);
    EXPECT_NE(e.find(c.expect), std::string::npos) << c.with << " -> " << e;
    EXPECT_EQ(e.rfind("t.toml", 0), 0u) << e;
    EXPECT_EQ(e.find('\n'), std::string::npos) << e;
  }
  EXPECT_NE(config_error(std::string(kSmall) + "layers = [3]\n")
                .find("key 'layers' must be a non-empty array of distinct integers in [1, 2]"),
            std::string::npos);
  EXPECT_NE(
      config_error(std::string(kSmall) + "scalar = \"doubel\"\n").find("did you mean 'double'"),
      std::string::npos);
}

// The sweep config is read by TomlTable like every config: the line of the key (none for a key
// missing at the top level), the closest key or choice, and an empty section list as none.
TEST(SweepConfig, ErrorsNameTheKeysLineAndTheClosestKey) {
  EXPECT_EQ(config_error(std::string(kSmall) + "nn = [1]\n")
                .rfind("t.toml:6: key 'nn' is not known here (did you mean 'n'?)", 0),
            0u);
  EXPECT_EQ(config_error(std::string(kSmall) + "[[table]]\nkind = \"points\"\nprnted = 1\n")
                .rfind("t.toml:8: key 'prnted' in [[table]] #1 is not known here (did you mean "
                       "'printed'?)",
                       0),
            0u);
  std::string no_name = kSmall;
  no_name.erase(0, no_name.find('\n') + 1);
  EXPECT_EQ(config_error(no_name).rfind("t.toml: key 'name' is missing", 0), 0u);
  EXPECT_NE(config_error(std::string(kSmall) + "[[figure]]\nfile = \"f\"\ny = \"flops\"\n")
                .find("key 'x' in [[figure]] #1 is missing; add it (one of n, d, m)"),
            std::string::npos);
  for (const char* none : {"grid = []\n", "table = []\n", "figure = []\n"}) {
    EXPECT_EQ(config_error(std::string(kSmall) + none), "") << none;
    EXPECT_EQ(parse_config(std::string(kSmall) + none, "t.toml").grids.size(), 1u) << none;
  }
}

TEST(SweepConfig, FigureMustFixEveryCoordinateWithSeveralValues) {
  const std::string figure = "[[figure]]\nfile = \"f\"\nx = \"d\"\ny = \"flops\"\n";
  const std::string e = config_error(std::string(kSmall) + figure);
  EXPECT_NE(e.find("t.toml:6: key 'n' in [[figure]] #1 is missing: it takes 2 values"),
            std::string::npos)
      << e;
  EXPECT_EQ(config_error(std::string(kSmall) + figure + "n = 8\n"), "");
  EXPECT_NE(config_error(std::string(kSmall) + figure + "d = 4\n")
                .find("key 'd' in [[figure]] #1 is the figure's x axis"),
            std::string::npos);
  // A fixed value no grid sweeps would leave the figure without a point, after the whole sweep.
  for (const std::string fixed : {"n = 9\n", "n = 8\nlayers = 2\n", "n = 8\nheads = 2\n"})
    EXPECT_NE(config_error(std::string(kSmall) + figure + fixed).find("which no grid sweeps"),
              std::string::npos)
        << fixed;
}

TEST(SweepConfig, GridsAreUnitedInCanonicalOrderWithoutRepeats) {
  const SweepConfig c = parse_config(
      std::string(kSmall) + "[[grid]]\nvariants = [\"co_si\"]\nn = [8, 2]\n", "t.toml");
  const std::vector<Point> p = grid_points(c);
  ASSERT_EQ(p.size(), 5u);  // att n 4, 8; co_si n 2, 4, 8 (n = 8 in both grids, once)
  EXPECT_EQ(p[0].variant, "att");
  EXPECT_EQ(p[0].n, 4);
  EXPECT_EQ(p[2].variant, "co_si");
  EXPECT_EQ(p[2].n, 2);
  EXPECT_EQ(p[4].n, 8);
  EXPECT_EQ(p[4].layers, 1);
  EXPECT_EQ(p[4].heads, 1);
}

// ---------------------------------------------------------------------------------------
// Running.

TEST(Sweep, LandmarksBeyondTheWindowAreSkippedRowsNotDropped) {
  const SweepConfig c = parse_config(
      "name = \"skip\"\nvariants = [\"att\", \"cony_si_fix\"]\nn = [4]\nd = [4]\nm = [2, 8]\n",
      "t.toml");
  const std::vector<SweepRow> rows = run_sweep(c, 1);
  ASSERT_EQ(rows.size(), 3u);  // att has no m: one row
  for (const SweepRow& r : rows) {
    if (r.point.variant == "cony_si_fix" && r.point.m == 8) {
      EXPECT_FALSE(r.executed());
      EXPECT_NE(r.skip_reason.find("m"), std::string::npos) << r.skip_reason;
    } else {
      EXPECT_TRUE(r.executed()) << r.point << ": " << r.skip_reason;
      EXPECT_GT(r.flops, 0);
    }
  }
  // The skipped row is in the CSV with its reason and no executed numbers.
  const std::string csv = points_csv(rows);
  const std::size_t at = csv.find("cony_si_fix,1,1,4,4,8,,,,,,,,,,");
  ASSERT_NE(at, std::string::npos) << csv;
  EXPECT_NE(csv.find(rows[2].skip_reason, at), std::string::npos);
}

TEST(Sweep, PointsCsvDoesNotDependOnTheNumberOfThreads) {
  const SweepConfig c = parse_config(
      "name = \"det\"\n"
      "variants = [\"att\", \"ny\", \"co_re\", \"cony_si_cont\", \"cony_re_fix\"]\n"
      "n = [6, 16, 4]\nd = [8]\nm = [2, 4]\nheads = [1, 2]\n",
      "t.toml");
  const std::string one = points_csv(run_sweep(c, 1));
  const std::string two = points_csv(run_sweep(c, 2));
  expect_same_points(one, two, "--jobs 1 against --jobs 2");
  EXPECT_EQ(std::count(one.begin(), one.end(), '\n'), 1 + (2 + 3 * 2) * 3 * 2);  // att, co_re: no m
}

TEST(Sweep, CsvRoundTripKeepsEveryColumn) {
  const SweepConfig c = parse_config(
      "name = \"rt\"\nvariants = [\"cony_re_cont\", \"ny_fix\"]\nn = [8]\nd = [4]\nm = [2, 16]\n",
      "t.toml");
  const std::string csv = points_csv(run_sweep(c, 1));
  EXPECT_EQ(points_csv(read_points_csv(csv, "p.csv")), csv);
  std::string bad = csv;
  bad.replace(bad.find("\ncony_re_cont,1,1,8,4,2,") + 24, 1, "x");
  try {
    read_points_csv(bad, "p.csv");
    ADD_FAILURE() << "a malformed number must be rejected";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("p.csv:2:"), std::string::npos) << e.what();
  }
}

// ---------------------------------------------------------------------------------------
// Published compositions, held against the papers' printed numbers.

TEST(SweepPublished, CompositionsReproducePrintedRelativeFlops) {
  // Table III (n = 120, d = 192, m = 4): Att 5.57 M per layer; Att_CoNy^Cont-4 one layer
  // x509.66, whose per-step value needs the one-refresh-per-n/m-steps average; Att_Co two
  // layers x48.26 (co_re + co_si).
  Point p;
  p.n = 120;
  p.d = 192;
  p.m = 4;
  p.variant = "att";
  const double att = *published_flops(p, "nystrom");
  EXPECT_NEAR(att / 1e6, 5.57, 0.005);
  p.variant = "cony_si_cont";
  EXPECT_NEAR(att / *published_flops(p, "nystrom"), 509.66, 0.005);
  p.layers = 2;
  p.variant = "co_si";
  EXPECT_NEAR(2 * att / *published_flops(p, "nystrom"), 48.26, 0.005);
  // CoTrans Sec. 3.4: single-output SDA is 100x fewer FLOPs than regular at n = d = 100.
  Point q;
  q.n = q.d = 100;
  q.variant = "att";
  const double regular = *published_flops(q, "cotrans");
  q.variant = "co_si";
  EXPECT_NEAR(regular / *published_flops(q, "cotrans"), 100, 0.5);
}

TEST(SweepReport, PrintedTableFlagsExactlyTheCellsThatDoNotRound) {
  const SweepConfig c = load_config(kRepo / "configs/nystrom_table3.toml");
  const std::vector<SweepRow> rows =
      read_points_csv(read(kRepo / "results/nystrom_table3/points.csv"), "points.csv");
  const std::string md = table_md(c, rows);
  auto line_of = [&](const std::string& start) {
    const std::size_t at = md.find(start);
    EXPECT_NE(at, std::string::npos) << start;
    return md.substr(at, md.find('\n', at) - at);
  };
  // Att, one layer, one head: the App. A total rounds to the printed 5.57 (formula cells are
  // the first FLOPs/Rel. pair after the printed ones).
  const std::string att = line_of("| Att | att | 1 | 1 | 5.57 | x1 |");
  EXPECT_NE(att.find("| 5.5"), std::string::npos) << att;
  const std::string formula_att =
      att.substr(std::string("| Att | att | 1 | 1 | 5.57 | x1 |").size());
  EXPECT_EQ(formula_att.substr(0, formula_att.find("| x")).find("✗"), std::string::npos) << att;
  // Att_Co, two layers: printed 0.39 M, the totals give 0.23 M: flagged.
  const std::string co = line_of("| Att_Co | co_si | 2 | 1 | 0.39 | x48.26 |");
  const std::string formula_co =
      co.substr(std::string("| Att_Co | co_si | 2 | 1 | 0.39 | x48.26 |").size());
  EXPECT_NE(formula_co.substr(0, formula_co.find("| x")).find("✗"), std::string::npos) << co;
}

TEST(SweepReport, VariantsKeepTheirColourAcrossFigures) {
  const SweepConfig c = load_config(kRepo / "configs/nystrom_fig4.toml");
  const std::vector<SweepRow> rows =
      read_points_csv(read(kRepo / "results/nystrom_fig4/points.csv"), "points.csv");
  ASSERT_GE(c.figures.size(), 2u);
  const std::string a = gnuplot_script(c, c.figures[0], rows);
  const std::string b = gnuplot_script(c, c.figures[1], rows);
  for (const std::string& s : {a, b}) {
    EXPECT_NE(s.find("$e_att with linespoints lw 2 lc rgb '#000000'"), std::string::npos);
    EXPECT_NE(s.find("$p_att with lines lw 4 lc rgb '#70000000' dt (9,6)"), std::string::npos);
    EXPECT_NE(s.find("$e_co_si with linespoints lw 2 lc rgb '#009e73'"), std::string::npos);
  }
}

// ---------------------------------------------------------------------------------------
// The committed results still match what the code produces.

// Every committed table.md is what the report code writes from the committed points.csv.
TEST(SweepCommitted, TablesMatchTheReportOfTheCommittedPoints) {
  std::size_t checked = 0;
  for (const char* name : kCommittedConfigs) {
    const fs::path config = kRepo / "configs" / (std::string(name) + ".toml");
    const SweepConfig c = load_config(config);
    const fs::path dir = kRepo / "results" / c.name;
    ASSERT_TRUE(fs::exists(dir / "points.csv")) << "run make reproduce: " << dir;
    const std::vector<SweepRow> rows =
        read_points_csv(read(dir / "points.csv"), (dir / "points.csv").string());
    ASSERT_EQ(rows.size(), grid_points(c).size()) << c.name;
    // Sources print as given; the committed ones were written from the repository root.
    SweepConfig as_committed = c;
    as_committed.source = "configs/" + config.filename().string();
    EXPECT_EQ(table_md(as_committed, rows), read(dir / "table.md")) << c.name;
    EXPECT_NE(
        read(dir / "meta.json").find("\"schema_version\": " + std::to_string(kSweepSchemaVersion)),
        std::string::npos);
    ++checked;
  }
  EXPECT_EQ(checked, std::size(kCommittedConfigs));
}

// The cheap points are re-measured and must equal the committed rows (heap bytes only when
// the heap hooks are on in this build).
TEST(SweepCommitted, CheapPointsRemeasureToTheCommittedRows) {
  for (const char* name : kCommittedConfigs) {
    const SweepConfig c = load_config(kRepo / "configs" / (std::string(name) + ".toml"));
    const std::vector<SweepRow> committed =
        read_points_csv(read(kRepo / "results" / name / "points.csv"), "points.csv");
    std::vector<SweepRow> cheap;
    SweepConfig sub = c;
    sub.grids.clear();
    for (const SweepRow& r : committed) {
      if (r.point.n > 128) continue;
      cheap.push_back(r);
      SweepGrid g;
      g.variants = {r.point.variant};
      g.n = {r.point.n};
      g.d = {r.point.d};
      g.m = {r.point.m};
      g.layers = {r.point.layers};
      g.heads = {r.point.heads};
      sub.grids.push_back(g);
    }
    ASSERT_FALSE(cheap.empty());
    std::vector<SweepRow> now = run_sweep(sub, 0);
    ASSERT_EQ(now.size(), cheap.size());
    // The physical heap depends on the vector unit Eigen compiles for (alignment, GEMM
    // blocking) and on the CPU OpenBLAS picks kernels for: compared where both match the
    // machine that wrote the results; everywhere it must hold at least the logical peak but the
    // token's q, k and v rows (3d), which the peak counts and the measurement allocates before it
    // watches the heap (docs/counting.md, "the step's input and output").
    const std::string meta = read(kRepo / "results" / name / "meta.json");
    const bool same_machine =
        meta.find("\"cpu\": \"" + roofline::cpu_name() + "\"") != std::string::npos &&
        meta.find(std::string("\"simd\": \"") + Eigen::SimdInstructionSetsInUse() + "\"") !=
            std::string::npos;
    const std::int64_t scalar_bytes = c.scalar == "float" ? 4 : 8;
    for (const SweepRow& r : now) {
      if (heap::enabled() && r.executed()) {
        EXPECT_GE(r.heap_peak_bytes, scalar_bytes * (r.peak - 3 * r.point.d))
            << name << ": " << r.point;
      }
    }
    if (!heap::enabled() || !same_machine) {
      for (SweepRow& r : cheap) r.heap_peak_bytes = -1;
      for (SweepRow& r : now) r.heap_peak_bytes = -1;
    }
    expect_same_points(points_csv(now), points_csv(cheap), name);
  }
}

// Every input the config fuzzer (sweeps/fuzz_config.cpp) once failed on, and every seed, is
// now read or refused with a one-line InputError naming the file.
TEST(ConfigFuzzCorpus, StoredInputsParseOrFailWithOneLine) {
  std::size_t files = 0, refused = 0;
  for (const char* sub : {"sweeps/fuzz/config_regressions", "sweeps/fuzz/config_seeds"}) {
    for (const auto& entry : fs::directory_iterator(kRepo / sub)) {
      SCOPED_TRACE(entry.path().string());
      ++files;
      try {
        const SweepConfig c = parse_config(read(entry.path()), "input.toml");
        EXPECT_FALSE(c.name.empty());
      } catch (const InputError& e) {
        ++refused;
        const std::string what = e.what();
        EXPECT_EQ(what.find('\n'), std::string::npos) << what;
        EXPECT_EQ(what.rfind("input.toml", 0), 0u) << what;
      }
    }
  }
  EXPECT_GE(files, 5u);
  EXPECT_GE(refused, 4u) << "the regressions are malformed configs and must be refused";
}

// toml++ 3.3 asserts or reaches __builtin_unreachable on these; parse_toml refuses them first.
TEST(ConfigText, HeadersAndNonAsciiTextToml33MisreadsAreRefusedWithTheirLine) {
  const std::string base = "name = \"x\"\nvariants = [\"att\"]\nn = [8]\nd = [4]\nm = [2]\n";
  for (const auto& [text, line, what] : std::vector<std::tuple<std::string, int, std::string>>{
           {base + "[#a]\n", 6, "table header"},
           {base + "[[\ngrid]]\n", 6, "closing ']'"},
           {base + "[a.]\n", 6, "without a key"},
           {base + "t\xc3\xb6 = 1\n", 6, "non-ASCII"},
           {base + "s = 'N\xc3\xb6'\n", 6, "non-ASCII"},
           {base + "s = \"N\xc3\n\"\n", 6, "invalid UTF-8"}}) {
    SCOPED_TRACE(text);
    try {
      parse_config(text, "c.toml");
      ADD_FAILURE() << "accepted";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("c.toml:" + std::to_string(line) + ":"),
                std::string::npos)
          << e.what();
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
    }
  }
  // Non-ASCII text in double-quoted strings and comments stays valid, and arrives unchanged.
  const SweepConfig c = parse_config(
      base + "title = \"Nystr\xc3\xb6m \xe2\x80\x94 \xf0\x9f\x98\x80\" # \xc3\xa9\n", "c.toml");
  EXPECT_EQ(c.title, "Nystr\xc3\xb6m \xe2\x80\x94 \xf0\x9f\x98\x80");
}

}  // namespace
}  // namespace cosda
