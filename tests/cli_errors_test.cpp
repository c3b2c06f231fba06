// Malformed configs, flags and .npy files given to the real `cosda` executable: each gets
// exit code 2, exactly one line on stderr naming what is wrong, and nothing written.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

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

const std::string kGood =
    "name = \"t\"\nvariants = [\"att\", \"ny\"]\nn = [8, 16]\nd = [4]\nm = [2]\n";

std::string npy(const std::string& header_dict, const std::string& data,
                const std::string& magic = "\x93NUMPY") {
  std::string h = header_dict;
  while ((10 + h.size() + 1) % 64 != 0) h += ' ';
  h += '\n';
  std::string s = magic + std::string("\x01\x00", 2);
  s += static_cast<char>(h.size() & 0xff);
  s += static_cast<char>(h.size() >> 8);
  return s + h + data;
}
std::string doubles(std::vector<double> v) {
  return std::string(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(double));
}

// A stream case on the 12 x 4 tokens x.npy: cosda stream --variant V --n 4 ... extra.
Case stream_case(const std::string& what, const std::string& variant, const std::string& tokens,
                 std::vector<std::string> extra, const std::string& expect) {
  std::vector<std::string> args = {"stream", "--variant", variant, "--n", "4", "--input", "x.npy"};
  args.insert(args.end(), extra.begin(), extra.end());
  return {what, args, {{"x.npy", tokens}}, expect};
}

