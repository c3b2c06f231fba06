// A config is data that comes with a paper's artifact: it must never run code, and every check
// that can fail happens before any file is written. These tests run the real `cosda`
// executable as a user would (exit code, the one-line message, the files left behind).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "analysis/roofline_model.hpp"
#include "io/csv.hpp"
#include "io/plot.hpp"
#include "sweeps/config.hpp"
#include "sweeps/journal.hpp"
#include "sweeps/report.hpp"
#include "tests/cli_run.hpp"

// A namespace of its own: its own write, spawn and run, apart from tests/cli_run.hpp's.
namespace cosda::test::safety {
namespace {

namespace fs = std::filesystem;

using cosda::test::Outcome;
using cosda::test::read;

void write(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
}

// Starts `cosda args...` in `cwd` with stdout and stderr to files there.
pid_t spawn(const std::vector<std::string>& args, const fs::path& cwd, const std::string& tag) {
  return cosda::test::spawn(args, cwd, cwd / (".out." + tag), cwd / (".err." + tag));
}

Outcome finish(pid_t pid, const fs::path& cwd, const std::string& tag) {
  int status = 0;
  waitpid(pid, &status, 0);
  Outcome r;
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = read(cwd / (".out." + tag));
  r.err = read(cwd / (".err." + tag));
  fs::remove(cwd / (".out." + tag));
  fs::remove(cwd / (".err." + tag));
  return r;
}

Outcome run(const std::vector<std::string>& args, const fs::path& cwd) {
  return finish(spawn(args, cwd, "run"), cwd, "run");
}

// Every entry under `dir` with its type and contents (a snapshot to compare).
std::map<std::string, std::string> snapshot(const fs::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    const std::string rel = fs::relative(e.path(), dir).string();
    if (rel.rfind(".out.", 0) == 0 || rel.rfind(".err.", 0) == 0) continue;
    const fs::file_status s = fs::symlink_status(e.path());
    std::string what = std::to_string(int(s.type())) + ":" + std::to_string(int(s.permissions()));
    if (s.type() == fs::file_type::regular) what += ":" + read(e.path());
    if (s.type() == fs::file_type::symlink) what += ":" + fs::read_symlink(e.path()).string();
    files[rel] = what;
  }
  return files;
}

void expect_refused(const Outcome& r, const std::string& names) {
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_FALSE(r.err.empty());
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "not one line: " << r.err;
  EXPECT_NE(r.err.find(names), std::string::npos) << "does not name " << names << ": " << r.err;
}

class Scratch : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("cosda_safety_" + std::to_string(getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::permissions(dir_, fs::perms::owner_all, fs::perm_options::add, ec);
    fs::remove_all(dir_, ec);
  }
  fs::path dir_;
};

const std::string kTiny = "name = \"t\"\nvariants = [\"att\"]\nn = [8, 16]\nd = [4]\nm = [2]\n";

// A TOML basic string holding `s` (quotes, backslashes and control characters escaped).
std::string toml_string(const std::string& s) {
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out + "\"";
}

// Figure titles that would run a shell command if they reached gnuplot as script text: a
// backquote, a line break then `!`, a closing double or single quote then system(), $(...).
std::vector<std::string> hostile_titles(const fs::path& mark) {
  const std::string m = mark.string();
  return {"`touch " + m + "_1`",
          "fine\n!touch " + m + "_2\nset title 'x'",
          "x\" ; system(\"touch " + m + "_3\") ; print \"",
          "x' ; system('touch " + m + "_4') ; print '",
          "$(touch " + m + "_5) back\\slash 'quoted' \"double\" Nyström ≤ 2",
          "x\"\n`touch " + m + "_6`\n!touch " + m + "_7"};
}

std::string figures(const std::vector<std::string>& titles) {
  std::string text;
  for (std::size_t i = 0; i < titles.size(); ++i)
    text += "[[figure]]\nfile = \"f" + std::to_string(i) + "\"\ntitle = " + toml_string(titles[i]) +
            "\nx = \"n\"\ny = \"flops\"\n";
  return text;
}

bool any_mark(const fs::path& dir) {
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().filename().string().rfind("pwned", 0) == 0) return true;
  return false;
}

