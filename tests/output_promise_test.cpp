// The output promise, for every command of `cosda --help` (docs/reliability.md): a failure at
// any one output file (the COSDA_FAIL_AT hook, a read-only file or a folder in the way, a path
// through a file, a full file system where one can be mounted) leaves the output folder byte-
// identical and exits non-zero with one line naming the file; a kill (SIGKILL) at a random
// moment leaves either the old folder or the complete new one.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "io/npy.hpp"
#include "io/output_transaction.hpp"
#include "tests/cli_run.hpp"

namespace cosda::promise_test {

namespace fs = std::filesystem;
using Snapshot = std::map<std::string, std::string>;  // relative path -> bytes ("/" for folders)

// The command's own state in a folder, not an output: the lock's pid file and the sweep's
// resume journal (both documented), and write_file_atomic's temporaries of a killed run.
bool own_state(const std::string& name) {
  return name == ".lock" || name == ".points.journal" || name.find(".tmp.") != std::string::npos;
}

Snapshot snapshot(const fs::path& dir) {
  Snapshot s;
  if (!fs::exists(dir)) return {{"", "<absent>"}};
  for (auto it = fs::recursive_directory_iterator(dir); it != fs::recursive_directory_iterator();
       ++it) {
    if (own_state(it->path().filename().string())) {
      if (it->is_directory()) it.disable_recursion_pending();
      continue;
    }
    const std::string rel = fs::relative(it->path(), dir).string();
    s[rel] = it->is_directory() ? "/" : test::read(it->path());
  }
  return s;
}

void restore(const fs::path& dir, const Snapshot& s) {
  fs::remove_all(dir);
  if (s.count("")) return;  // absent
  fs::create_directories(dir);
  for (const auto& [rel, bytes] : s) {
    if (bytes == "/") {
      fs::create_directories(dir / rel);
    } else {
      fs::create_directories((dir / rel).parent_path());
      test::write(dir / rel, bytes);
    }
  }
}

struct Result {
  int status = -1;
  std::string err, out;
};

// `cosda args...` in `cwd` with `env` set; stdout and stderr go to files beside `cwd`.
pid_t start(const std::vector<std::string>& args, const fs::path& cwd,
            const std::map<std::string, std::string>& env) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    for (const auto& [k, v] : env) ::setenv(k.c_str(), v.c_str(), 1);
    std::vector<std::string> copy = args;
    std::vector<char*> argv{const_cast<char*>(COSDA_BIN)};
    for (auto& a : copy) argv.push_back(a.data());
    argv.push_back(nullptr);
    FILE* o = std::fopen((cwd.string() + ".stdout").c_str(), "w");
    FILE* e = std::fopen((cwd.string() + ".stderr").c_str(), "w");
    if (o == nullptr || e == nullptr || ::chdir(cwd.c_str()) != 0) ::_exit(126);
    ::dup2(::fileno(o), STDOUT_FILENO);
    ::dup2(::fileno(e), STDERR_FILENO);
    ::execv(COSDA_BIN, argv.data());
    ::_exit(127);
  }
  return pid;
}

Result finish(pid_t pid, const fs::path& cwd) {
  int status = 0;
  ::waitpid(pid, &status, 0);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status),
          test::read(cwd.string() + ".stderr"), test::read(cwd.string() + ".stdout")};
}

// The error: the last line on stderr (progress lines may come before it).
std::string last_line(const std::string& err) {
  std::string e = err;
  while (!e.empty() && e.back() == '\n') e.pop_back();
  return e.substr(e.rfind('\n') == std::string::npos ? 0 : e.rfind('\n') + 1);
}

Result run(const std::vector<std::string>& args, const fs::path& cwd,
           const std::map<std::string, std::string>& env = {}) {
  return finish(start(args, cwd, env), cwd);
}

