// What the command-line front prints when the input is good: count's columns (those of a
// sweep's points.csv), the variants table, help, version, the bash completion script, strict
// switches that still accept true and false, and the output dtype of cosda stream.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "attention/registry.hpp"
#include "sweeps/points.hpp"
#include "tests/cli_run.hpp"

namespace {

namespace fs = std::filesystem;
using cosda::test::Outcome;
using cosda::test::read;
using cosda::test::run;
using cosda::test::write;

class CliFront : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("cosda_front_" + std::to_string(getpid()));
    fs::remove_all(root_);
    fs::create_directories(root_);
  }
  void TearDown() override { fs::remove_all(root_); }
  Outcome cosda(const std::vector<std::string>& args) { return run(args, root_); }
  fs::path root_;
};

std::vector<std::string> split(const std::string& line, char sep) {
  std::vector<std::string> out;
  std::stringstream ss(line);
  for (std::string f; std::getline(ss, f, sep);) out.push_back(f);
  return out;
}

// A 12 x 4 .npy of tokens, float32 or float64.
std::string tokens(bool float32) {
  std::string h = std::string("{'descr': '") + (float32 ? "<f4" : "<f8") +
                  "', 'fortran_order': False, 'shape': (12, 4), }";
  while ((10 + h.size() + 1) % 64 != 0) h += ' ';
  h += '\n';
  std::string s = std::string("\x93NUMPY\x01\x00", 8);
  s += char(h.size() & 0xff);
  s += char(h.size() >> 8);
  s += h;
  for (int i = 0; i < 48; ++i) {
    if (float32) {
      const float v = 0.01f * float(i % 7);
      s.append(reinterpret_cast<const char*>(&v), sizeof v);
    } else {
      const double v = 0.01 * double(i % 7);
      s.append(reinterpret_cast<const char*>(&v), sizeof v);
    }
  }
  return s;
}

TEST_F(CliFront, CountColumnsAreThoseOfPointsCsv) {
  const auto points = split(cosda::points_csv_header(), ',');
  const std::vector<std::string> count_only = {
      "scalar", "counting",  "heap_retained_bytes", "heap_allocations_per_cycle",
      "d_head", "convention"};
  for (const std::string format : {"csv", "tsv"}) {
    const Outcome r = cosda({"count", "--variant", "cony_si_cont", "--n", "12", "--d", "4", "--m",
                             "5", "--format", format});
    ASSERT_EQ(r.status, 0) << r.err;
    const auto lines = split(r.out, '\n');
    ASSERT_EQ(lines.size(), 2u) << r.out;
    const auto head = split(lines[0], format == "csv" ? ',' : '\t');
    const auto row = split(lines[1], format == "csv" ? ',' : '\t');
    EXPECT_EQ(head.size(), row.size());
    for (const auto& name : head) {
      const bool known = std::find(points.begin(), points.end(), name) != points.end() ||
                         std::find(count_only.begin(), count_only.end(), name) != count_only.end();
      EXPECT_TRUE(known) << name << " is neither a points.csv column nor a documented one";
    }
    for (const std::string name : {"flops", "valley", "peak", "update_steps", "exact_flops"})
      EXPECT_NE(std::find(head.begin(), head.end(), name), head.end()) << name;
  }
  const Outcome json = cosda({"count", "--variant", "att", "--n", "8", "--d", "4"});
  ASSERT_EQ(json.status, 0) << json.err;
  EXPECT_EQ(json.out.rfind("{\"variant\": \"att\", \"layers\": 1,", 0), 0u) << json.out;
  EXPECT_NE(json.out.find("\"update_flops\": null"), std::string::npos) << json.out;
}

// The value of `"key": value` in count's one-line JSON.
double json_number(const std::string& json, const std::string& key) {
  const auto at = json.find("\"" + key + "\": ");
  EXPECT_NE(at, std::string::npos) << key << " in " << json;
  return at == std::string::npos ? 0.0 : std::stod(json.substr(at + key.size() + 4));
}

// mac counts a multiply-add pair once: attention is dot products (k mul, k - 1 add) and
// axpys, so its mac count is about half of all; mul is the mul bucket.
TEST_F(CliFront, CountConventions) {
  const std::vector<std::string> base = {"count", "--variant", "att", "--n", "32", "--d", "16"};
  auto flops = [&](const std::string& convention, const std::string& key) {
    auto a = base;
    a.insert(a.end(), {"--convention", convention});
    const Outcome r = cosda(a);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("\"convention\": \"" + convention + "\""), std::string::npos);
    return json_number(r.out, key);
  };
  const double all = flops("all", "flops"), mac = flops("mac", "flops");
  EXPECT_GT(mac / all, 0.4);
  EXPECT_LT(mac / all, 0.6);
  EXPECT_EQ(flops("mul", "flops"), flops("all", "mul"));
  EXPECT_EQ(flops("all", "d_head"), 16);
  const Outcome bad =
      cosda({"count", "--variant", "att", "--n", "4", "--d", "4", "--convention", "macs"});
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("--convention"), std::string::npos) << bad.err;
}

