// Where results come from: every command that writes a results folder records the commit of its
// build, the config it read and the machine it ran on, and every committed folder of results/
// names a commit of this repository (README, "Quick start").
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "sweeps/meta.hpp"
#include "tests/cli_run.hpp"

namespace {

namespace fs = std::filesystem;
using cosda::test::kSmallVerifyConfig;
using cosda::test::Outcome;
using cosda::test::read;
using cosda::test::run;
using cosda::test::write;

const fs::path kRepo = COSDA_SOURCE_DIR;

const char* const kSweep = R"(name = "sw"
variants = ["att"]
n = [8]
d = [8]
)";

class Provenance : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("cosda_provenance_" + std::to_string(::getpid()));
    fs::remove_all(root_);
    fs::create_directories(root_ / "s");
  }
  void TearDown() override { fs::remove_all(root_); }
  Outcome cosda(const std::vector<std::string>& args) { return run(args, root_ / "s"); }
  fs::path root_;
};

// `text` as a JSON string's inside: quotes and newlines escaped (the configs here have no other
// character to escape).
std::string escaped(const std::string& text) {
  std::string out;
  for (const char c : text) out += c == '"' ? "\\\"" : c == '\n' ? "\\n" : std::string(1, c);
  return out;
}

// The string value of a key of a meta.json ("" if absent), read as the sweeps read theirs.
std::string field(const std::string& json, const std::string& key) {
  return cosda::meta_string(json, key).value_or("");
}

// `cosda --version` names the commit that every meta.json of the same binary records, clean or
// not (the commit of the build, not of the last CMake configure).
TEST_F(Provenance, VersionNamesTheCommitMetaJsonRecords) {
  write(root_ / "s/sw.toml", kSweep);
  const Outcome sweep = cosda({"sweep", "sw.toml", "--out", "r", "--quiet"});
  ASSERT_EQ(sweep.status, 0) << sweep.err;
  const std::string commit = field(read(root_ / "s/r/sw/meta.json"), "git_commit");
  const Outcome version = cosda({"--version"});
  ASSERT_EQ(version.status, 0) << version.err;
  if (commit == "unknown") {
    EXPECT_NE(version.out.find("(commit unknown)"), std::string::npos) << version.out;
    return;
  }
  ASSERT_TRUE(std::regex_match(commit.substr(0, 40), std::regex("[0-9a-f]{40}"))) << commit;
  const bool dirty = commit.find("uncommitted") != std::string::npos;
  EXPECT_EQ(version.out, "cosda 0.1.0 (commit " + commit.substr(0, 7) +
                             (dirty ? ", with uncommitted changes)\n" : ")\n"));
}

// verify and models write a meta.json beside their report: the command, the config as read, the
// other files read, the commit and the machine, as the sweeps and studies do.
TEST_F(Provenance, VerifyAndModelsRecordTheirRun) {
  write(root_ / "s/verify.toml", kSmallVerifyConfig);
  const Outcome v = cosda({"verify", "--config", "verify.toml", "--out", "ver"});
  ASSERT_EQ(v.status, 0) << v.err;
  const std::string model = (kRepo / "configs/models/gtzan_cotrans_b1.toml").string();
  fs::create_directories(root_ / "s/models");
  fs::copy_file(model, root_ / "s/models/gtzan_cotrans_b1.toml");
  const std::string report = "title = \"one model\"\n";
  write(root_ / "s/models/report.toml", report);
  const Outcome m =
      cosda({"models", "--config", "models/report.toml", "--out", "mod", "--no-figures"});
  ASSERT_EQ(m.status, 0) << m.err;
  const std::string commit =
      field(read(root_ / "s/ver/meta.json"), "git_commit");  // as the sweeps record it
  for (const auto& [folder, command, config, text, input] :
       {std::tuple{"ver", "cosda verify", "verify.toml", std::string(kSmallVerifyConfig), ""},
        std::tuple{"mod", "cosda models", "models/report.toml", report,
                   "models/gtzan_cotrans_b1.toml"}}) {
    const fs::path path = root_ / "s" / folder / "meta.json";
    ASSERT_TRUE(fs::exists(path)) << path;
    const std::string meta = read(path);
    EXPECT_EQ(field(meta, "command"), command) << meta;
    EXPECT_EQ(field(meta, "config_file"), config) << meta;
    EXPECT_NE(meta.find("\"config_text\": \"" + escaped(text) + "\""), std::string::npos) << meta;
    EXPECT_FALSE(field(meta, "git_commit").empty()) << meta;
    EXPECT_EQ(field(meta, "git_commit"), commit) << meta;
    EXPECT_FALSE(field(meta, "cpu").empty()) << meta;
    EXPECT_FALSE(field(meta, "date_utc").empty()) << meta;
    if (*input != '\0') {
      EXPECT_NE(meta.find(std::string("\"inputs\": [\"") + input + "\"]"), std::string::npos)
          << meta;
    }
  }
}

