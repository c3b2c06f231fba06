// One bad-input case of the CLI and its check: the command exits 2 with one line on stderr
// naming what is wrong, prints nothing on stdout, writes nothing and leaves its inputs as they
// were (tests/cli_errors_test.cpp, tests/cli_commands_test.cpp).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "tests/cli_run.hpp"

namespace cosda::test {

struct RefusalCase {
  std::string what;
  std::vector<std::string> args;  // after `cosda`; files are relative to the scratch dir
  std::vector<std::pair<std::string, std::string>> files;  // inputs to write first
  std::string expect;                                      // a piece of the one-line message
  // Made in the scratch dir after the files (symbolic links, FIFOs, ...); the names it
  // returns are inputs too.
  std::function<std::vector<std::string>(const std::filesystem::path&)> setup = {};
};

// Every file under `dir` except the inputs the case wrote.
inline std::vector<std::string> written(const std::filesystem::path& dir,
                                        const std::vector<std::string>& inputs) {
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
    const std::string rel = std::filesystem::relative(e.path(), dir).string();
    if (std::find(inputs.begin(), inputs.end(), rel) == inputs.end()) files.push_back(rel);
  }
  return files;
}

// Runs case k in a fresh scratch folder `root` and checks the refusal.
inline void expect_refused(const RefusalCase& k, const std::filesystem::path& root) {
  SCOPED_TRACE(k.what);
  std::filesystem::remove_all(root);
  std::filesystem::create_directories(root);
  std::vector<std::string> inputs;
  for (const auto& [name, text] : k.files) {
    write(root / name, text);
    for (auto p = std::filesystem::path(name); !p.empty(); p = p.parent_path())
      inputs.push_back(p.string());  // the file, and the folders it is in
  }
  if (k.setup)
    for (const auto& made : k.setup(root)) inputs.push_back(made);
  const Outcome r = run(k.args, root);
  EXPECT_EQ(r.status, 2) << r.err;
  ASSERT_FALSE(r.err.empty());
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "not one line: " << r.err;
  EXPECT_NE(r.err.find(k.expect), std::string::npos)
      << "does not name " << k.expect << ": " << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_EQ(written(root, inputs), std::vector<std::string>{}) << r.err;
  for (const auto& [name, text] : k.files) EXPECT_EQ(read(root / name), text) << name << " changed";
}

}  // namespace cosda::test