// Random features are not tokens of the window: count and stream take m > n for them.
TEST_F(CliFront, RandomFeaturesTakeMAboveN) {
  write(root_ / "x.npy", tokens(false));
  const Outcome c = cosda({"count", "--variant", "corf_si", "--n", "8", "--d", "4", "--m", "64"});
  EXPECT_EQ(c.status, 0) << c.err;
  const Outcome s = cosda({"stream", "--variant", "corf_si", "--n", "8", "--m", "64",
                           "--feature-seed", "7", "--input", "x.npy", "--output", "y.npy"});
  EXPECT_EQ(s.status, 0) << s.err;
  const Outcome ny = cosda({"count", "--variant", "ny", "--n", "8", "--d", "4", "--m", "9"});
  EXPECT_EQ(ny.status, 2);
}

TEST_F(CliFront, SwitchesTakeTrueAndFalse) {
  const std::vector<std::string> base = {"count", "--variant", "att", "--n", "8", "--d", "4"};
  auto with = [&](const std::string& flag) {
    auto a = base;
    if (!flag.empty()) a.push_back(flag);
    const Outcome r = cosda(a);
    EXPECT_EQ(r.status, 0) << r.err;
    return r.out;
  };
  EXPECT_NE(with("--exact").find("scalar-level"), std::string::npos);
  EXPECT_EQ(with("--exact=true"), with("--exact"));
  EXPECT_EQ(with("--exact=false"), with(""));
  EXPECT_NE(with("--exact=false").find("\"fast\""), std::string::npos);
}

TEST_F(CliFront, VariantsHelpVersion) {
  const Outcome v = cosda({"variants"});
  ASSERT_EQ(v.status, 0) << v.err;
  for (const auto id : cosda::kVariantIds)
    EXPECT_NE(v.out.find("\n" + std::string(id) + " "), std::string::npos) << id;
  EXPECT_EQ(cosda({"list"}).out, v.out);
  // --ids: the ids alone, one a line, in registry order; rank and no-rank split them by m.
  std::string all, rank;
  for (const auto& t : cosda::kVariants) {
    all += std::string(t.id) + "\n";
    if (t.landmarks != cosda::LandmarkKind::kNone) rank += std::string(t.id) + "\n";
  }
  EXPECT_EQ(cosda({"variants", "--ids", "all"}).out, all);
  EXPECT_EQ(cosda({"variants", "--ids", "rank"}).out, rank);
  EXPECT_EQ(cosda({"variants", "--ids", "rank"}).out.size() +
                cosda({"variants", "--ids", "no-rank"}).out.size(),
            all.size());
  const Outcome help = cosda({"help", "count"});
  EXPECT_EQ(help.status, 0);
  EXPECT_EQ(help.out, cosda({"count", "--help"}).out);
  EXPECT_NE(help.out.find("valley, peak"), std::string::npos);
  EXPECT_EQ(cosda({"help"}).out, cosda({"--help"}).out);
  const Outcome version = cosda({"--version"});
  EXPECT_EQ(version.status, 0);
  EXPECT_EQ(version.out.rfind("cosda 0.", 0), 0u) << version.out;
}

