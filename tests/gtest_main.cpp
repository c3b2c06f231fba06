// The main of every test binary: GoogleTest's, and at the end of the run a list of the tests
// skipped, each with its reason ("cosda-skip: Suite.Test: reason", printed even under
// --gtest_brief; `make test` prints these lines from ctest's log). A skip without a reason
// fails the run; under CI=true so does a skip whose reason is not on kAllowedOnCi, since the
// CI machine has what every other skip waits for (make deps installs gnuplot and bash).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace {

// The skips that are right on the CI machine: what it lacks by design, not by accident.
constexpr std::string_view kAllowedOnCi[] = {
    // The ASan tree (cosda_tests under SANITIZE=1): the heap tests run in the Release tree,
    // cosda_heap_tests.
    "heap hooks are off in sanitizer builds",
    // CI runs as root; OutputInAFolderThatCannotBeMadeIsRefused covers the refusal, and the
    // output-promise tests inject failures by the hook and by files in the way instead.
    "root writes into read-only folders",
    "running as root: a read-only folder is writable to root",
    // The output-promise cases of a command that writes to standard output only (the promise
    // suite takes every command of `cosda --help`, so a command that starts writing files
    // cannot go untested).
    "writes no file (stdout)",
    // The committed overflow thresholds (tests/study_committed_test.cpp) are one machine's
    // Release-build round-off: compared on that CPU and vector unit only.
    "the committed results come from the Release build",
    "results/overflow/ was written on another CPU or vector unit",
    // A test of OpenBLAS's Haswell kernels, run by ctest's split_products_haswell_kernels.
    "runs in its own ctest entry, under OPENBLAS_CORETYPE=Haswell",
};

class SkipList : public testing::EmptyTestEventListener {
 public:
  void OnTestEnd(const testing::TestInfo& info) override {
    const testing::TestResult& r = *info.result();
    if (!r.Skipped()) return;
    std::string reason;
    for (int i = 0; i < r.total_part_count(); ++i)
      if (r.GetTestPartResult(i).skipped()) reason = r.GetTestPartResult(i).message();
    while (!reason.empty() && (reason.back() == '\n' || reason.back() == ' ')) reason.pop_back();
    skips.emplace_back(std::string(info.test_suite_name()) + "." + info.name(), reason);
  }
  std::vector<std::pair<std::string, std::string>> skips;
};

bool on_ci() {
  const char* ci = std::getenv("CI");
  return ci != nullptr && (std::string_view(ci) == "true" || std::string_view(ci) == "1");
}

bool allowed_on_ci(const std::string& reason) {
  for (const std::string_view a : kAllowedOnCi)
    if (reason.rfind(a, 0) == 0) return true;
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  auto* list = new SkipList;  // owned by GoogleTest's listener list
  testing::UnitTest::GetInstance()->listeners().Append(list);
  const int status = RUN_ALL_TESTS();
  const bool ci = on_ci();
  int bad = 0;
  for (const auto& [name, reason] : list->skips) {
    const char* why = reason.empty()                 ? " [no reason given: fails the run]"
                      : ci && !allowed_on_ci(reason) ? " [not expected on CI: fails the run]"
                                                     : "";
    bad += *why != '\0';
    std::printf("cosda-skip: %s: %s%s\n", name.c_str(), reason.empty() ? "-" : reason.c_str(), why);
  }
  if (!list->skips.empty() || ci)
    std::printf("cosda-skips: %zu skipped, %d failing the run%s\n", list->skips.size(), bad,
                ci ? " (CI)" : "");
  std::fflush(stdout);
  return bad > 0 ? 1 : status;
}
