// The error paths of the commands tests/cli_errors_test.cpp does not reach: roofline,
// accuracy, drift, overflow, list and variants, count --model, models, report, bare `cosda`,
// and exit status 1, a failure at run time (not of the input), injected by giving the command
// a full disk for its standard output. Each case: its exit status, one line on stderr naming
// what is wrong, nothing on stdout and nothing written.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "analysis/roofline_model.hpp"
#include "io/plot.hpp"
#include "sweeps/config_kinds.hpp"
#include "tests/cli_refusal.hpp"
#include "tests/cli_run.hpp"

namespace {

namespace fs = std::filesystem;
using cosda::test::Outcome;
using cosda::test::read;
using cosda::test::run;
using cosda::test::write;

using Case = cosda::test::RefusalCase;
using cosda::test::written;

// A config of the source tree (configs/...) as text.
std::string config(const std::string& rel) {
  return read(fs::path(COSDA_SOURCE_DIR) / "configs" / rel);
}

std::vector<Case> cases() {
  std::vector<Case> c;
  c.push_back(
      {"roofline: --repetitions 0", {"roofline", "--repetitions", "0"}, {}, "--repetitions"});
  c.push_back(
      {"roofline: --repetitions text", {"roofline", "--repetitions", "ten"}, {}, "--repetitions"});
  c.push_back({"roofline: unknown flag", {"roofline", "--reps", "3"}, {}, "--reps"});
  c.push_back({"roofline: --plot-only without machine.json",
               {"roofline", "--plot-only", "--out", "r"},
               {},
               "machine.json"});
  // A damaged machine.json: cut short, or a roof that is not positive (drawn as 0 before).
  const std::string machine = read(fs::path(COSDA_SOURCE_DIR) / "results/roofline/machine.json");
  std::string negative = machine;
  negative.insert(negative.find("\"peak_gflops_float_one\": ") + 25, "-");
  for (const auto& [what, text, expect] :
       {std::tuple{"cut short", machine.substr(0, 500), "cut short"},
        {"a negative peak", negative, "peak_gflops_float_one is missing or not positive"}})
    c.push_back({std::string("roofline: --plot-only, machine.json ") + what,
                 {"roofline", "--plot-only", "--out", "r"},
                 {{"r/machine.json", text}},
                 expect});
  // A committed config of another kind: the refusal names the command that reads it.
  for (const auto& [args, file, run] :
       std::vector<std::tuple<std::vector<std::string>, std::string, std::string>>{
           {{"accuracy", "c.toml"}, "nystrom_table3.toml", "(its 'd' is a list): run cosda sweep"},
           {{"sweep", "c.toml"}, "drift.toml", "a drift config (it has key 'checkpoints')"},
           {{"drift", "c.toml"}, "accuracy.toml", "an accuracy config"},
           {{"overflow", "c.toml"}, "timing.toml", "run cosda-bench --cosda_config=c.toml"},
           {{"verify", "--config", "c.toml", "--out", "r"},
            "overflow.toml",
            "cosda overflow c.toml"},
           {{"count", "--model", "c.toml"}, "verification.toml", "cosda verify --config c.toml"},
           {{"models", "--config", "c.toml", "--no-figures"},
            "models/oadtr_b1.toml",
            "cosda count --model c.toml"},
           {{"report", "c.toml"}, "models/report.toml", "cosda models --config c.toml"}})
    c.push_back({args[0] + ": a " + file, args, {{"c.toml", config(file)}}, run});
  for (const std::string cmd : {"accuracy", "drift", "overflow"}) {
    // The committed config with one unknown key at the top.
    const std::string typo = "jbos = 1\n" + config(cmd + ".toml");
    c.push_back({cmd + ": no config", {cmd}, {}, "CONFIG.toml"});
    c.push_back(
        {cmd + ": two configs", {cmd, "c.toml", "c.toml"}, {{"c.toml", typo}}, "CONFIG.toml"});
    c.push_back({cmd + ": missing config", {cmd, "nope.toml"}, {}, "nope.toml"});
    c.push_back({cmd + ": unknown key", {cmd, "c.toml"}, {{"c.toml", typo}}, "'jbos'"});
    c.push_back(
        {cmd + ": a missing key", {cmd, "c.toml"}, {{"c.toml", "name = \"t\"\n"}}, "missing"});
    c.push_back({cmd + ": not TOML", {cmd, "c.toml"}, {{"c.toml", "name = \n"}}, "not valid TOML"});
    c.push_back({cmd + ": unknown flag",
                 {cmd, "c.toml", "--resluts", "r"},
                 {{"c.toml", typo}},
                 "--resluts"});
  }
  c.push_back({"list: argument", {"list", "att"}, {}, "att"});
  c.push_back({"list: unknown flag", {"list", "--all"}, {}, "--all"});
  c.push_back({"variants: unknown flag", {"variants", "--format", "json"}, {}, "--format"});
  c.push_back({"count --model: missing file", {"count", "--model", "nope.toml"}, {}, "nope.toml"});
  c.push_back({"count --model: no value", {"count", "--model"}, {}, "--model"});
  const std::string model = config("models/gtzan_cotrans_b1.toml");
  c.push_back({"count --model: --n 0",
               {"count", "--model", "m.toml", "--n", "0"},
               {{"m.toml", model}},
               "--n"});
  c.push_back({"count --model: --input-dim text",
               {"count", "--model", "m.toml", "--input-dim", "x"},
               {{"m.toml", model}},
               "--input-dim"});
  c.push_back({"count --model: not a model",
               {"count", "--model", "m.toml"},
               {{"m.toml", "x = 1\n"}},
               "m.toml"});
  c.push_back({"count --model: positional",
               {"count", "--model", "m.toml", "extra"},
               {{"m.toml", "x = 1\n"}},
               "extra"});
  c.push_back({"models: missing config", {"models", "--config", "nope.toml"}, {}, "nope.toml"});
  c.push_back({"models: unknown flag", {"models", "--figures"}, {}, "--figures"});
  c.push_back({"report: missing config", {"report", "nope.toml", "--out", "r"}, {}, "nope.toml"});
  c.push_back({"report: no config", {"report", "--out", "r"}, {}, "config"});
  c.push_back({"verify: unknown flag", {"verify", "--outt", "v"}, {}, "--outt"});
  c.push_back({"--version: an argument", {"--version", "x"}, {}, "takes no argument; drop 'x'"});
  return c;
}

TEST(CliCommands, EveryCommandRefusesBadInputWithOneLineExitTwoAndNothingWritten) {
  const fs::path root = fs::temp_directory_path() / ("cosda_cmds_" + std::to_string(getpid()));
  int tried = 0;
  for (const Case& k : cases()) {
    cosda::test::expect_refused(k, root);
    ++tried;
  }

  fs::remove_all(root);
  EXPECT_GE(tried, 30);
}

// A command that draws figures, run where gnuplot is not on PATH: refused before any work
// (they measured, then failed with exit 1), pointing to --no-figures where it has one.
TEST(CliCommands, FiguresWithoutGnuplotAreRefusedBeforeAnyWork) {
  const fs::path root = fs::temp_directory_path() / ("cosda_nognu_" + std::to_string(getpid()));
  const std::string path = std::getenv("PATH") != nullptr ? std::getenv("PATH") : "";
  setenv("PATH", (root / "empty").c_str(), 1);  // the runs' PATH: a folder without gnuplot
  const std::string models = std::string(COSDA_SOURCE_DIR) + "/configs/models/report.toml";
  for (const auto& [args, file] :
       {std::pair{std::vector<std::string>{"accuracy", "c.toml"}, config("accuracy.toml")},
        {{"drift", "c.toml"}, config("drift.toml")},
        {{"models", "--config", models}, ""},
        {{"roofline"}, ""}}) {
    Case k{args[0] + " without gnuplot", args, {}, "gnuplot is not on PATH"};
    if (!file.empty()) k.files = {{"c.toml", file}};
    if (args[0] != "roofline")
      k.expect +=
          ", and the figures need it; install gnuplot-nox "
          "(make deps), or pass --no-figures";
    cosda::test::expect_refused(k, root);
  }
  setenv("PATH", path.c_str(), 1);
  fs::remove_all(root);
}

// `cosda` alone: the usage on stderr (a list of commands, not one line: it is the answer to
// "what can I run"), exit status 2, nothing on stdout, nothing written.
TEST(CliCommands, BareCosdaPrintsUsageToStderrAndExitsTwo) {
  const fs::path root = fs::temp_directory_path() / ("cosda_bare_" + std::to_string(getpid()));
  fs::remove_all(root);
  fs::create_directories(root);
  const Outcome r = run({}, root);
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_EQ(r.err.rfind("usage: cosda <command>", 0), 0u) << r.err;
  for (const char* cmd : {"count", "roofline", "accuracy", "drift", "overflow", "variants"})
    EXPECT_NE(r.err.find(std::string("  ") + cmd + " "), std::string::npos) << cmd;
  EXPECT_EQ(written(root, {}), std::vector<std::string>{});
  fs::remove_all(root);
}

// Exit status 1: the run failed (here: its output could not be written), as opposed to 2, the
// input was refused. One line naming the command and the failure; nothing left behind.
TEST(CliCommands, RuntimeFailureExitsOneWithOneLine) {
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full to inject a full disk with";
  const fs::path root = fs::temp_directory_path() / ("cosda_full_" + std::to_string(getpid()));
  fs::remove_all(root);
  fs::create_directories(root);
  write(root / "m.toml", config("models/gtzan_cotrans_b1.toml"));
  // Output longer than stdio's buffer (the failed write is seen while the command runs), and
  // shorter (seen when the buffer is flushed at the end).
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"count", "--model", "m.toml"},
        {"variants"},
        {"completion", "bash"}}) {
    SCOPED_TRACE(args[0]);
    const Outcome r = run(args, root, COSDA_BIN, "/dev/full");  // every write fails: ENOSPC
    EXPECT_EQ(r.status, 1) << r.err;
    EXPECT_EQ(r.err.rfind("cosda " + args[0] + ": error: ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find("No space left"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "not one line: " << r.err;
    EXPECT_EQ(written(root, {"m.toml"}), std::vector<std::string>{});
  }
  fs::remove_all(root);
}

// The roofline draws cosda-bench's points only on the roofline of the machine that timed them: a
// points file of another machine, or one that names none (written before it did), is left out.
TEST(CliCommands, RooflineDrawsOnlyThePointsTimedOnItsMachine) {
  if (!cosda::gnuplot_available()) GTEST_SKIP() << "gnuplot is not installed (make deps)";
  const fs::path root = fs::temp_directory_path() / ("cosda_roofpts_" + std::to_string(getpid()));
  const fs::path json = fs::path(COSDA_SOURCE_DIR) / "results/roofline/machine.json";
  const std::string its =
      cosda::roofline::machine_name(*cosda::roofline::read_machine(json.string()));
  for (const auto& [on, drawn] :
       {std::pair<std::string, bool>{its, true}, {"Other CPU, 2 cores", false}, {"", false}}) {
    SCOPED_TRACE(on);
    fs::remove_all(root);
    write(root / "r/machine.json", read(json));
    write(root / "p.tsv", cosda::roofline::kPointsHeader +
                              (on.empty() ? "" : cosda::roofline::kPointsMachine + on + "\n") +
                              "co_si\ttable3\tfloat\t0.5\t50\n");
    const Outcome r = run({"roofline", "--plot-only", "--out", "r", "--points", "p.tsv"}, root);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find(drawn ? "(1 measured points)" : "(0 measured points)"), std::string::npos)
        << r.out;
    EXPECT_EQ(r.err.find("its points are left out") == std::string::npos, drawn) << r.err;
  }
  fs::remove_all(root);
}

