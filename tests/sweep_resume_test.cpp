// Interrupted sweeps resume to the same points.csv; shards merge to the unsharded sweep.
// These tests run the real `cosda` executable (COSDA_BIN) in child processes and signal them.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

// A namespace of its own: its own spawn and run, apart from tests/cli_run.hpp's.
namespace cosda::test::resume {
namespace {

namespace fs = std::filesystem;

const std::string kConfig = std::string(COSDA_SOURCE_DIR) + "/tests/data/resume_sweep.toml";
const std::string kSmall = std::string(COSDA_SOURCE_DIR) + "/configs/nystrom_table3.toml";

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// points.csv without the heap_peak_bytes column, the one column that depends on the
// allocator's history (sweeps/sweep.hpp).
std::string without_heap_column(const std::string& csv) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(csv);
  std::string line, out;
  int heap = -1;
  while (std::getline(in, line)) {
    std::vector<std::string> f;
    std::string cell;
    std::istringstream ls(line);
    while (std::getline(ls, cell, ',')) f.push_back(cell);
    if (heap < 0)
      for (std::size_t i = 0; i < f.size(); ++i)
        if (f[i] == "heap_peak_bytes") heap = int(i);
    for (std::size_t i = 0; i < f.size(); ++i)
      if (int(i) != heap) out += f[i] + ",";
    out += "\n";
  }
  return out;
}

pid_t spawn(const std::vector<std::string>& args, const fs::path& log) {
  const pid_t pid = fork();
  if (pid == 0) {
    std::vector<char*> argv;
    std::string bin = COSDA_BIN;
    argv.push_back(bin.data());
    std::vector<std::string> copy = args;
    for (auto& a : copy) argv.push_back(a.data());
    argv.push_back(nullptr);
    FILE* f = std::fopen(log.c_str(), "w");
    if (f != nullptr) {
      dup2(fileno(f), STDOUT_FILENO);
      dup2(fileno(f), STDERR_FILENO);
    }
    execv(COSDA_BIN, argv.data());
    _exit(127);
  }
  return pid;
}

int wait_status(pid_t pid) {
  int status = 0;
  waitpid(pid, &status, 0);
  return status;
}

int run(const std::vector<std::string>& args, const fs::path& log) {
  const int status = wait_status(spawn(args, log));
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int journal_rows(const fs::path& journal) {
  const std::string text = read(journal);
  int lines = 0;
  for (const char c : text) lines += c == '\n' ? 1 : 0;
  return lines - 1;  // the header line
}

// The points.csv of an uninterrupted sweep of kConfig, run once for all tests.
const std::string& uninterrupted_csv() {
  static const std::string csv = [] {
    const fs::path root = fs::temp_directory_path() / ("cosda_whole_" + std::to_string(getpid()));
    const int rc = run({"sweep", kConfig, "--out", root.string(), "--no-report", "--jobs", "2"},
                       root.string() + ".log");
    std::string text = rc == 0 ? read(root / "resume_sweep" / "points.csv") : std::string();
    fs::remove_all(root);
    fs::remove(root.string() + ".log");
    return text;
  }();
  return csv;
}

class SweepResume : public ::testing::TestWithParam<int> {};

TEST_P(SweepResume, InterruptedSweepResumesToTheUninterruptedCsv) {
  const int sig = GetParam();
  const fs::path root = fs::temp_directory_path() /
                        ("cosda_resume_" + std::to_string(getpid()) + "_" + std::to_string(sig));
  fs::remove_all(root);
  const fs::path cut = root / "cut";
  const std::string& reference = uninterrupted_csv();
  ASSERT_FALSE(reference.empty());

  const fs::path dir = cut / "resume_sweep", journal = dir / ".points.journal";
  const fs::path log = root / "cut.log";
  fs::create_directories(root);
  const pid_t pid =
      spawn({"sweep", kConfig, "--out", cut.string(), "--no-report", "--jobs", "2"}, log);
  // Signal once a few points are journaled and well before all 288 are.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(5);
  while (std::chrono::steady_clock::now() < deadline &&
         !(fs::exists(journal) && journal_rows(journal) >= 3))
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  ASSERT_EQ(kill(pid, sig), 0);
  const int status = wait_status(pid);
  if (sig == SIGINT) {
    ASSERT_TRUE(WIFEXITED(status)) << read(log);
    EXPECT_EQ(WEXITSTATUS(status), 130) << read(log);
    EXPECT_NE(read(log).find("--resume"), std::string::npos) << read(log);
  } else {
    ASSERT_TRUE(WIFSIGNALED(status));
    EXPECT_EQ(WTERMSIG(status), SIGKILL);
  }
  EXPECT_FALSE(fs::exists(dir / "points.csv")) << "an interrupted sweep wrote points.csv";
  const int kept = journal_rows(journal);
  ASSERT_GE(kept, 3);
  ASSERT_LT(kept, 288) << "the sweep finished before it was interrupted; the test proves nothing";

  // Without --resume or --fresh an existing journal is an input error and nothing is written.
  EXPECT_EQ(run({"sweep", kConfig, "--out", cut.string(), "--no-report"}, root / "refuse.log"), 2);
  EXPECT_FALSE(fs::exists(dir / "points.csv"));

  ASSERT_EQ(run({"sweep", kConfig, "--out", cut.string(), "--no-report", "--jobs", "2", "--resume"},
                root / "resume.log"),
            0)
      << read(root / "resume.log");
  EXPECT_NE(read(root / "resume.log").find("kept from the journal"), std::string::npos)
      << read(root / "resume.log");
  EXPECT_EQ(without_heap_column(read(dir / "points.csv")), without_heap_column(reference));
  EXPECT_FALSE(fs::exists(journal)) << "the journal outlived a finished sweep";
  fs::remove_all(root);
}

INSTANTIATE_TEST_SUITE_P(Signals, SweepResume, ::testing::Values(SIGINT, SIGKILL),
                         [](const auto& info) {
                           return info.param == SIGINT ? "SIGINT" : "SIGKILL";
                         });

TEST(SweepShards, MergedShardsEqualTheWholeSweepAndBadSetsAreRefused) {
  const fs::path root = fs::temp_directory_path() / ("cosda_shards_" + std::to_string(getpid()));
  fs::remove_all(root);
  fs::create_directories(root);
  const fs::path log = root / "log";
  ASSERT_EQ(run({"sweep", kSmall, "--out", (root / "whole").string(), "--no-report"}, log), 0)
      << read(log);
  std::vector<std::string> shard_dirs;
  for (int k = 1; k <= 3; ++k) {
    ASSERT_EQ(run({"sweep", kSmall, "--out", (root / "shards").string(), "--shard",
                   std::to_string(k) + "/3"},
                  log),
              0)
        << read(log);
    shard_dirs.push_back(
        (root / "shards" / "nystrom_table3" / ("shard-" + std::to_string(k) + "-of-3")).string());
  }
  // A missing shard and a shard given twice are refused, and nothing is written.
  EXPECT_EQ(run({"merge", shard_dirs[0], shard_dirs[2], "--out", (root / "bad").string()}, log), 2);
  EXPECT_NE(read(log).find("shard 2/3 is missing"), std::string::npos) << read(log);
  EXPECT_EQ(run({"merge", shard_dirs[0], shard_dirs[1], shard_dirs[1], shard_dirs[2], "--out",
                 (root / "bad").string()},
                log),
            2);
  EXPECT_NE(read(log).find("given twice"), std::string::npos) << read(log);
  // The --out folder of the shards instead of the shard folders: the message names one.
  EXPECT_EQ(run({"merge", (root / "shards").string(), "--out", (root / "bad").string()}, log), 2);
  EXPECT_NE(read(log).find("holds " + shard_dirs[0] + " and 2 more"), std::string::npos)
      << read(log);
  EXPECT_FALSE(fs::exists(root / "bad"));

  ASSERT_EQ(run({"merge", shard_dirs[2], shard_dirs[0], shard_dirs[1], "--out",
                 (root / "merged").string(), "--no-report"},
                log),
            0)
      << read(log);
  EXPECT_EQ(without_heap_column(read(root / "merged" / "nystrom_table3" / "points.csv")),
            without_heap_column(read(root / "whole" / "nystrom_table3" / "points.csv")));
  fs::remove_all(root);
}

}  // namespace
}  // namespace cosda::test::resume
