// Every seam op records exactly the elements it touches (attention/ops/core.hpp: in, out,
// inout): each op of tests/op_footprint_cases.cpp runs on Probe scalars, which observe every
// element read and written independently of the record, and the two sets must be equal, reads
// and writes apart. A header scan keeps the case list complete. What is observed is the
// scalar-level path (Exact's textbook loops); the fast paths of Tally and Plain share the record
// but run other loops, which this test does not watch.
#include "tests/op_footprint.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "attention/ops/seam.hpp"

namespace cosda::footprint_probe {

Element Watch::at(const void* p, std::int64_t size) const {
  const char* c = static_cast<const char*>(p);
  for (std::size_t b = 0; b < buffers.size(); ++b)
    if (c >= buffers[b].first && c < buffers[b].second)
      return {int(b), (c - buffers[b].first) / size};
  return {-1, 0};
}
void Watch::on_read(const void* p, std::int64_t size) {
  const Element e = at(p, size);
  if (e.first >= 0 && !written_this_op.contains(e)) read.insert(e);
}
void Watch::on_write(const void* p, std::int64_t size) {
  const Element e = at(p, size);
  if (e.first >= 0) written.insert(e), written_this_op.insert(e);
}
void Watch::on_record(const void* p, std::int64_t bytes, ops::Access a) {
  const char* c = static_cast<const char*>(p);
  for (std::int64_t off = 0; off < bytes; off += std::int64_t(sizeof(Probe))) {
    const Element e = at(c + off, sizeof(Probe));
    if (e.first < 0) {
      unknown_records += std::int64_t(sizeof(Probe));
      continue;
    }
    if (a != ops::Access::kWrite) rec_read.insert(e);
    if (a != ops::Access::kRead) rec_written.insert(e);
  }
}

M& Bench::mat(const std::string& name, std::int64_t rows, std::int64_t cols, double base) {
  mats_.push_back(std::make_unique<M>(rows, cols));
  names_.push_back(name);
  M& m = *mats_.back();
  // Distinct, moderate values: exponentials stay finite, sums stay positive.
  for (std::int64_t i = 0; i < m.size(); ++i)
    m.data()[i] = P(base + 0.37 * double((i * 7919) % 23) / 23.0);
  return m;
}

namespace {
// "name[i, j, ...]": the elements of one buffer in `s` that `t` lacks, as ranges.
void lacking(const std::set<Element>& s, const std::set<Element>& t,
             const std::vector<std::string>& names, const std::string& what,
             std::vector<std::string>& out) {
  std::map<int, std::vector<std::int64_t>> by;
  for (const Element& e : s)
    if (!t.contains(e)) by[e.first].push_back(e.second);
  for (const auto& [b, idx] : by) {
    std::ostringstream o;
    o << what << ' ' << names[b] << '[';
    for (std::size_t i = 0; i < idx.size();) {
      std::size_t j = i;
      while (j + 1 < idx.size() && idx[j + 1] == idx[j] + 1) ++j;
      o << (i > 0 ? ", " : "") << idx[i];
      if (j > i) o << ".." << idx[j];
      i = j + 1;
    }
    o << "] (" << idx.size() << " elements)";
    out.push_back(o.str());
  }
}
}  // namespace

std::vector<std::string> Bench::compare(const Watch& w) const {
  std::vector<std::string> out;
  lacking(w.read, w.rec_read, w.names, "read, not recorded read:", out);
  lacking(w.rec_read, w.read, w.names, "recorded read, not read:", out);
  lacking(w.written, w.rec_written, w.names, "written, not recorded written:", out);
  std::set<Element> rec_written;  // scratch buffers' recorded writes beyond the loop's: free
  for (const Element& e : w.rec_written)
    if (std::find(scratch_.begin(), scratch_.end(), e.first) == scratch_.end() ||
        w.written.contains(e))
      rec_written.insert(e);
  lacking(rec_written, w.written, w.names, "recorded written, not written:", out);
  if (!w.buffers.empty() && w.read.empty() && w.written.empty())
    out.push_back("touched none of its operands: the case does not exercise the op");
  if (w.unknown_records > 0)
    out.push_back("recorded " + std::to_string(w.unknown_records) + " bytes outside every operand");
  return out;
}

namespace {

class OpFootprint : public ::testing::TestWithParam<OpCase> {};

TEST_P(OpFootprint, RecordsExactlyTheElementsItTouches) {
  const std::vector<std::string> mismatches = GetParam().run();
  std::string all;
  for (const std::string& m : mismatches) all += "\n  " + m;
  EXPECT_TRUE(mismatches.empty()) << GetParam().name << ':' << all;
}

INSTANTIATE_TEST_SUITE_P(Seam, OpFootprint, ::testing::ValuesIn(op_cases()),
                         [](const ::testing::TestParamInfo<OpCase>& i) {
                           std::string n = i.param.name;
                           std::replace(n.begin(), n.end(), '/', '_');
                           return n;
                         });

// The negative control: a copy whose record leaves out its last source element, and one whose
// record leaves out its last written element, must each be reported with that element.
template <class E>
void copy_reading_one_short(const ops::S<E>* x, ops::S<E>* y, std::int64_t n) {
  ops::begin_op<E>(), ops::in<E>(x, n - 1), ops::out<E>(y, n);
  for (std::int64_t i = 0; i < n; ++i) y[i] = x[i];
}
template <class E>
void copy_writing_one_short(const ops::S<E>* x, ops::S<E>* y, std::int64_t n) {
  ops::begin_op<E>(), ops::in<E>(x, n), ops::out<E>(y, n - 1);
  for (std::int64_t i = 0; i < n; ++i) y[i] = x[i];
}

TEST(OpFootprint, ARecordOneElementShortFails) {
  {
    Bench b;
    P *x = b.vec("x", 5), *y = b.vec("y", 5);
    const auto m = b.check([&] { copy_reading_one_short<Watched>(x, y, 5); });
    ASSERT_EQ(m.size(), 1u);
    EXPECT_EQ(m[0], "read, not recorded read: x[4] (1 elements)");
  }
  {
    Bench b;
    P *x = b.vec("x", 5), *y = b.vec("y", 5);
    const auto m = b.check([&] { copy_writing_one_short<Watched>(x, y, 5); });
    ASSERT_EQ(m.size(), 1u);
    EXPECT_EQ(m[0], "written, not recorded written: y[4] (1 elements)");
  }
  {  // and an in-place op recorded as a write only misses its reads
    Bench b;
    P* x = b.vec("x", 3);
    const auto m = b.check([&] {
      ops::begin_op<Watched>(), ops::out<Watched>(x, 3);
      for (int i = 0; i < 3; ++i) x[i] *= P(2.0);
    });
    ASSERT_EQ(m.size(), 1u);
    EXPECT_EQ(m[0], "read, not recorded read: x[0..2] (3 elements)");
  }
}

// Every op of the seam has a case: every function template over a policy E in a header under
// attention/ that records (begin_op, in, out, inout), wherever the header lies.
TEST(OpFootprint, EveryOpOfTheSeamHasACase) {
  std::set<std::string> cased;
  for (const OpCase& c : op_cases()) cased.insert(c.name.substr(0, c.name.find('/')));
  const std::regex def(R"(template <class E(?:, [^>]*)?>\s*(?:inline )?[\w:<>]+ (\w+)\()");
  const std::regex records(R"(\b(begin_op|in|out|inout)<E>\()");
  // An op records or runs other ops; a helper that only loops over blocks of heads (or asks
  // whether there is one head) runs inside an op that records (heads_minor_product, slide_rows).
  const std::regex runs(R"(\b(?!for_head_blocks<|one_head<|S<)\w+<E>\()");
  std::vector<std::string> missing;
  std::int64_t headers = 0, ops_seen = 0;
  const std::filesystem::path root = std::filesystem::path(COSDA_SOURCE_DIR) / "attention";
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
    if (entry.path().extension() != ".hpp") continue;
    std::ifstream in(entry.path());
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string src = ss.str();
    if (!std::regex_search(src, records)) continue;
    ++headers;
    for (std::sregex_iterator it(src.begin(), src.end(), def), end; it != end; ++it) {
      const std::string name = (*it)[1];
      if (name == "begin_op" || name == "skip_arithmetic" || name == "tally" ||
          name == "tally_skip" || name == "record" || name == "in" || name == "out" ||
          name == "inout")
        continue;  // the record itself
      const std::size_t from = std::size_t(it->position()) + it->length();
      const std::string body = src.substr(from, src.find("\ntemplate <", from) - from);
      if (!std::regex_search(body, runs)) continue;
      ++ops_seen;
      if (!cased.contains(name)) missing.push_back(entry.path().filename().string() + ": " + name);
    }
  }
  EXPECT_GE(headers, 12);  // ops/core.hpp, the eleven op headers and landmarks.hpp today
  EXPECT_GT(ops_seen, 70);
  std::string all;
  for (const std::string& m : missing) all += "\n  " + m;
  EXPECT_TRUE(missing.empty()) << "seam ops without an op-footprint case:" << all;
}

}  // namespace
}  // namespace cosda::footprint_probe