TEST_F(Scratch, HostileFigureTitlesRenderAsTextAndRunNothing) {
  const std::vector<std::string> titles = hostile_titles(dir_ / "pwned");
  write(dir_ / "c.toml", kTiny + "title = \"a | b\\nc\"\n" + figures(titles));
  const Outcome sweep = run({"sweep", "c.toml", "--out", "res"}, dir_);
  EXPECT_EQ(sweep.status, 0) << sweep.err;
  const Outcome report = run({"report", "c.toml", "--out", "res"}, dir_);
  EXPECT_EQ(report.status, 0) << report.err;
  const fs::path out = dir_ / "res" / "t";
  for (std::size_t i = 0; i < titles.size(); ++i) {
    const fs::path gp = out / ("f" + std::to_string(i) + ".gp");
    ASSERT_TRUE(fs::exists(gp));
    // The script saved for re-drawing is as harmless when run alone.
    if (cosda::gnuplot_available()) {
      EXPECT_TRUE(fs::exists(out / ("f" + std::to_string(i) + ".png"))) << titles[i];
      const cosda::GnuplotRun alone = cosda::run_gnuplot(
          out, {"-e", "png='.alone.png'; pdf='.alone.pdf'", gp.filename().string()});
      EXPECT_EQ(alone.status, 0) << alone.output;
    }
  }
  EXPECT_FALSE(any_mark(dir_)) << "a figure title ran a shell command";
  // table.md: the config's title is one heading line, its | escaped.
  EXPECT_NE(read(out / "table.md").find("# a \\| b c\n"), std::string::npos)
      << read(out / "table.md");
  // The scripts were not run through gnuplot: the half of the test that needs it did not run.
  if (!cosda::gnuplot_available())
    GTEST_SKIP() << "gnuplot is not installed (make deps installs gnuplot-nox): the saved "
                    "scripts were checked as text only";
}

TEST(Safety, GnuplotQuotingAndCsvFormulaGuard) {
  EXPECT_EQ(cosda::gp_quote("it's\n`x`"), "'it''s `x`'");
  EXPECT_EQ(cosda::gp_comment("a\nb\r"), "a b ");
  EXPECT_EQ(cosda::csv_field("=1+1"), "\"'=1+1\"");
  EXPECT_EQ(cosda::csv_field("@SUM(A1)"), "\"'@SUM(A1)\"");
  EXPECT_EQ(cosda::csv_field("att"), "att");
  EXPECT_EQ(cosda::csv_field("m > n"), "m > n");
  for (const std::string s : {"=1+1", "+x", "-cmd|' /C calc'!A0", "@a", "'=x", "''-y", "'plain",
                              "a,b", "q\"q", "", "needs 1 <= m <= n"}) {
    const std::vector<std::string> cells = cosda::split_csv(cosda::csv_field(s) + ",z");
    ASSERT_EQ(cells.size(), 2u) << s;
    EXPECT_EQ(cells[0], s);
    EXPECT_EQ(cells[1], "z");
  }
}

TEST_F(Scratch, OutputsThatAreNotRegularFilesAreRefusedUntouched) {
  write(dir_ / "c.toml", kTiny);
  const fs::path out = dir_ / "res" / "t";
  struct Setup {
    std::string what, path;
    std::function<void(const fs::path&)> make;
  };
  const std::vector<Setup> setups = {
      {"FIFO", "points.csv", [](const fs::path& p) { ASSERT_EQ(mkfifo(p.c_str(), 0644), 0); }},
      {"symlink", "meta.json",
       [&](const fs::path& p) {
         write(dir_ / "victim", "keep");
         fs::create_symlink(dir_ / "victim", p);
       }},
      {"directory", "table.md", [](const fs::path& p) { fs::create_directories(p); }},
      {"read-only", "points.csv",
       [](const fs::path& p) {
         write(p, "old");
         fs::permissions(p, fs::perms::owner_read);
       }},
      {"device", "meta.json", [](const fs::path& p) { fs::create_symlink("/dev/null", p); }}};
  for (const Setup& s : setups) {
    SCOPED_TRACE(s.what);
    fs::remove_all(dir_ / "res");
    fs::remove(dir_ / "victim");
    fs::create_directories(out);
    s.make(out / s.path);
    const auto before = snapshot(dir_);
    expect_refused(run({"sweep", "c.toml", "--out", "res"}, dir_),
                   (out / s.path).string().substr(dir_.string().size() + 1));
    EXPECT_EQ(snapshot(dir_), before);
  }
  // An output root that is a file, and a read-only results folder.
  fs::remove_all(dir_ / "res");
  write(dir_ / "res", "x");
  expect_refused(run({"sweep", "c.toml", "--out", "res"}, dir_), "res");
  fs::remove(dir_ / "res");
  fs::create_directories(out);
  fs::permissions(out, fs::perms::owner_read | fs::perms::owner_exec);
  if (access(out.c_str(), W_OK) != 0) {  // root may write anywhere
    expect_refused(run({"sweep", "c.toml", "--out", "res"}, dir_), "res/t");
    EXPECT_TRUE(fs::is_empty(out));
  }
  fs::permissions(out, fs::perms::owner_all);
}