// One command: its arguments, the folder it writes (relative to the scratch folder), the
// entries of that folder that are its inputs, and the inputs it needs first.
struct Spec {
  std::string command;
  std::vector<std::string> args;
  std::string target;
  std::set<std::string> inputs;
  std::function<void(const fs::path&)> setup = [](const fs::path&) {};
};

const char* const kAccuracy = R"(name = "acc"
d = 4
n = [8]
m = [2, 4]
variants = ["co_re", "cony_re_fix", "co_si", "cony_si_fix", "corf_si"]
steps = 6
calibration = 16
pinv_iterations = 6
pinv_study_iterations = [0, 6]
pinv_study_windows = 1
[[stream]]
name = "g"
kind = "gaussian"
seed = 1
)";

const char* const kDrift = R"(name = "drift_t"
n = 8
d = 4
m = 2
steps = 64
calibration = 16
checkpoints = 4
variants = ["co_si", "cony_si_fix"]
scalars = ["double"]
modes = ["plain"]
[[stream]]
name = "g"
kind = "gaussian"
seed = 11
)";

const char* const kOverflow = R"(name = "over"
n = 8
d = 4
m = 2
calibration = 16
steps = 8
sigma_min = 1.0
sigma_max = 1.0e3
variants = ["co_si"]
scalars = ["double"]
modes = ["plain"]
[[stream]]
name = "g"
kind = "gaussian"
seed = 21
)";

const char* const kSweep = R"(name = "sw"
title = "promise test"
variants = ["att", "co_si"]
n = [8, 16]
d = [8]
m = [1]
[[figure]]
file = "flops"
title = "FLOPs against n"
x = "n"
y = "flops"
d = 8
)";

void configs(const fs::path& s) {
  fs::create_directories(s / "cfg");
  test::write(s / "cfg/acc.toml", kAccuracy);
  test::write(s / "cfg/drift.toml", kDrift);
  test::write(s / "cfg/over.toml", kOverflow);
  test::write(s / "cfg/sw.toml", kSweep);
  test::write(s / "cfg/verify.toml", test::kSmallVerifyConfig);
  fs::create_directories(s / "io");
  std::vector<double> x(16 * 4);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = 0.1 * double(i % 7) - 0.3;
  write_npy(s / "io/x.npy", {16, 4}, x, false);
}

const std::vector<std::string> kSweepArgs = {"cfg/sw.toml", "--out",   "out",    "--jobs",
                                             "1",           "--quiet", "--fresh"};

