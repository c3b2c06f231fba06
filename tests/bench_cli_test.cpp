// cosda-bench's own refusals, run as a user would: a --benchmark_filter that matches nothing
// (or is no regex) exits 2 with one line and writes no result file, not even an empty report;
// a report folder it could not write is refused before anything is timed (nothing on stdout);
// --benchmark_list_tests lists and writes nothing; a Google Benchmark flag value that library
// would take for a usage request (exit 0) or fail on mid-run is refused first.
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <filesystem>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "analysis/roofline_model.hpp"
#include "tests/cli_refusal.hpp"
#include "tests/cli_run.hpp"

namespace cosda::test::bench_cli {
namespace {

namespace fs = std::filesystem;

// cosda-bench ARGS in a fresh scratch folder, with the outputs every timed run would write.
Outcome bench(std::vector<std::string> args, const fs::path& dir) {
  fs::remove_all(dir);
  fs::create_directories(dir);
  args.insert(args.end(), {"--cosda_config=" COSDA_SOURCE_DIR "/configs/timing.toml",
                           "--cosda_models=" COSDA_SOURCE_DIR "/configs/models/report.toml",
                           "--cosda_report=rep", "--benchmark_out=bench.json", "--cosda_quick"});
  return run(args, dir, COSDA_BENCH_BIN);
}

TEST(BenchCommand, RefusesBeforeTimingAndWritesNoEmptyResult) {
  const fs::path dir = fs::temp_directory_path() / "cosda_bench_cli_test";
  for (const std::string filter : {"no_such_benchmark", "["}) {
    SCOPED_TRACE(filter);
    const Outcome r = bench({"--benchmark_filter=" + filter}, dir);
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "not one line: " << r.err;
    EXPECT_NE(r.err.find("flag --benchmark_filter"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("--benchmark_list_tests=true"), std::string::npos) << r.err;
    EXPECT_EQ(written(dir, {}), std::vector<std::string>{}) << r.err;
  }
  // Google Benchmark values it would exit 0 on (printing its usage) or fail on mid-run.
  for (const std::string flag :
       {"--benchmark_format=xml", "--benchmark_out_format=yaml", "--benchmark_repetitions=-3",
        "--benchmark_repetitions=0", "--benchmark_min_time=abc",
        // and those the console table and the benchmarks' own unit would ignore
        "--benchmark_format=json", "--benchmark_time_unit=ms"}) {
    SCOPED_TRACE(flag);
    const Outcome r = bench({flag, "--benchmark_filter=^co_si/table3/double/one/step"}, dir);
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "not one line: " << r.err;
    EXPECT_NE(r.err.find(flag.substr(0, flag.find('='))), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "") << "timed or printed usage instead of refusing";
    EXPECT_EQ(written(dir, {}), std::vector<std::string>{}) << r.err;
  }
  // A report folder it could not write is refused before any timing.
  fs::create_directories(dir);
  write(dir / "rep", "a file where the report folder goes");
  const Outcome refused =
      run({"--cosda_config=" COSDA_SOURCE_DIR "/configs/timing.toml", "--cosda_models=none",
           "--cosda_report=rep", "--benchmark_filter=^co_si/table3/double/one/step",
           "--benchmark_min_time=0.001"},
          dir, COSDA_BENCH_BIN);
  EXPECT_EQ(refused.status, 2) << refused.err;
  EXPECT_NE(refused.err.find("rep"), std::string::npos) << refused.err;
  EXPECT_EQ(refused.out, "") << "timed before refusing";
  const Outcome r = bench({"--benchmark_list_tests=true"}, dir);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("\nco_si/table3/"), std::string::npos) << r.out;
  EXPECT_EQ(written(dir, {}), std::vector<std::string>{}) << r.err;
  fs::remove_all(dir);
}

// Google Benchmark's aggregates-only flags keep each repetition from cosda-bench's reporter: the
// --benchmark_out file is written all the same, and --cosda_report, which needs the repetitions,
// is refused with them before anything is timed.
TEST(BenchCommand, KeepsTheResultFileWhenOnlyAggregatesAreReported) {
  const fs::path dir = fs::temp_directory_path() / "cosda_bench_cli_aggregates_test";
  for (const std::string flag :
       {"--benchmark_report_aggregates_only", "--benchmark_display_aggregates_only=true"}) {
    SCOPED_TRACE(flag);
    const std::vector<std::string> timing = {
        flag, "--benchmark_filter=^co_si/table3/double/one/step", "--benchmark_repetitions=2",
        "--benchmark_min_time=0.001"};
    const Outcome refused = bench(timing, dir);
    EXPECT_EQ(refused.status, 2) << refused.err;
    EXPECT_EQ(refused.err.find('\n'), refused.err.size() - 1) << "not one line: " << refused.err;
    EXPECT_NE(refused.err.find(flag.substr(0, flag.find('='))), std::string::npos) << refused.err;
    EXPECT_NE(refused.err.find("--cosda_report"), std::string::npos) << refused.err;
    EXPECT_EQ(refused.out, "") << "timed before refusing";
    EXPECT_EQ(written(dir, {}), std::vector<std::string>{}) << refused.err;
    std::vector<std::string> args = timing;
    args.insert(args.end(), {"--cosda_config=" COSDA_SOURCE_DIR "/configs/timing.toml",
                             "--cosda_models=none", "--benchmark_out=bench.json", "--cosda_quick"});
    const Outcome r = run(args, dir, COSDA_BENCH_BIN);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(written(dir, {}), std::vector<std::string>{"bench.json"}) << r.err;
    EXPECT_NE(read(dir / "bench.json").find("co_si/table3/double/one/step"), std::string::npos);
  }
  fs::remove_all(dir);
}

// A roofline measured on another CPU, or with another number of cores, bounds nothing timed here:
// cosda-bench says so on stderr and realized.md names the CPU timed on, without bound columns.
TEST(BenchCommand, BoundsStepsOnlyByThisMachinesRoofline) {
  const fs::path dir = fs::temp_directory_path() / "cosda_bench_cli_machine_test";
  const std::string here = roofline::cpu_name(), other = "Other CPU (family 1, model 1)";
  const int cores = std::max(1, omp_get_num_procs());
  for (const auto& [cpu, n] : {std::pair{here, cores}, {other, cores}, {here, cores + 1}}) {
    SCOPED_TRACE(cpu + ", " + std::to_string(n) + " cores");
    fs::remove_all(dir);
    fs::create_directories(dir);
    std::string json = read(fs::path(COSDA_SOURCE_DIR) / "results/roofline/machine.json");
    json = std::regex_replace(json, std::regex("\"cpu\": \"[^\"]*\""), "\"cpu\": \"" + cpu + "\"");
    json = std::regex_replace(json, std::regex("\"cores\": [0-9]+"),
                              "\"cores\": " + std::to_string(n));
    write(dir / "machine.json", json);
    const Outcome r =
        run({"--cosda_config=" COSDA_SOURCE_DIR "/configs/timing.toml", "--cosda_models=none",
             "--cosda_machine=machine.json", "--cosda_report=rep",
             "--benchmark_filter=^co_si/table3/double/one/step", "--benchmark_min_time=0.001"},
            dir, COSDA_BENCH_BIN);
    ASSERT_EQ(r.status, 0) << r.err;
    const bool ours = cpu == here && n == cores;
    const std::string md = read(dir / "rep/timing/realized.md");
    EXPECT_NE(md.find(here), std::string::npos) << md.substr(0, 2000);
    EXPECT_EQ(md.find("No roofline") == std::string::npos, ours) << md.substr(0, 2000);
    EXPECT_EQ(md.find("compute peak") == std::string::npos, !ours);  // the roofline's line
    // points.tsv names the machine that timed it as cosda roofline names its own.
    EXPECT_NE(read(dir / "rep/timing/points.tsv")
                  .find(roofline::kPointsMachine + roofline::machine_name(here, cores) + "\n"),
              std::string::npos);
    EXPECT_EQ(r.err.find("machine.json is the roofline of " + cpu + ", " + std::to_string(n) +
                         " cores, not of this machine") == std::string::npos,
              ours)
        << r.err;
  }
  fs::remove_all(dir);
}

// A failed write to stdout (a full disk: /dev/full) fails the run, exit 1 with one line, as in
// cosda.
TEST(BenchCommand, AFailedWriteToStdoutFailsTheRun) {
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full to inject a full disk with";
  const fs::path dir = fs::temp_directory_path() / "cosda_bench_cli_full_test";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const Outcome r = run({"--cosda_config=" COSDA_SOURCE_DIR "/configs/timing.toml",
                         "--cosda_models=none", "--benchmark_list_tests=true"},
                        dir, COSDA_BENCH_BIN, "/dev/full");
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_EQ(r.err.rfind("cosda-bench: error: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("No space left"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "not one line: " << r.err;
  fs::remove_all(dir);
}

// A timing config is read as strictly as every other config: a misspelt or unknown key, an unknown
// variant id and a bad cross-field value each get one line naming the key, before any timing.
TEST(BenchCommand, RefusesABadTimingConfigNamingTheKey) {
  const fs::path dir = fs::temp_directory_path() / "cosda_bench_cli_config_test";
  const std::string top = "[run]\nscalars = [\"float\"]\nwarmup_seconds = 0\n";
  const std::string shape = "[[shape]]\nname = \"s\"\nn = 8\nd = 8\nm = 2\nheads = 1\n";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {top + shape + "quik = true\n",
       "t.toml:10: key 'quik' in [[shape]] #1 is not known here (did you mean 'quick'?)"},
      {top + shape + "variants = [\"co_sii\"]\n", "key 'variants'"},
      {top + "[[shape]]\nname = \"s\"\nn = 8\nd = 8\nm = 2\nheads = 3\n", "key 'heads'"},
      {top + "[fig4]\nd = 8\nm = 9\nheads = 1\nn = [8]\n", "key 'm'"},
      {"[run]\nscalars = [\"half\"]\nwarmup_seconds = 0\n" + shape, "key 'scalars'"},
  };
  for (const auto& [text, key] : cases) {
    SCOPED_TRACE(text);
    fs::remove_all(dir);
    fs::create_directories(dir);
    write(dir / "t.toml", text);
    const Outcome r = run({"--cosda_config=t.toml", "--cosda_models=none", "--benchmark_filter=.",
                           "--benchmark_min_time=0.001"},
                          dir, COSDA_BENCH_BIN);
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "not one line: " << r.err;
    EXPECT_NE(r.err.find("t.toml"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(key), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "") << "timed before refusing";
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace cosda::test::bench_cli