// Issues 25 and 26: switches, output paths, sizes, flags a variant has no use for, messages.
void more_cases(std::vector<Case>& c, const std::string& tokens) {
  const std::vector<std::string> count = {"count", "--variant", "att", "--n", "8", "--d", "4"};
  auto count_with = [&](const std::string& what, std::vector<std::string> extra,
                        const std::string& expect) {
    std::vector<std::string> args = count;
    args.insert(args.end(), extra.begin(), extra.end());
    c.push_back({"count: " + what, args, {}, expect});
  };
  count_with("--exact=0", {"--exact=0"}, "--exact=false");
  count_with("--exact=yes", {"--exact=yes"}, "--exact");
  count_with("--exact=", {"--exact="}, "--exact");
  count_with("--exact twice", {"--exact=false", "--exact"}, "twice");
  count_with("--format xml", {"--format", "xml"}, "--format");
  count_with("--memory-limit 3X", {"--memory-limit", "3X"}, "--memory-limit");
  count_with("--memory-limit 0", {"--memory-limit", "0"}, "--memory-limit");
  count_with("--memory-limit 1K", {"--memory-limit", "1K"}, "--memory-limit");
  c.push_back({"count: infeasible size",
               {"count", "--variant", "co_si", "--n", "1048576", "--d", "10000"},
               {},
               "--memory-limit"});
  c.push_back({"count: --m without landmarks",
               {"count", "--variant", "co_si", "--n", "16", "--d", "4", "--m", "13"},
               {},
               "flag --m applies to the variants with landmarks"});
  c.push_back({"models: --no-figures=1", {"models", "--no-figures=1"}, {}, "--no-figures"});
  c.push_back({"help: unknown command", {"help", "nope"}, {}, "nope"});
  c.push_back({"completion: zsh", {"completion", "zsh"}, {}, "bash"});
  c.push_back({"variants: argument", {"variants", "att"}, {}, "att"});
  c.push_back({"variants: --ids some", {"variants", "--ids", "some"}, {}, "--ids"});
  for (const auto& [command, example] : {std::pair{"accuracy", "configs/accuracy.toml"},
                                         {"drift", "configs/drift.toml"},
                                         {"overflow", "configs/overflow.toml"}})
    c.push_back({std::string(command) + ": missing config",
                 {command, "none.toml", "--out", "r"},
                 {},
                 std::string("such as ") + example});
  c.push_back({"overflow: a stream's file is missing",
               {"overflow", "c.toml", "--out", "r"},
               {{"c.toml",
                 "name = \"o\"\nn = 8\nd = 4\nm = 2\ncalibration = 16\nsteps = 8\n"
                 "variants = [\"co_si\"]\n[[stream]]\nname = \"f\"\nkind = \"npy\"\n"
                 "path = \"none.npy\"\n"}},
               "c.toml:11: key 'path' in [[stream]] #1 names no such file none.npy"});
  c.push_back({"overflow: calibration shorter than n",
               {"overflow", "c.toml", "--out", "r"},
               {{"c.toml",
                 "name = \"o\"\nn = 8\nd = 4\nm = 2\ncalibration = 4\nsteps = 8\n"
                 "variants = [\"co_si\"]\n[[stream]]\nname = \"f\"\n"}},
               "c.toml:5: key 'calibration' (4) must be at least n (8)"});
  c.push_back({"report: not swept yet",
               {"report", "c.toml", "--out", "r"},
               {{"c.toml", kGood}},
               "points.csv not found; run cosda sweep c.toml --out r first"});
  c.push_back({"models: missing config",
               {"models", "--config", "none.toml", "--out", "r"},
               {},
               "such as configs/models/report.toml"});
  c.push_back({"sweep: a folder for the config",
               {"sweep", "cfg", "--out", "r"},
               {{"cfg/c.toml", kGood}},
               "cfg: no such config file; pass a TOML file such as configs/"});
  c.push_back({"sweep: its example config, from elsewhere",
               {"sweep", "configs/nystrom_table3.toml", "--out", "r"},
               {},
               "no such config file in /"});
  for (const std::string command : {"verify", "models"})  // their default config, from elsewhere
    c.push_back({command + ": default config outside the checkout",
                 {command, "--out", "r"},
                 {},
                 "no such config file in /"});
  // The folder verify runs in (the cases' root, cosda_cli_PID), spelled three ways.
  for (const std::string& out :
       std::vector<std::string>{".", "./", "../cosda_cli_" + std::to_string(getpid())})
    c.push_back({"verify: --out " + out + ", the folder it runs in",
                 {"verify", "--out", out},
                 {},
                 "replaced as a whole, and you are in it"});
  c.push_back({"verify: missing corrections file",
               {"verify", "--corrections", "MISSING.md", "--out", "v"},
               {},
               "--corrections"});

  auto stream = [&](const std::string& what, const std::string& variant,
                    std::vector<std::string> extra, const std::string& expect) {
    c.push_back(stream_case("stream: " + what, variant, tokens, std::move(extra), expect));
  };
  const std::vector<std::string> y = {"--output", "y.npy"};
  auto with_y = [&](std::vector<std::string> extra) {
    extra.insert(extra.end(), y.begin(), y.end());
    return extra;
  };
  c.push_back(
      {"stream: no such input",
       {"stream", "--variant", "co_si", "--n", "4", "--input", "none.npy", "--output", "y.npy"},
       {},
       "flag --input: no such file 'none.npy'"});
  stream("no such landmarks", "cony_si_fix", with_y({"--m", "2", "--landmarks", "none.npy"}),
         "flag --landmarks: no such file");
  stream("output is the input", "co_si", {"--output", "x.npy"}, "--input");
  stream("output is ./the input", "co_si", {"--output", "./sub/../x.npy"}, "--input");
  c.back().setup = [](const fs::path& root) {
    fs::create_directory(root / "sub");
    return std::vector<std::string>{"sub"};
  };
  stream("output links to the input", "co_si", {"--output", "link.npy"}, "--input");
  c.back().setup = [](const fs::path& root) {
    fs::create_symlink("x.npy", root / "link.npy");
    return std::vector<std::string>{"link.npy"};
  };
  stream("output is the landmarks", "cony_si_fix",
         {"--m", "2", "--landmarks", "l.npy", "--output", "./l.npy"}, "--landmarks");
  c.back().files.push_back(
      {"l.npy", npy("{'descr': '<f8', 'fortran_order': False, 'shape': (2, 4), }",
                    doubles({1, 2, 3, 4, 5, 6, 7, 8}))});
  stream("output is a symbolic link", "co_si", {"--output", "link.npy"}, "symbolic link");
  c.back().setup = [](const fs::path& root) {
    write(root / "other.npy", "keep");
    fs::create_symlink("other.npy", root / "link.npy");
    return std::vector<std::string>{"link.npy", "other.npy"};
  };
  stream("output is a FIFO", "co_si", {"--output", "fifo"}, "FIFO");
  c.back().setup = [](const fs::path& root) {
    mkfifo((root / "fifo").c_str(), 0644);
    return std::vector<std::string>{"fifo"};
  };
  stream("output is a directory", "co_si", {"--output", "out"}, "directory");
  c.back().setup = [](const fs::path& root) {
    fs::create_directory(root / "out");
    return std::vector<std::string>{"out"};
  };
  stream("output is read-only", "co_si", {"--output", "ro.npy"}, "read-only");
  c.back().setup = [](const fs::path& root) {
    write(root / "ro.npy", "keep");
    fs::permissions(root / "ro.npy", fs::perms::owner_read);
    return std::vector<std::string>{"ro.npy"};
  };
  stream("output under a file", "co_si", {"--output", "x.npy/y.npy"}, "not a directory");
  stream("--m without landmarks", "co_si", with_y({"--m", "2"}), "flag --m applies");
  stream("--exact-pinv without landmarks", "co_si", with_y({"--exact-pinv"}), "--exact-pinv");
  stream("--exact-pinv=0", "ny", with_y({"--m", "2", "--exact-pinv=0"}), "--exact-pinv");
  stream("--memory-limit 1K", "att", with_y({"--memory-limit", "1K"}), "--memory-limit");
  stream("exp-shift auto finds none", "co_si", with_y({"--exp-shift", "auto"}),
         "--exp-shift auto: calibration");
  c.back().files[0].second = npy("{'descr': '<f8', 'fortran_order': False, 'shape': (12, 4), }",
                                 doubles(std::vector<double>(48, 1e200)));
  stream("40 x 0 tokens", "co_si", y, "x.npy: 40 x 0 array");
  c.back().files[0].second =
      npy("{'descr': '<f8', 'fortran_order': False, 'shape': (40, 0), }", "");
  stream("rank 3 wording", "co_si", y, "expected a 2-D array (T x d) of tokens, got shape");
  c.back().files[0].second =
      npy("{'descr': '<f8', 'fortran_order': False, 'shape': (1, 2, 2), }", doubles({1, 2, 3, 4}));
}