// Every committed config is read as its own kind (no hint) and, given to another command, is
// named as what it is: the kinds' keys tell all of configs/ apart.
TEST(ConfigKinds, EveryCommittedConfigIsKnownAsItsOwnKind) {
  auto kind_of = [](const fs::path& f) -> std::string {
    const std::string stem = f.stem().string(), dir = f.parent_path().filename().string();
    if (dir == "models") return stem == "report" ? "models report" : "model";
    if (stem.rfind("timing", 0) == 0) return "timing";
    if (stem.rfind("accuracy", 0) == 0) return "accuracy";
    if (stem == "drift" || stem == "overflow") return stem;
    return stem == "verification" ? "verification" : "sweep";
  };
  int seen = 0;
  for (const auto& e : fs::recursive_directory_iterator(fs::path(COSDA_SOURCE_DIR) / "configs")) {
    if (e.path().extension() != ".toml") continue;
    ++seen;
    const std::string kind = kind_of(e.path());
    SCOPED_TRACE(e.path().string() + " as " + kind);
    EXPECT_EQ(cosda::other_kind_hint(kind, e.path()), "");
    const std::string other = cosda::other_kind_hint(kind == "drift" ? "sweep" : "drift", e.path());
    EXPECT_NE(other.find("looks like a" +
                         std::string(kind == "accuracy" || kind == "overflow" ? "n " : " ") + kind +
                         " config"),
              std::string::npos)
        << other;
  }
  EXPECT_GE(seen, 20);
  EXPECT_THROW(cosda::other_kind_hint("verify", fs::path(COSDA_SOURCE_DIR) / "configs/drift.toml"),
               std::logic_error);  // the kinds are "verification", ...: a misspelt one is caught
  // An error within the kind gets no hint, even where the mistake looks like another kind's key:
  // an accuracy config with a sweep's list of d.
  const fs::path dir = fs::temp_directory_path() / ("cosda_kinds_" + std::to_string(getpid()));
  fs::create_directories(dir);
  std::string text = config("accuracy.toml");
  text.replace(text.find("\nd = "), 1, "\nd = [64]\nx");  // d = [64]; the old d line is now xd
  write(dir / "a.toml", text);
  EXPECT_EQ(cosda::other_kind_hint("accuracy", dir / "a.toml"), "");
  EXPECT_NE(cosda::other_kind_hint("drift", dir / "a.toml").find("an accuracy config"),
            std::string::npos);
  fs::remove_all(dir);
}

}  // namespace