std::vector<std::string> with(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

std::vector<Spec> specs() {
  const std::string model = std::string(COSDA_SOURCE_DIR) + "/configs/models/gtzan_cotrans_b1.toml";
  const std::string machine = std::string(COSDA_SOURCE_DIR) + "/results/roofline/machine.json";
  auto sweep_first = [](const std::vector<std::string>& extra) {
    return [extra](const fs::path& s) {
      ASSERT_EQ(run(with({"sweep"}, with(kSweepArgs, extra)), s).status, 0);
    };
  };
  return {
      {"count", {"--variant", "co_si", "--n", "8", "--d", "8"}, ".", {}},
      {"stream",
       {"--variant", "co_si", "--n", "4", "--input", "io/x.npy", "--output", "io/y.npy"},
       "io",
       {"x.npy"}},
      {"sweep", kSweepArgs, "out/sw", {}},
      {"merge",
       {"out/sw/shard-1-of-2", "out/sw/shard-2-of-2", "--out", "out"},
       "out/sw",
       {"shard-1-of-2", "shard-2-of-2"},
       [](const fs::path& s) {
         for (const char* k : {"1/2", "2/2"})
           ASSERT_EQ(run(with({"sweep"}, with(kSweepArgs, {"--shard", k})), s).status, 0);
       }},
      {"report",
       {"cfg/sw.toml", "--out", "out"},
       "out/sw",
       {"points.csv", "meta.json"},
       sweep_first({"--no-report"})},
      {"roofline",
       {"--out", "out/roof", "--plot-only"},
       "out/roof",
       {"machine.json"},
       [machine](const fs::path& s) {
         fs::create_directories(s / "out/roof");
         fs::copy_file(machine, s / "out/roof/machine.json");
       }},
      {"accuracy", {"cfg/acc.toml", "--out", "out"}, "out/acc", {}},
      {"drift", {"cfg/drift.toml", "--out", "out"}, "out/drift_t", {}},
      {"overflow", {"cfg/over.toml", "--out", "out"}, "out/over", {}},
      {"verify", {"--config", "cfg/verify.toml", "--out", "out/ver"}, "out/ver", {}},
      {"models",
       {"--config", "cfg/models/report.toml", "--out", "out/models"},
       "out/models",
       {},
       [model](const fs::path& s) {  // one model and its figure: the full report takes minutes
         fs::create_directories(s / "cfg/models");
         fs::copy_file(model, s / "cfg/models/gtzan_cotrans_b1.toml");
         test::write(s / "cfg/models/report.toml",
                     "title = \"one model\"\n[[figure]]\nfile = \"by_part\"\ntitle = \"by "
                     "part\"\nmodels = [\"gtzan_cotrans_b1\"]\nn = [8, 16]\n");
       }},
      {"variants", {}, ".", {}},
      {"list", {}, ".", {}},
      {"help", {"count"}, ".", {}},
      {"completion", {"bash"}, ".", {}},
  };
}

class Promise : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    for (const Spec& s : specs())
      if (s.command == GetParam()) spec_ = s;
    ASSERT_FALSE(spec_.command.empty());
    root_ = fs::temp_directory_path() /
            ("cosda_promise_" + std::to_string(::getpid()) + "_" + spec_.command);
    fs::remove_all(root_);
    scratch_ = root_ / "s";
    fs::create_directories(scratch_);
    configs(scratch_);
    spec_.setup(scratch_);
    target_ = spec_.target == "." ? scratch_ : scratch_ / spec_.target;
    if (spec_.target == ".") before_ = snapshot(target_);
    const auto t0 = std::chrono::steady_clock::now();
    const Result r = run(args(), scratch_);
    seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    ASSERT_EQ(r.status, 0) << r.err;
    reference_ = snapshot(target_);
    if (spec_.target == ".") {  // writes no file: the run left everything as it was
      ASSERT_EQ(reference_, before_);
      return;
    }
    for (const auto& e : fs::directory_iterator(target_)) {
      const std::string name = e.path().filename().string();
      if (e.is_regular_file() && name[0] != '.' && !spec_.inputs.count(name))
        outputs_.push_back(name);
    }
    ASSERT_FALSE(outputs_.empty());
    // The old folder: each output as a text no run writes, and a file of the user's.
    for (const std::string& o : outputs_) test::write(target_ / o, "old " + o + "\n");
    test::write(target_ / "keep.txt", "a file of the user's\n");
    before_ = snapshot(target_);
  }
  void TearDown() override {
    if (!mounted_.empty()) ::umount2(mounted_.c_str(), MNT_DETACH);
    std::error_code ec;
    fs::remove_all(root_, ec);
  }

  std::vector<std::string> args() const { return with({spec_.command}, spec_.args); }

  // A refusal: non-zero, a last line on stderr naming `name` and `cause`, the folder unchanged.
  void expect_refused(const Result& r, const std::string& name, const std::string& cause,
                      const Snapshot& before) {
    EXPECT_NE(r.status, 0) << name;
    const std::string line = last_line(r.err);
    EXPECT_NE(line.find(name), std::string::npos) << r.err;
    EXPECT_NE(line.find(cause), std::string::npos) << r.err;
    EXPECT_EQ(snapshot(target_), before) << spec_.command << ", at " << name << ": " << r.err;
    restore(target_, before);
  }

  // The complete new folder: the reference run's entries and the user's file, the inputs as
  // they were, every output rewritten and complete.
  bool is_new(const Snapshot& after) const {
    std::set<std::string> want{"keep.txt"}, got;
    for (const auto& [k, v] : reference_) want.insert(k);
    for (const auto& [k, v] : after) got.insert(k);
    if (got != want || after.at("keep.txt") != before_.at("keep.txt")) return false;
    for (const auto& [k, v] : after) {
      const bool output = std::find(outputs_.begin(), outputs_.end(), k) != outputs_.end();
      if (!output && v != before_.at(k)) return false;
      if (!output) continue;
      const std::string ext = fs::path(k).extension().string();
      const bool text = ext == ".csv" || ext == ".md" || ext == ".json" || ext == ".gp";
      if (v == "old " + k + "\n" || !incomplete_reason(target_ / k).empty() ||
          (text && (v.empty() || v.back() != '\n')) || (ext == ".npy" && v != reference_.at(k)))
        return false;
    }
    return true;
  }

  Spec spec_;
  fs::path root_, scratch_, target_, mounted_;
  Snapshot before_, reference_;
  std::vector<std::string> outputs_;
  double seconds_ = 0;
};