std::uint64_t fnv1a(const std::string& bytes) {
  std::uint64_t h = 1469598103934665603ull;
  for (const char c : bytes) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ull;
  }
  return h;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& l : lines) text += l + "\n";
  return text;
}

const std::string kSlow = std::string(COSDA_SOURCE_DIR) + "/tests/data/resume_sweep.toml";

// Starts a sweep of the 288-point resume config into dir/res and returns once it has journaled
// `rows` points (it is still running).
pid_t start_slow_sweep(const fs::path& dir, int rows) {
  fs::copy_file(kSlow, dir / "slow.toml", fs::copy_options::overwrite_existing);
  const pid_t pid =
      spawn({"sweep", "slow.toml", "--out", "res", "--no-report", "--jobs", "1"}, dir, "slow");
  const fs::path journal = dir / "res" / "resume_sweep" / ".points.journal";
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(5);
  while (std::chrono::steady_clock::now() < deadline &&
         int(lines_of(read(journal)).size()) < 2 + rows)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  return pid;
}

TEST_F(Scratch, ASecondSweepOfALiveFolderIsRefusedAndFreshTruncatesNothing) {
  const pid_t first = start_slow_sweep(dir_, 1);
  const fs::path journal = dir_ / "res" / "resume_sweep" / ".points.journal";
  const std::size_t before = read(journal).size();
  ASSERT_GT(before, 0u);
  for (const char* mode : {"--resume", "--fresh"}) {
    SCOPED_TRACE(mode);
    const Outcome second = run({"sweep", "slow.toml", "--out", "res", "--no-report", mode}, dir_);
    expect_refused(second, "another cosda run (pid " + std::to_string(first) + ")");
    EXPECT_GE(read(journal).size(), before) << "the live run's journal was cut";
  }
  const Outcome report = run({"report", "slow.toml", "--out", "res"}, dir_);
  EXPECT_EQ(report.status, 2) << report.err;
  ASSERT_EQ(kill(first, SIGKILL), 0);
  finish(first, dir_, "slow");
  // The kernel released the lock with the process: the folder can be resumed.
  EXPECT_GE(lines_of(read(journal)).size(), 3u);
}

TEST_F(Scratch, ResumeRefusesDamagedRowsAndAnEditedConfig) {
  const pid_t pid = start_slow_sweep(dir_, 3);
  ASSERT_EQ(kill(pid, SIGKILL), 0);
  finish(pid, dir_, "slow");
  // A killed run leaves its pid file (not its lock); the next run replaces and removes it.
  fs::remove(dir_ / "res" / "resume_sweep" / ".lock");
  const fs::path journal = dir_ / "res" / "resume_sweep" / ".points.journal";
  const std::vector<std::string> good = lines_of(read(journal));
  ASSERT_GE(good.size(), 5u);
  const std::vector<std::string> resume = {"sweep", "slow.toml",   "--out",
                                           "res",   "--no-report", "--resume"};
  auto refused = [&](const std::vector<std::string>& lines, const std::string& names) {
    write(journal, joined(lines));
    const auto before = snapshot(dir_);
    expect_refused(run(resume, dir_), names);
    EXPECT_EQ(snapshot(dir_), before);
  };
  // A flipped digit: the row no longer matches its checksum.
  std::vector<std::string> bad = good;
  const std::size_t digit = bad[3].find_first_of("123456789", 40);
  bad[3][digit] = bad[3][digit] == '9' ? '8' : '9';
  refused(bad, ".points.journal:4: the row does not match its checksum");
  // flops edited and the checksum recomputed: the row breaks flops = mul + add + div + exp + other.
  bad = good;
  std::vector<std::string> cells = cosda::split_csv(bad[2].substr(34));
  cells[6] = "1" + cells[6];
  std::string row;
  for (std::size_t i = 0; i < cells.size(); ++i) row += (i ? "," : "") + cells[i];
  char sum[17];
  std::snprintf(sum, sizeof sum, "%016llx", static_cast<unsigned long long>(fnv1a(row)));
  bad[2] = bad[2].substr(0, 17) + sum + "," + row;
  refused(bad, ".points.journal:3: flops");
  // The config edited since the run: refused, naming the key.
  write(journal, joined(good));
  std::string text = read(dir_ / "slow.toml");
  text.replace(text.find("n = [512"), 8, "n = [256");
  write(dir_ / "slow.toml", text);
  refused(good, "key 'n'");
  // --fresh starts over (and a last line cut short is ignored by --resume).
  fs::copy_file(kSlow, dir_ / "slow.toml", fs::copy_options::overwrite_existing);
  write(journal, joined(good) + good.back().substr(0, 20));
  const Outcome resumed = run(resume, dir_);
  EXPECT_EQ(resumed.status, 0) << resumed.err;
}