TEST_F(CliFront, BashCompletionComesFromTheCommandTable) {
  const Outcome r = cosda({"completion", "bash"});
  ASSERT_EQ(r.status, 0) << r.err;
  for (const std::string word :
       {"count", "stream", "sweep", "variants", "--variant", "--format", "--memory-limit",
        "--exact-pinv", "--model", "json csv tsv", "complete -o default -F _cosda cosda"})
    EXPECT_NE(r.out.find(word), std::string::npos) << word;
  for (const auto id : cosda::kVariantIds)
    EXPECT_NE(r.out.find(std::string(id)), std::string::npos) << id;
  if (std::system("command -v bash >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "bash is not installed: the script's syntax was not checked (bash -n)";
  write(root_ / "c.bash", r.out);
  EXPECT_EQ(std::system(("bash -n " + (root_ / "c.bash").string()).c_str()), 0);
}

TEST_F(CliFront, StreamOutputDtypeFollowsTheInput) {
  for (const bool f32 : {true, false}) {
    write(root_ / "x.npy", tokens(f32));
    const std::vector<std::string> args = {"stream",  "--variant", "co_si",    "--n",  "4",
                                           "--input", "x.npy",     "--output", "y.npy"};
    ASSERT_EQ(cosda(args).status, 0);
    EXPECT_NE(read(root_ / "y.npy").find(f32 ? "'<f4'" : "'<f8'"), std::string::npos);
    auto forced = args;
    forced.insert(forced.end(), {"--scalar", f32 ? "double" : "float"});
    ASSERT_EQ(cosda(forced).status, 0);
    EXPECT_NE(read(root_ / "y.npy").find(f32 ? "'<f8'" : "'<f4'"), std::string::npos);
  }
}

// A folder the output cannot be written into, whoever runs the test (CI runs as root, to
// whom a read-only mode is no obstacle): its path passes through a regular file.
TEST_F(CliFront, OutputInAFolderThatCannotBeMadeIsRefused) {
  write(root_ / "x.npy", tokens(false));
  write(root_ / "plain", "keep");
  const Outcome r = cosda({"stream", "--variant", "co_si", "--n", "4", "--input", "x.npy",
                           "--output", "plain/sub/y.npy"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("not a directory"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << r.err;
  EXPECT_EQ(read(root_ / "plain"), "keep");
  EXPECT_FALSE(fs::exists(root_ / "y.npy"));
}

// A read-only folder, for a user the mode bits bind: root is not refused by the kernel, so the
// test is the non-root half of the one above (the check is the same access(2) call).
TEST_F(CliFront, OutputInAReadOnlyFolderIsRefused) {
  if (geteuid() == 0)
    GTEST_SKIP() << "root writes into read-only folders (OutputInAFolderThatCannotBeMadeIsRefused "
                    "covers the refusal)";
  write(root_ / "x.npy", tokens(false));
  fs::create_directory(root_ / "ro");
  fs::permissions(root_ / "ro", fs::perms::owner_read | fs::perms::owner_exec);
  const Outcome r = cosda(
      {"stream", "--variant", "co_si", "--n", "4", "--input", "x.npy", "--output", "ro/y.npy"});
  fs::permissions(root_ / "ro", fs::perms::owner_all);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("not writable"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(root_ / "ro" / "y.npy"));
}

// cosda accuracy on variants of one output shape only, or exact ones only: exit 0, the summary,
// the figures that have data (one panel where one shape has data), and a note for each figure
// without data, which is not drawn; --results and --no-plots still read, with one line each.
TEST_F(CliFront, AccuracyDrawsTheFiguresThatHaveData) {
  const std::string head =
      "d = 4\nn = [8]\nm = [2, 4]\nsteps = 6\ncalibration = 16\npinv_iterations = 6\n"
      "pinv_study_iterations = [0, 6]\npinv_study_windows = 1\n"
      "[[stream]]\nname = \"g\"\nkind = \"gaussian\"\nseed = 1\n";
  struct Case {
    std::string name, variants;
    bool error_vs_m;
  };
  for (const Case& c : {Case{"single", R"(["co_si", "cony_si_fix", "corf_si"])", true},
                        Case{"whole", R"(["co_re", "cony_re_fix"])", true},
                        Case{"exact", R"(["co_si", "co_re"])", false}}) {
    write(root_ / (c.name + ".toml"),
          "name = \"" + c.name + "\"\nvariants = " + c.variants + "\n" + head);
    const Outcome r = cosda({"accuracy", c.name + ".toml", "--out", "out"});
    ASSERT_EQ(r.status, 0) << c.name << ": " << r.err;
    const fs::path dir = root_ / "out" / c.name;
    const std::string summary = read(dir / "summary.md");
    EXPECT_NE(summary.find("# Accuracy"), std::string::npos);
    EXPECT_EQ(fs::exists(dir / "error_vs_m_g.png"), c.error_vs_m) << c.name;
    EXPECT_EQ(summary.find("error_vs_m_g.png: no variant") != std::string::npos, !c.error_vs_m)
        << summary;
    const std::string script = read(dir / "tradeoff_g_n8.gp");
    EXPECT_NE(script.find(c.name == "exact" ? "layout 1,2" : "layout 1,1"), std::string::npos)
        << c.name;
    EXPECT_NE(script.find("(FLOPs"), std::string::npos);  // units on the axis
    if (c.name == "single") {  // corf_si's m counts features, not landmarks
      EXPECT_NE(read(dir / "error_vs_m_g.gp").find("random features"), std::string::npos);
    }
    if (c.name != "exact") {  // the exact variant sits below the approximate ones' range
      EXPECT_NE(script.find("exact variants"), std::string::npos);
    }
  }
  const Outcome old = cosda({"accuracy", "whole.toml", "--results", "old", "--no-plots"});
  ASSERT_EQ(old.status, 0) << old.err;
  EXPECT_TRUE(fs::exists(root_ / "old/whole/summary.md"));
  EXPECT_FALSE(fs::exists(root_ / "old/whole/tradeoff_g_n8.png"));
  EXPECT_NE(old.err.find("--results is deprecated"), std::string::npos) << old.err;
  EXPECT_NE(old.err.find("--no-plots is deprecated"), std::string::npos) << old.err;
}

}  // namespace