// The commands are those `cosda --help` lists: "  <name> <summary>" lines.
TEST(OutputPromise, EveryCommandOfHelpIsCovered) {
  const fs::path dir =
      fs::temp_directory_path() / ("cosda_promise_help_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const Result r = run({"--help"}, dir);
  fs::remove_all(dir);
  for (const char* ext : {".stdout", ".stderr"}) fs::remove(dir.string() + ext);
  ASSERT_EQ(r.status, 0);
  std::istringstream lines(r.out);
  int commands = 0;
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("  ", 0) != 0 || line.size() < 3 || line[2] == ' ') continue;
    const std::string name = line.substr(2, line.find(' ', 2) - 2);
    if (name == "cosda") continue;  // "  cosda --version ..."
    bool found = false;
    for (const Spec& s : specs()) found |= s.command == name;
    EXPECT_TRUE(found) << "cosda " << name << " has no spec in tests/output_promise_test.cpp";
    ++commands;
  }
  EXPECT_GE(commands, 15);
}

TEST_P(Promise, FailureAtEachOutputFileLeavesTheFolderAsItWas) {
  if (outputs_.empty()) GTEST_SKIP() << "writes no file (stdout): cosda " << spec_.command;
  for (const std::string& o : outputs_)
    expect_refused(run(args(), scratch_, {{"COSDA_FAIL_AT", o}}), o, "injected failure", before_);
  // Into a folder that does not exist yet: it still does not (a sweep keeps the folder with
  // its journal alone, for --resume).
  if (!spec_.inputs.empty()) return;
  const Snapshot absent{{"", "<absent>"}};
  restore(target_, absent);
  expect_refused(run(args(), scratch_, {{"COSDA_FAIL_AT", outputs_[0]}}), outputs_[0],
                 "injected failure", spec_.command == "sweep" ? Snapshot{} : absent);
  for (const auto& e : fs::directory_iterator(target_.parent_path()))
    EXPECT_EQ(e.path().filename().string().find(".stage."), std::string::npos) << e.path();
  restore(target_, before_);
}

