// Tests for the command-line I/O layer: InputError, write_file_atomic/AtomicWriter and the .npy
// reader/writer (its header parsing and rejections: tests/npy_header_test.cpp), and study
// configs' kind = "npy" streams of q, k and v read from .npy files.

#include <gtest/gtest.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "analysis/streams.hpp"
#include "io/atomic_file.hpp"
#include "io/errors.hpp"
#include "io/npy.hpp"
#include "io/output_transaction.hpp"
#include "io/strict_toml.hpp"
#include "sweeps/stream_config.hpp"
#include "tests/npy_bytes.hpp"

namespace cosda {
namespace {

namespace fs = std::filesystem;
using namespace npy_bytes;  // NOLINT(google-build-using-namespace): test helpers

// ---------------------------------------------------------------------------------------------
// Helpers.

std::string read_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void write_bytes(const fs::path& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// A fresh directory per test, removed afterwards.
class IoFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() / ("cosda_io_test." + std::to_string(::getpid()) + "." +
                                        info->test_suite_name() + "." + info->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  // Names of all entries in `dir`, sorted.
  static std::vector<std::string> listing(const fs::path& dir) {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(dir)) {
      names.push_back(entry.path().filename().string());
    }
    std::sort(names.begin(), names.end());
    return names;
  }

  fs::path dir_;
};

// ---------------------------------------------------------------------------------------------
// InputError.

TEST(InputErrorTest, MessageIsAlwaysOneLine) {
  const InputError error("bad\nname.npy: line one\r\nline\ttwo\x01");
  EXPECT_STREQ(error.what(), "bad\\nname.npy: line one\\r\\nline\\ttwo\\x01");
}

TEST(InputErrorTest, KeepsPrintableAndUtf8Text) {
  const InputError error("données.npy: fine");
  EXPECT_STREQ(error.what(), "données.npy: fine");
}

// ---------------------------------------------------------------------------------------------
// Round trips.

std::vector<double> sample_values(std::size_t count) {
  std::vector<double> values(count);
  for (std::size_t i = 0; i < count; ++i) {
    values[i] = (static_cast<double>(i) - 7.0) * 0.375;  // exact in float32 as well
  }
  return values;
}

std::size_t product(const std::vector<std::size_t>& shape) {
  std::size_t n = 1;
  for (const std::size_t d : shape) n *= d;
  return n;
}

const std::vector<std::vector<std::size_t>> kShapes = {
    {}, {1}, {7}, {2, 3}, {3, 1, 4}, {2, 2, 2, 2}, {1, 65}, {0}, {0, 4}, {4, 0}, {2, 0, 3}};

TEST(NpyRoundTripTest, Float64Shapes) {
  for (const auto& shape : kShapes) {
    SCOPED_TRACE(format_shape(shape));
    std::vector<double> values = sample_values(product(shape));
    if (!values.empty()) values.back() = 0.1;  // not representable in float32
    const NpyArray array = parse_npy(encode_npy(shape, values, false), kName);
    EXPECT_EQ(array.shape, shape);
    EXPECT_EQ(array.data, values);
    EXPECT_FALSE(array.float32);
  }
}

TEST(NpyRoundTripTest, Float32Shapes) {
  for (const auto& shape : kShapes) {
    SCOPED_TRACE(format_shape(shape));
    const std::vector<double> values = sample_values(product(shape));
    const NpyArray array = parse_npy(encode_npy(shape, values, true), kName);
    EXPECT_EQ(array.shape, shape);
    EXPECT_EQ(array.data, values);
    EXPECT_TRUE(array.float32);
  }
}

TEST(NpyRoundTripTest, Float32RoundsToNearest) {
  const std::vector<double> values = {0.1, -1e-30, 3.4e38, std::ldexp(1.0, -140)};
  const NpyArray array = parse_npy(encode_npy({4}, values, true), kName);
  ASSERT_EQ(array.data.size(), values.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    EXPECT_EQ(array.data[i], static_cast<double>(static_cast<float>(values[i])));
  }
}

TEST(NpyRoundTripTest, ExtremeFloat64Values) {
  const std::vector<double> values = {std::numeric_limits<double>::max(),
                                      std::numeric_limits<double>::lowest(),
                                      std::numeric_limits<double>::denorm_min(), -0.0};
  const NpyArray array = parse_npy(encode_npy({2, 2}, values, false), kName);
  EXPECT_EQ(array.data, values);
  EXPECT_TRUE(std::signbit(array.data[3]));
}

TEST(NpyRoundTripTest, ZeroSizeArraysAreAccepted) {
  // Documented choice: a 0 in the shape is a valid, empty array.
  const NpyArray array = parse_npy(make_npy(dict_with("'<f8'", "False", "(0, 5)"), ""), kName);
  EXPECT_EQ(array.shape, (std::vector<std::size_t>{0, 5}));
  EXPECT_TRUE(array.data.empty());
}

TEST(NpyRoundTripTest, ScalarHasOneValue) {
  const NpyArray array =
      parse_npy(make_npy(dict_with("'<f8'", "False", "()"), f8_bytes({2.5})), kName);
  EXPECT_TRUE(array.shape.empty());
  EXPECT_EQ(array.data, std::vector<double>{2.5});
}

TEST(NpyEncodeTest, HeaderMatchesNumPyLayout) {
  const std::string bytes = encode_npy({3, 4}, sample_values(12), true);
  ASSERT_GE(bytes.size(), 10u);
  EXPECT_EQ(bytes.substr(0, 8), std::string("\x93NUMPY\x01\x00", 8));
  const std::size_t header_length =
      static_cast<unsigned char>(bytes[8]) + 256 * static_cast<unsigned char>(bytes[9]);
  const std::size_t data_offset = 10 + header_length;
  EXPECT_EQ(data_offset % 64, 0u);
  EXPECT_EQ(bytes[data_offset - 1], '\n');
  EXPECT_EQ(bytes.substr(10, header_length)
                .rfind("{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }", 0),
            0u);
  EXPECT_EQ(bytes.size(), data_offset + 12 * 4);
}

TEST(NpyEncodeTest, OneDimensionalShapeHasTrailingComma) {
  const std::string bytes = encode_npy({5}, sample_values(5), false);
  EXPECT_NE(bytes.find("'shape': (5,), }"), std::string::npos);
}

TEST(NpyEncodeTest, RejectsMismatchedDataSize) {
  const std::vector<double> values = sample_values(5);
  EXPECT_THROW(encode_npy({2, 3}, values, false), std::invalid_argument);
}

TEST(NpyEncodeTest, RejectsValuesOutsideFloat32Range) {
  const std::vector<double> values = {1.0, 1e39};
  EXPECT_THROW(encode_npy({2}, values, true), std::invalid_argument);
  EXPECT_NO_THROW(encode_npy({2}, values, false));
}

TEST_F(IoFileTest, WriteAndReadNpyFile) {
  const fs::path path = dir_ / "out" / "tokens.npy";
  const std::vector<double> values = sample_values(6);
  write_npy(path, {2, 3}, values, false);
  const NpyArray array = read_npy(path);
  EXPECT_EQ(array.shape, (std::vector<std::size_t>{2, 3}));
  EXPECT_EQ(array.data, values);
  EXPECT_EQ(listing(dir_ / "out"), std::vector<std::string>{"tokens.npy"});
}

TEST_F(IoFileTest, ReadMissingFileNamesIt) {
  const fs::path path = dir_ / "missing.npy";
  try {
    read_npy(path);
    FAIL() << "read a missing file";
  } catch (const InputError& error) {
    const std::string message = error.what();
    EXPECT_EQ(message.find('\n'), std::string::npos);
    EXPECT_NE(message.find(path.string()), std::string::npos) << message;
    EXPECT_NE(message.find("cannot open"), std::string::npos) << message;
  }
}

TEST_F(IoFileTest, ReadFileErrorsNameThePath) {
  const fs::path path = dir_ / "bad.npy";
  write_bytes(path, "PK\x03\x04 not numpy");
  try {
    read_npy(path);
    FAIL() << "accepted a non-.npy file";
  } catch (const InputError& error) {
    EXPECT_EQ(std::string(error.what()).rfind(path.string() + ": ", 0), 0u) << error.what();
  }
}

// ---------------------------------------------------------------------------------------------
// require_rank and format_shape.

TEST(RequireRankTest, MessageNamesExpectationAndActualShape) {
  NpyArray array;
  array.shape = {3, 4, 5};
  array.data.resize(60);
  try {
    require_rank(array, 2, "X.npy", "(T x d) of tokens");
    FAIL() << "accepted a 3-D array";
  } catch (const InputError& error) {
    EXPECT_STREQ(error.what(),
                 "X.npy: expected a 2-D array (T x d) of tokens, got shape (3, 4, 5)");
  }
  EXPECT_NO_THROW(require_rank(array, 3, "X.npy", ""));
}

TEST(RequireRankTest, EmptyDescription) {
  NpyArray array;
  array.shape = {5};
  try {
    require_rank(array, 0, "s.npy", "");
    FAIL();
  } catch (const InputError& error) {
    EXPECT_STREQ(error.what(), "s.npy: expected a 0-D array, got shape (5,)");
  }
}

TEST(FormatShapeTest, PythonTupleSyntax) {
  EXPECT_EQ(format_shape({}), "()");
  EXPECT_EQ(format_shape({3}), "(3,)");
  EXPECT_EQ(format_shape({3, 4}), "(3, 4)");
}

// ---------------------------------------------------------------------------------------------
// Atomic writes.

TEST_F(IoFileTest, WriteCreatesParentsAndLeavesNoTempFiles) {
  const fs::path path = dir_ / "a" / "b" / "result.csv";
  write_file_atomic(path, "x,y\n1,2\n");
  EXPECT_EQ(read_bytes(path), "x,y\n1,2\n");
  EXPECT_EQ(listing(dir_ / "a" / "b"), std::vector<std::string>{"result.csv"});
}

TEST_F(IoFileTest, WriteEmptyAndBinaryContent) {
  write_file_atomic(dir_ / "empty", "");
  EXPECT_TRUE(fs::exists(dir_ / "empty"));
  EXPECT_EQ(fs::file_size(dir_ / "empty"), 0u);
  const std::string binary("\0\x01\xff\n\r", 5);
  write_file_atomic(dir_ / "binary", binary);
  EXPECT_EQ(read_bytes(dir_ / "binary"), binary);
}

TEST_F(IoFileTest, ReplacesByRenameNotInPlace) {
  const fs::path path = dir_ / "result.csv";
  write_bytes(path, "old contents");
  // A hard link keeps the old inode reachable; an in-place rewrite would change it too.
  fs::create_hard_link(path, dir_ / "old_link");
  write_file_atomic(path, "new");
  EXPECT_EQ(read_bytes(path), "new");
  EXPECT_EQ(read_bytes(dir_ / "old_link"), "old contents");
  EXPECT_EQ(listing(dir_), (std::vector<std::string>{"old_link", "result.csv"}));
}

TEST_F(IoFileTest, FailedWriteThrowsOneLineAndCleansUp) {
  // Renaming a file over a non-empty directory fails after the temporary file was written.
  const fs::path target = dir_ / "occupied";
  fs::create_directories(target);
  write_bytes(target / "keep", "keep");
  try {
    write_file_atomic(target, "data");
    FAIL() << "replaced a directory";
  } catch (const std::runtime_error& error) {
    const std::string message = error.what();
    EXPECT_EQ(message.find('\n'), std::string::npos);
    EXPECT_NE(message.find(target.string()), std::string::npos) << message;
  }
  EXPECT_EQ(listing(dir_), std::vector<std::string>{"occupied"});
  EXPECT_EQ(read_bytes(target / "keep"), "keep");
}

TEST_F(IoFileTest, ParentIsAFile) {
  write_bytes(dir_ / "file", "x");
  EXPECT_THROW(write_file_atomic(dir_ / "file" / "child", "data"), std::runtime_error);
  EXPECT_EQ(read_bytes(dir_ / "file"), "x");
}

// ---------------------------------------------------------------------------------------------
// Fuzzer corpus: every stored input is handled without crashing.

fs::path source_dir() {
  if (const char* env = std::getenv("COSDA_SOURCE_DIR")) return env;
  return fs::path(__FILE__).parent_path().parent_path();
}

TEST(NpyFuzzCorpusTest, StoredInputsParseWithoutCrashing) {
  const fs::path fuzz_dir = source_dir() / "sweeps" / "fuzz";
  if (!fs::is_directory(fuzz_dir)) {
    GTEST_SKIP() << "fuzz corpus not found at " << fuzz_dir << "; set COSDA_SOURCE_DIR";
  }
  std::size_t files = 0;
  for (const char* sub : {"npy_seeds", "npy_regressions"}) {
    if (!fs::is_directory(fuzz_dir / sub)) continue;
    for (const auto& entry : fs::directory_iterator(fuzz_dir / sub)) {
      if (!entry.is_regular_file()) continue;
      SCOPED_TRACE(entry.path().string());
      ++files;
      try {
        const NpyArray array = parse_npy(read_bytes(entry.path()), entry.path().string());
        EXPECT_EQ(array.data.size(), product(array.shape));
      } catch (const InputError& error) {
        EXPECT_EQ(std::string(error.what()).find('\n'), std::string::npos);
      }
    }
  }
  EXPECT_GT(files, 0u);
}

// kind = "npy" with q, k, v: their rows as given, not projected or scaled; path and q, k, v
// exclude.
TEST(StreamConfig, NpyStreamOfQueriesKeysAndValues) {
  const auto dir = std::filesystem::temp_directory_path() / "cosda_accuracy_qkv_test";
  std::filesystem::create_directories(dir);
  std::vector<double> values(6 * 4);
  for (const char name : {'q', 'k', 'v'}) {
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = double(name) + 0.01 * double(i);
    write_npy(dir / (std::string(1, name) + ".npy"), {6, 4}, values, false);
  }
  auto parse = [&](const std::string& text) {
    std::ofstream(dir / "c.toml") << "[[stream]]\nname = \"a\"\nkind = \"npy\"\n" << text;
    TomlTable t = TomlTable::parse_file(dir / "c.toml", "configs/accuracy.toml");
    return parse_streams(t, 4);
  };
  const auto streams = parse("q = \"q.npy\"\nk = \"k.npy\"\nv = \"v.npy\"\n");
  const Qkv x = stream_qkv(streams.front(), 5, 4, "needs");
  EXPECT_TRUE(x.rows() == 5 && x.q(2, 1) == double('q') + 0.01 * 9 &&
              x.k(2, 1) == double('k') + 0.01 * 9 && x.v(4, 3) == double('v') + 0.01 * 19);
  EXPECT_THROW(stream_qkv(streams.front(), 7, 4, "needs"), InputError);
  // Each file read is recorded for meta.json with a fingerprint of its values.
  ASSERT_EQ(streams.front().inputs.size(), 3u);
  EXPECT_NE(streams.front().inputs[0].find("q.npy (6 x 4, values fnv1a64 "), std::string::npos)
      << streams.front().inputs[0];
  values[5] += 1e-12;
  write_npy(dir / "q.npy", {6, 4}, values, false);
  EXPECT_NE(parse("q = \"q.npy\"\nk = \"k.npy\"\nv = \"v.npy\"\n").front().inputs[0],
            streams.front().inputs[0]);
  EXPECT_THROW(parse("path = \"q.npy\"\nq = \"q.npy\"\nk = \"k.npy\"\nv = \"v.npy\"\n"),
               InputError);
  EXPECT_THROW(parse("q = \"q.npy\"\nk = \"k.npy\"\n"), InputError);
  // The token stream's keys would be accepted and ignored (recorded in accuracy.csv all the same).
  for (const std::string key : {"scale = 3.0", "projection = \"shared\"", "seed = 2"}) try {
      parse("q = \"q.npy\"\nk = \"k.npy\"\nv = \"v.npy\"\n" + key + "\n");
      ADD_FAILURE() << key << " was taken";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("does not apply to q, k and v"), std::string::npos)
          << e.what();
    }
  std::filesystem::remove_all(dir);
}

// A config's text is read once: what a study's meta.json records is the file that was parsed,
// even if it changes during the run; a missing file names the caller's own example.
TEST(StrictToml, KeepsTheTextItParsed) {
  const auto dir = std::filesystem::temp_directory_path() / "cosda_toml_text_test";
  std::filesystem::create_directories(dir);
  const std::string text = "name = \"a\"\n[inner]\nn = 3\n";
  std::ofstream(dir / "c.toml") << text;
  TomlTable t = TomlTable::parse_file(dir / "c.toml", "configs/drift.toml");
  std::ofstream(dir / "c.toml") << "name = \"edited\"\n";
  EXPECT_EQ(t.text(), text);
  EXPECT_EQ(t.table("inner").text(), text);
  EXPECT_EQ(t.str("name"), "a");
  try {
    TomlTable::parse_file(dir / "none.toml", "configs/drift.toml");
    ADD_FAILURE() << "a missing file was parsed";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("such as configs/drift.toml"), std::string::npos)
        << e.what();
  }
  std::filesystem::remove_all(dir);
}