// cosda report from an edited config (a title; the points stay those swept) leaves meta.json
// holding the text that draws the folder, and naming the report; the sweep's run fields stay.
// The same text again changes nothing.
TEST_F(Provenance, ReportOfAnEditedConfigRecordsItsText) {
  write(root_ / "s/sw.toml", kSweep);
  ASSERT_EQ(cosda({"sweep", "sw.toml", "--out", "r", "--quiet", "--no-figures"}).status, 0);
  const fs::path meta = root_ / "s/r/sw/meta.json";
  const std::string swept = read(meta);
  const std::string edited = std::string(kSweep) + "title = \"retitled\"\n";
  write(root_ / "s/sw.toml", edited);
  const Outcome report = cosda({"report", "sw.toml", "--out", "r", "--no-figures"});
  ASSERT_EQ(report.status, 0) << report.err;
  const std::string reported = read(meta);
  EXPECT_EQ(field(reported, "config_text"), edited) << reported;
  EXPECT_EQ(field(reported, "report_git_commit"), field(swept, "git_commit")) << reported;
  EXPECT_FALSE(field(reported, "report_date_utc").empty()) << reported;
  for (const char* key : {"git_commit", "date_utc", "cpu", "config_file"})
    EXPECT_EQ(field(reported, key), field(swept, key)) << key;
  EXPECT_NE(read(root_ / "s/r/sw/table.md").find("retitled"), std::string::npos);
  ASSERT_EQ(cosda({"report", "sw.toml", "--out", "r", "--no-figures"}).status, 0);
  EXPECT_EQ(read(meta), reported);
}

// A figure is a function of its data: the PDF carries no creation date (cairo writes the time of
// the run), so a report drawn again a second later writes the same bytes.
TEST_F(Provenance, FiguresDrawnAgainAreTheSameBytes) {
  write(
      root_ / "s/sw.toml",
      std::string(kSweep) + "[[figure]]\nfile = \"f\"\ntitle = \"t\"\nx = \"n\"\ny = \"flops\"\n");
  ASSERT_EQ(cosda({"sweep", "sw.toml", "--out", "r", "--quiet"}).status, 0);
  const fs::path pdf = root_ / "s/r/sw/f.pdf", png = root_ / "s/r/sw/f.png";
  if (!fs::exists(pdf))
    GTEST_SKIP() << "no PDF drawn (gnuplot-nox with pdfcairo: make deps); nothing to compare";
  const std::string first = read(pdf), first_png = read(png);
  EXPECT_EQ(first.find("/CreationDate"), std::string::npos);
  EXPECT_NE(first.find("/Producer"), std::string::npos);  // the rest of /Info is kept
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  ASSERT_EQ(cosda({"report", "sw.toml", "--out", "r"}).status, 0);
  EXPECT_EQ(read(pdf), first);
  EXPECT_EQ(read(png), first_png);
}

// Every folder of results/ names the commit that wrote it, a full hash without uncommitted
// changes, and where the checkout has its history, a commit of it: meta.json, the roofline's
// machine.json, the timing reports' first paragraph, the Slurm check's record.
TEST(ProvenanceCommitted, EveryResultsFolderNamesACleanCommit) {
  const std::regex hash("[0-9a-f]{40}");
  const std::string git = "git -C '" + kRepo.string() + "'";
  const bool history =
      std::system((git + " rev-parse -q --verify HEAD >/dev/null 2>&1").c_str()) == 0;
  int folders = 0;
  for (const auto& e : fs::directory_iterator(kRepo / "results")) {
    if (!e.is_directory()) continue;
    ++folders;
    const fs::path dir = e.path();
    std::vector<std::string> commits;
    const auto commit_at = [&](const fs::path& file, const std::regex& re) {
      ASSERT_TRUE(fs::exists(file)) << file << ": run make reproduce";
      const std::string text = read(file);
      std::smatch m;
      ASSERT_TRUE(std::regex_search(text, m, re)) << file << " names no clean commit";
      commits.push_back(m[1].str());
    };
    const std::regex in_json("\"(?:git_commit|cosda_git_commit)\": \"([0-9a-f]{40})\"");
    const std::regex in_md("at commit ([0-9a-f]{40}) \\(\\d{4}-");
    if (dir.filename() == "timing") {
      for (const char* md : {"realized.md", "peer.md", "models.md"}) commit_at(dir / md, in_md);
      commit_at(dir / "bench.json", in_json);
    } else if (dir.filename() == "roofline") {
      commit_at(dir / "machine.json", in_json);
    } else if (dir.filename() == "slurm") {
      commit_at(dir / "last_run.md", std::regex("- commit: ([0-9a-f]{40}) \\(the build"));
    } else {
      commit_at(dir / "meta.json", in_json);
      const std::string meta = read(dir / "meta.json");
      EXPECT_FALSE(field(meta, "cpu").empty()) << dir;
      EXPECT_EQ(meta.find("uncommitted"), std::string::npos) << dir;
      // The config as committed drew the folder: an edit since needs cosda report or a rerun.
      if (const std::string config = field(meta, "config_file"); !config.empty()) {
        EXPECT_EQ(field(meta, "config_text"), read(kRepo / config))
            << dir << ": " << config << " changed since; rerun make reproduce";
      }
    }
    for (const std::string& c : commits) {
      ASSERT_TRUE(std::regex_match(c, hash)) << dir;
      if (!history) continue;
      const std::string probe = git + " cat-file -e " + c + "^{commit} 2>/dev/null";
      EXPECT_EQ(std::system(probe.c_str()), 0)
          << dir << ": " << c << " is not a commit of this repository";
    }
  }
  EXPECT_GE(folders, 15);
}

}  // namespace