std::vector<Case> cases() {
  std::vector<Case> c;
  auto config = [&](const std::string& what, const std::string& text, const std::string& expect) {
    c.push_back(
        {"config: " + what, {"sweep", "c.toml", "--out", "res"}, {{"c.toml", text}}, expect});
  };
  config("unknown key", kGood + "jbos = 2\n", "jbos");
  config("unknown key suggests", kGood + "layer = [1]\n", "layers");
  config("wrong type", "name = \"t\"\nvariants = [\"att\"]\nn = \"8\"\nd = [4]\nm = [2]\n", "'n'");
  config("n = 0", "name = \"t\"\nvariants = [\"att\"]\nn = [0]\nd = [4]\nm = [2]\n", "n");
  config("empty list", "name = \"t\"\nvariants = [\"att\"]\nn = []\nd = [4]\nm = [2]\n", "n");
  config("negative d", "name = \"t\"\nvariants = [\"att\"]\nn = [8]\nd = [-4]\nm = [2]\n", "d");
  config("unknown variant", "name = \"t\"\nvariants = [\"attn\"]\nn = [8]\nd = [4]\nm = [2]\n",
         "attn");
  config("repeated variant",
         "name = \"t\"\nvariants = [\"att\", \"att\"]\nn = [8]\nd = [4]\nm = [2]\n", "twice");
  config("repeated n", "name = \"t\"\nvariants = [\"att\"]\nn = [8, 8]\nd = [4]\nm = [2]\n",
         "twice");
  config("layers 3", kGood + "layers = [3]\n", "layers");
  config("heads 0", kGood + "heads = [0]\n", "heads");
  config("scalar", kGood + "scalar = \"half\"\n", "scalar");
  config("no name", "variants = [\"att\"]\nn = [8]\nd = [4]\nm = [2]\n", "name");
  config("bad name", "name = \"../x\"\nvariants = [\"att\"]\nn = [8]\nd = [4]\nm = [2]\n", "name");
  config("syntax", "name = \"t\"\nn = [4, 8\nd = [4]\n", "not valid TOML");
  config("header toml++ asserts on", kGood + "[#a]\n", "table header");
  config("non-ASCII key", kGood + "t\xc3\xb6 = 1\n", "non-ASCII");
  config("invalid UTF-8", kGood + "title = \"\xff\"\n", "UTF-8");
  config("empty file", "", "name");
  config("figure key", kGood + "[[figure]]\nfile = \"f\"\nx = \"n\"\ny = \"flop\"\n", "flop");
  config("table kind", kGood + "[[table]]\nkind = \"pritned\"\n", "pritned");
  config("memory", "name = \"t\"\nvariants = [\"att\"]\nn = [1000000]\nd = [65536]\nm = [2]\n",
         "memory-limit");
  config("every point skipped: m > n",
         "name = \"t\"\nvariants = [\"ny\"]\nn = [4]\nd = [4]\nm = [8]\n", "1 <= m <= n");
  config("every point skipped: heads",
         "name = \"t\"\nvariants = [\"att\"]\nn = [8]\nd = [6]\nm = [2]\nheads = [4]\n",
         "heads must divide d");
  c.push_back({"config: missing file", {"sweep", "nope.toml"}, {}, "nope.toml"});

  auto flag = [&](const std::string& what, std::vector<std::string> args,
                  const std::string& expect) {
    c.push_back({"flag: " + what, std::move(args), {{"c.toml", kGood}}, expect});
  };
  flag("unknown command", {"sweeep"}, "sweeep");
  flag("count n = 0", {"count", "--variant", "att", "--n", "0", "--d", "4"}, "--n");
  flag("count n text", {"count", "--variant", "att", "--n", "eight", "--d", "4"}, "--n");
  flag("count variant", {"count", "--variant", "attn", "--n", "8", "--d", "4"}, "attn");
  flag("count m > n", {"count", "--variant", "ny", "--n", "8", "--d", "4", "--m", "9"}, "m");
  flag("count heads", {"count", "--variant", "att", "--n", "8", "--d", "6", "--heads", "4"},
       "heads");
  flag("count layers", {"count", "--variant", "att", "--n", "8", "--d", "4", "--layers", "3"},
       "layers");
  flag("count unknown flag", {"count", "--variant", "att", "--n", "8", "--d", "4", "--fast"},
       "--fast");
  flag("count missing value", {"count", "--variant", "att", "--d", "4", "--n"}, "--n");
  flag("count repeated flag", {"count", "--variant", "att", "--n", "8", "--n", "9", "--d", "4"},
       "twice");
  flag("count missing flag", {"count", "--variant", "att", "--n", "8"}, "--d");
  flag("sweep jobs 0", {"sweep", "c.toml", "--out", "res", "--jobs", "0"}, "--jobs");
  flag("sweep shard", {"sweep", "c.toml", "--out", "res", "--shard", "3/2"}, "--shard");
  flag("sweep shard text", {"sweep", "c.toml", "--out", "res", "--shard", "half"}, "--shard");
  flag("sweep memory limit", {"sweep", "c.toml", "--out", "res", "--memory-limit", "-1"},
       "--memory-limit");
  flag("sweep resume and fresh", {"sweep", "c.toml", "--out", "res", "--resume", "--fresh"},
       "--resume");
  flag("sweep two configs", {"sweep", "c.toml", "c.toml", "--out", "res"}, "one config");
  flag("merge nothing", {"merge", "--out", "res"}, "shard");
  flag("merge not a shard", {"merge", "c.toml", "--out", "res"}, "meta.json");
  flag("report without sweep", {"report", "c.toml", "--out", "res"}, "points.csv");
  c.push_back({"sweep: a file where its folder goes",
               {"sweep", "c.toml", "--out", "res"},
               {{"c.toml", kGood}, {"res/t", "notes"}},
               "res/t: it is a file, not a directory"});

  const std::string tokens = npy("{'descr': '<f8', 'fortran_order': False, 'shape': (12, 4), }",
                                 doubles(std::vector<double>(48, 0.5)));
  auto stream = [&](const std::string& what, const std::string& file, const std::string& expect,
                    std::vector<std::string> extra = {}) {
    std::vector<std::string> args = {"stream",  "--variant", "co_si",    "--n",  "4",
                                     "--input", "x.npy",     "--output", "y.npy"};
    args.insert(args.end(), extra.begin(), extra.end());
    c.push_back({"npy: " + what, args, {{"x.npy", file}}, expect});
  };
  stream("wrong magic",
         npy("{'descr': '<f8', 'fortran_order': False, 'shape': (2, 2), }", doubles({1, 2, 3, 4}),
             "\x93NUMPZ"),
         "x.npy");
  stream("int dtype",
         npy("{'descr': '<i4', 'fortran_order': False, 'shape': (2, 2), }", std::string(16, '\0')),
         "x.npy");
  stream("Fortran order",
         npy("{'descr': '<f8', 'fortran_order': True, 'shape': (2, 2), }", doubles({1, 2, 3, 4})),
         "x.npy");
  stream("truncated",
         npy("{'descr': '<f8', 'fortran_order': False, 'shape': (4, 4), }", doubles({1, 2, 3})),
         "x.npy");
  stream("NaN",
         npy("{'descr': '<f8', 'fortran_order': False, 'shape': (2, 2), }",
             doubles({1, 2, std::nan(""), 4})),
         "x.npy");
  stream("rank 1",
         npy("{'descr': '<f8', 'fortran_order': False, 'shape': (4,), }", doubles({1, 2, 3, 4})),
         "x.npy");
  stream("fewer tokens than n",
         npy("{'descr': '<f8', 'fortran_order': False, 'shape': (2, 2), }", doubles({1, 2, 3, 4})),
         "x.npy");
  stream("empty file", "", "x.npy");
  stream("landmarks of the wrong width", tokens, "l.npy", {"--landmarks", "l.npy", "--m", "2"});
  c.back().args[2] = "cony_si_fix";
  c.back().files.push_back(
      {"l.npy", npy("{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }",
                    doubles({1, 2, 3, 4, 5, 6}))});
  stream("missing input", tokens, "nope.npy");
  c.back().args[6] = "nope.npy";
  more_cases(c, tokens);
  return c;
}

TEST(CliErrors, EveryMalformedInputGetsOneLineExitTwoAndNothingWritten) {
  const fs::path root = fs::temp_directory_path() / ("cosda_cli_" + std::to_string(getpid()));
  int tried = 0;
  for (const Case& k : cases()) {
    cosda::test::expect_refused(k, root);
    ++tried;
    if (fs::exists(root / "ro.npy")) fs::permissions(root / "ro.npy", fs::perms::owner_all);
  }

  fs::remove_all(root);
  EXPECT_GE(tried, 50);
  std::printf("malformed inputs tried: %d\n", tried);
}

}  // namespace