// points.csv has no column for the formulas or the scalar: a report after either was edited
// would label the old published column (or heap bytes) with the new setting.
TEST_F(Scratch, ReportRefusesPointsSweptWithOtherFormulasOrScalar) {
  write(dir_ / "c.toml", kTiny);
  ASSERT_EQ(run({"sweep", "c.toml", "--out", "res", "--no-report"}, dir_).status, 0);
  for (const std::string key : {"formulas = \"cotrans\"", "scalar = \"float\""}) {
    write(dir_ / "c.toml", key + "\n" + kTiny);
    const auto before = snapshot(dir_);
    expect_refused(run({"report", "c.toml", "--out", "res"}, dir_),
                   "was swept with " + key.substr(0, key.find(' ')));
    EXPECT_EQ(snapshot(dir_), before);
  }
  write(dir_ / "c.toml", kTiny);
  EXPECT_EQ(run({"report", "c.toml", "--out", "res"}, dir_).status, 0);
}

TEST_F(Scratch, MergeRefusesAShardRowThatBreaksItsInvariants) {
  write(dir_ / "c.toml", kTiny);
  ASSERT_EQ(run({"sweep", "c.toml", "--out", "s", "--shard", "1/2"}, dir_).status, 0);
  ASSERT_EQ(run({"sweep", "c.toml", "--out", "s", "--shard", "2/2"}, dir_).status, 0);
  const fs::path csv = dir_ / "s" / "t" / "shard-2-of-2" / "points.csv";
  std::vector<std::string> lines = lines_of(read(csv));
  ASSERT_EQ(lines.size(), 2u);
  std::vector<std::string> cells = cosda::split_csv(lines[1]);
  cells[7] = "1" + cells[7];  // mul
  lines[1].clear();
  for (std::size_t i = 0; i < cells.size(); ++i) lines[1] += (i ? "," : "") + cells[i];
  write(csv, joined(lines));
  const auto before = snapshot(dir_);
  expect_refused(run({"merge", "s/t/shard-1-of-2", "s/t/shard-2-of-2", "--out", "m"}, dir_),
                 "shard-2-of-2/points.csv:2: flops");
  EXPECT_EQ(snapshot(dir_), before);
}

TEST_F(Scratch, ProvenanceComesFromTheBuildNotTheWorkingDirectory) {
  // A sweep run inside another git repository records cosda's own commit, not that one's.
  write(dir_ / "c.toml", kTiny);
  const std::string git = "cd " + dir_.string() +
                          " && git init -q && git -c user.name=t -c user.email=t@t add c.toml && "
                          "git -c user.name=t -c user.email=t@t commit -qm t && git rev-parse "
                          "HEAD > head.txt";
  if (std::system(git.c_str()) != 0) GTEST_SKIP() << "git is not available";
  const std::string other = lines_of(read(dir_ / "head.txt")).at(0);
  ASSERT_EQ(run({"sweep", "c.toml", "--out", "res", "--no-report"}, dir_).status, 0);
  const std::string meta = read(dir_ / "res" / "t" / "meta.json");
  EXPECT_EQ(meta.find(other), std::string::npos) << meta;
  EXPECT_NE(meta.find("\"git_commit\": \""), std::string::npos) << meta;
}

// Drift, overflow and accuracy figures differ between CPUs in their last digits, so a study's
// folder names the CPU, commit and config that wrote it, as a sweep's does.
TEST_F(Scratch, StudiesRecordCpuCommitAndConfig) {
  const std::string config =
      "name = \"over\"\nn = 8\nd = 4\nm = 2\ncalibration = 16\nsteps = 8\nsigma_max = 1.0e3\n"
      "variants = [\"co_si\"]\nscalars = [\"double\"]\nmodes = [\"plain\"]\n"
      "[[stream]]\nname = \"g\"\nkind = \"gaussian\"\nseed = 21\n";
  write(dir_ / "c.toml", config);
  ASSERT_EQ(run({"overflow", "c.toml", "--out", "res"}, dir_).status, 0);
  const std::string meta = read(dir_ / "res" / "over" / "meta.json");
  for (const std::string& field :
       {std::string("\"command\": \"cosda overflow\""), std::string("\"config_file\": \"c.toml\""),
        "\"cpu\": \"" + roofline::cpu_name() + "\"", std::string("\"git_commit\": \""),
        std::string("\"config_text\": \"name = \\\"over\\\"\\nn = 8\\n")})
    EXPECT_NE(meta.find(field), std::string::npos) << field << " in\n" << meta;
  EXPECT_NE(read(dir_ / "res" / "over" / "overflow.md").find("meta.json"), std::string::npos);
}