// A required key that is missing names a key of the table nothing read that may be it misspelt
// (three letters or more), and only that: a short key or a key read already is no misspelling.
TEST(StrictToml, MissingKeyNamesItsLikelyMisspelling) {
  const auto dir = std::filesystem::temp_directory_path() / "cosda_toml_missing_test";
  std::filesystem::create_directories(dir);
  const auto missing = [&](const std::string& text, const std::string& read_first,
                           const std::string& key) -> std::string {
    std::ofstream(dir / "c.toml") << text;
    TomlTable t = TomlTable::parse_file(dir / "c.toml", "configs/drift.toml");
    if (!read_first.empty()) t.integer(read_first, 0, 9);
    try {
      t.integer(key, 0, 9);
    } catch (const InputError& e) {
      return e.what();
    }
    return "read";
  };
  EXPECT_NE(missing("setps = 1\n", "", "steps").find("'steps' is missing (is 'setps' a "),
            std::string::npos);
  EXPECT_EQ(missing("d = 1\n", "", "n").find("misspelling"), std::string::npos);
  EXPECT_EQ(missing("step = 1\n", "step", "steps").find("misspelling"), std::string::npos);
  EXPECT_EQ(missing("other = 1\n", "", "steps").find("misspelling"), std::string::npos);
  std::filesystem::remove_all(dir);
}

// Two runs publishing into one new folder at once both succeed, and the folder holds one run's
// files: the second plain rename meets the first run's folder and must exchange with it.
TEST(OutputTransactionTest, TwoRunsIntoOneNewFolderBothPublish) {
  const fs::path root = fs::temp_directory_path() / ("cosda_race_" + std::to_string(::getpid()));
  for (int round = 0; round < 300; ++round) {
    fs::remove_all(root);
    std::atomic<int> ready{0};
    std::array<std::string, 2> errors;
    const auto publish = [&](int run) {
      try {
        OutputTransaction tx(root / "out");
        tx.stage([&](const fs::path& dir) { std::ofstream(dir / "a.txt") << run; });
        for (++ready; ready < 2;) std::this_thread::yield();
        tx.commit();
      } catch (const std::exception& e) {
        errors[std::size_t(run)] = e.what();
      }
    };
    std::thread first(publish, 0), second(publish, 1);
    first.join();
    second.join();
    ASSERT_EQ(errors[0] + errors[1], "") << "round " << round;
    const std::string kept = read_bytes(root / "out" / "a.txt");
    ASSERT_TRUE(kept == "0" || kept == "1") << kept;
  }
  fs::remove_all(root);
}

}  // namespace
}  // namespace cosda