TEST_P(Promise, FileOrFolderInTheWayIsRefusedBeforeAnyWork) {
  if (outputs_.empty()) GTEST_SKIP() << "writes no file (stdout): cosda " << spec_.command;
  const fs::path first = target_ / outputs_[0];
  fs::permissions(first, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
  Snapshot before = snapshot(target_);
  const Result r = run(args(), scratch_);
  fs::permissions(first, fs::perms::owner_read | fs::perms::owner_write);
  expect_refused(r, outputs_[0], "read-only", before);
  fs::remove(first);
  fs::create_directory(first);
  before = snapshot(target_);
  expect_refused(run(args(), scratch_), outputs_[0], "directory", before);
  restore(target_, before_);
  if (!spec_.inputs.empty()) return;  // its inputs live in the folder
  restore(target_, {{"", "<absent>"}});
  test::write(target_, "a file where the folder goes\n");
  const Result through = run(args(), scratch_);
  EXPECT_NE(through.status, 0);
  EXPECT_NE(last_line(through.err).find(spec_.target), std::string::npos) << through.err;
  EXPECT_EQ(test::read(target_), "a file where the folder goes\n");
  fs::remove(target_);
  restore(target_, before_);
}

TEST_P(Promise, ReadOnlyFolderIsRefused) {
  if (outputs_.empty()) GTEST_SKIP() << "writes no file (stdout): cosda " << spec_.command;
  if (::geteuid() == 0) GTEST_SKIP() << "running as root: a read-only folder is writable to root";
  fs::permissions(target_, fs::perms::owner_read | fs::perms::owner_exec);
  const Result r = run(args(), scratch_);
  fs::permissions(target_, fs::perms::owner_all);
  EXPECT_NE(r.status, 0);
  EXPECT_EQ(snapshot(target_), before_);
}

TEST_P(Promise, FullFileSystemLeavesTheFolderAsItWas) {
  if (outputs_.empty()) GTEST_SKIP() << "writes no file (stdout): cosda " << spec_.command;
  const fs::path parent = target_.parent_path();
  if (::mount("tmpfs", parent.c_str(), "tmpfs", 0, "size=1m") != 0)
    GTEST_SKIP() << "cannot mount a small tmpfs (" << std::strerror(errno)
                 << "): needs CAP_SYS_ADMIN";
  mounted_ = parent;
  restore(target_, before_);  // the folder and its inputs, on the small file system
  {
    std::ofstream filler(parent / "filler", std::ios::binary);
    const std::string block(4096, 'x');
    while (filler.write(block.data(), block.size()) && filler.flush()) {
    }
  }
  const Snapshot before = snapshot(target_);
  const Result r = run(args(), scratch_);
  EXPECT_NE(r.status, 0) << "a full file system went unnoticed";
  EXPECT_NE(last_line(r.err).find("cannot write"), std::string::npos) << r.err;
  EXPECT_EQ(snapshot(target_), before) << r.err;
  ASSERT_EQ(::umount(parent.c_str()), 0) << std::strerror(errno);
  mounted_.clear();
}

TEST_P(Promise, KillAtARandomMomentLeavesTheOldOrTheNewFolder) {
  constexpr int kKills = 6;
  std::mt19937 rng(20261128u + unsigned(spec_.command.size()));
  std::uniform_real_distribution<double> when(0.0, seconds_ * 1.2 + 0.005);
  int olds = 0, news = 0;
  for (int i = 0; i < kKills; ++i) {
    const double at = when(rng);
    const pid_t pid = start(args(), scratch_, {});
    std::this_thread::sleep_for(std::chrono::duration<double>(at));
    ::kill(pid, SIGKILL);
    finish(pid, scratch_);
    const Snapshot after = snapshot(target_);
    if (after == before_) {
      ++olds;
    } else {
      EXPECT_TRUE(is_new(after)) << "cosda " << spec_.command << " killed after " << at << " s";
      ++news;
    }
    restore(target_, before_);
  }
  std::printf("cosda %s: %d kills at random in [0, %.2f] s: %d left the old folder, %d the new\n",
              spec_.command.c_str(), kKills, seconds_ * 1.2, olds, news);
  // The next run removes the stages the kills left beside the folder.
  const Result r = run(args(), scratch_);
  ASSERT_EQ(r.status, 0) << r.err;
  if (spec_.target == ".") return;
  for (const auto& e : fs::directory_iterator(target_.parent_path()))
    EXPECT_EQ(e.path().filename().string().find(".stage."), std::string::npos) << e.path();
}

INSTANTIATE_TEST_SUITE_P(EveryCommand, Promise,
                         ::testing::Values("count", "stream", "sweep", "merge", "report",
                                           "roofline", "accuracy", "drift", "overflow", "verify",
                                           "models", "variants", "list", "help", "completion"),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });

}  // namespace cosda::promise_test