// Every committed study folder (a drift.md, overflow.md or accuracy summary.md) has the
// meta.json of the command that wrote it.
TEST(Safety, EveryCommittedStudyNamesItsMachine) {
  int studies = 0;
  for (const auto& e : fs::directory_iterator(fs::path(COSDA_SOURCE_DIR) / "results")) {
    for (const auto& [md, command] : {std::pair{"drift.md", "drift"},
                                      {"overflow.md", "overflow"},
                                      {"summary.md", "accuracy"}}) {
      if (!fs::exists(e.path() / md) || !fs::exists(e.path() / (std::string(command) + ".csv")))
        continue;
      ++studies;
      const fs::path meta = e.path() / "meta.json";
      ASSERT_TRUE(fs::exists(meta)) << meta << ": run make reproduce";
      const std::string text = read(meta);
      EXPECT_NE(text.find(std::string("\"command\": \"cosda ") + command + "\""), std::string::npos)
          << meta;
      EXPECT_NE(text.find("\"cpu\": \""), std::string::npos) << meta;
    }
  }
  EXPECT_EQ(studies, 4);  // accuracy, accuracy_exact_pinv, drift, overflow
}

TEST(Safety, EveryCommittedPointsRowKeepsItsInvariants) {
  int rows = 0;
  for (const auto& e : fs::directory_iterator(fs::path(COSDA_SOURCE_DIR) / "results")) {
    const fs::path csv = e.path() / "points.csv";
    if (!fs::exists(csv)) continue;
    for (const cosda::SweepRow& r : cosda::read_points_csv(read(csv), csv.string())) {
      EXPECT_EQ(cosda::row_defect(r), "") << csv << " " << r.point;
      ++rows;
    }
  }
  EXPECT_GT(rows, 100);
}

// gnuplot runs in cosda's stage folder: killed, cosda must take it down too, or the next run's
// removal of that stage races a gnuplot still writing into it (a stage left behind). Here
// gnuplot is a script on PATH that writes its pid and sleeps as that pid.
TEST(Safety, GnuplotDiesWithTheCommandThatStartedIt) {
  const fs::path dir = fs::temp_directory_path() / ("cosda_gnuplot_" + std::to_string(getpid()));
  fs::remove_all(dir);
  write(dir / "bin" / "gnuplot", "#!/bin/sh\necho $$ > \"" + (dir / "pid").string() +
                                     ".tmp\"\nmv \"" + (dir / "pid").string() + ".tmp\" \"" +
                                     (dir / "pid").string() + "\"\nexec sleep 30\n");
  fs::permissions(dir / "bin" / "gnuplot", fs::perms::owner_all);
  const pid_t caller = fork();
  ASSERT_GE(caller, 0);
  if (caller == 0) {  // stands for cosda: runs gnuplot and waits for it
    const char* path = std::getenv("PATH");
    setenv("PATH",
           ((dir / "bin").string() + ":" + (path != nullptr ? path : "/usr/bin:/bin")).c_str(), 1);
    (void)cosda::run_gnuplot(dir, {}, "");
    _exit(0);
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!fs::exists(dir / "pid") && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  kill(caller, SIGKILL);
  waitpid(caller, nullptr, 0);
  ASSERT_TRUE(fs::exists(dir / "pid")) << "the stand-in gnuplot never started";
  const std::string pid = read(dir / "pid").substr(0, read(dir / "pid").find('\n'));
  // Gone, or a zombie no one has reaped yet: either way no longer running.
  const auto running = [&] {
    std::ifstream stat("/proc/" + pid + "/stat");
    std::string line;
    if (!std::getline(stat, line)) return false;
    const std::size_t close = line.rfind(')');
    return close != std::string::npos && close + 2 < line.size() && line[close + 2] != 'Z';
  };
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (running() && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  EXPECT_FALSE(running()) << "gnuplot (pid " << pid << ") outlived the command that started it";
  if (running()) kill(pid_t(std::stol(pid)), SIGKILL);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace cosda::test::safety
