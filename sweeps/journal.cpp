#include "sweeps/journal.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <exception>
#include <fstream>
#include <stdexcept>
#include <vector>

#include "io/atomic_file.hpp"
#include "io/errors.hpp"

namespace cosda {
namespace {

constexpr std::string_view kMagic = "cosda-journal 2 ";
constexpr std::string_view kConfigTag = "config ";

// 64-bit FNV-1a of this build's executable file (read once).
std::uint64_t build_hash() {
  static const std::uint64_t hash = [] {
    std::ifstream in("/proc/self/exe", std::ios::binary);
    std::uint64_t h = fnv1a("cosda-build");
    char buffer[1 << 16];
    while (in.read(buffer, sizeof buffer) || in.gcount() > 0)
      h = fnv1a(std::string_view(buffer, std::size_t(in.gcount())), h);
    return h;
  }();
  return hash;
}

// The journal's header line and each row's hash tie it to the config text and the build.
std::string journal_header(const SweepConfig& c) {
  return fmt::format("{}{:016x} {:016x}", kMagic, fnv1a(c.text), build_hash());
}
std::string row_hash(const SweepConfig& c, const Point& p) {
  return fmt::format("{:016x}", fnv1a(point_key(p), fnv1a(c.text, build_hash())));
}
std::string journal_line(const SweepConfig& c, const SweepRow& r) {
  const std::string row = points_csv_line(r);
  return fmt::format("{},{:016x},{}\n", row_hash(c, r.point), fnv1a(row), row);
}

// The config text on one line: backslashes and line breaks escaped.
std::string escape(std::string_view text) {
  std::string out;
  for (const char ch : text) {
    if (ch == '\\')
      out += "\\\\";
    else if (ch == '\n')
      out += "\\n";
    else if (ch == '\r')
      out += "\\r";
    else
      out += ch;
  }
  return out;
}
std::string unescape(std::string_view line) {
  std::string out;
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (line[i] != '\\' || i + 1 == line.size()) {
      out += line[i];
      continue;
    }
    const char next = line[++i];
    out += next == 'n' ? '\n' : next == 'r' ? '\r' : next;
  }
  return out;
}

// The first grid key whose value differs between `a` and `b`, for the message.
std::string grid_change(const SweepGrid& a, const SweepGrid& b, const std::string& where) {
  const std::pair<const char*, bool> keys[] = {{"variants", a.variants == b.variants},
                                               {"n", a.n == b.n},
                                               {"d", a.d == b.d},
                                               {"m", a.m == b.m},
                                               {"layers", a.layers == b.layers},
                                               {"heads", a.heads == b.heads}};
  for (const auto& [key, same] : keys)
    if (!same) return "key '" + std::string(key) + "'" + where;
  return "";
}

std::string config_change(const SweepConfig& now, const SweepConfig& was) {
  if (now.name != was.name) return "key 'name'";
  if (now.scalar != was.scalar) return "key 'scalar'";
  if (now.formulas != was.formulas) return "key 'formulas'";
  if (now.grids.size() != was.grids.size()) return "the number of [[grid]] sections";
  for (std::size_t i = 0; i < now.grids.size(); ++i)
    if (std::string what = grid_change(now.grids[i], was.grids[i],
                                       i == 0 ? "" : fmt::format(" of [[grid]] {}", i));
        !what.empty())
      return what;
  if (now.title != was.title) return "key 'title'";
  if (now.tables != was.tables) return "the [[table]] sections";
  if (now.figures != was.figures) return "the [[figure]] sections";
  return "its comments or layout";
}

// Throws unless the header and config lines belong to this config and build.
void check_header(const SweepConfig& c, const std::filesystem::path& path,
                  const std::string& header, const std::string& config_line) {
  const std::string fresh = "; run with --fresh to start over";
  if (header.rfind(kMagic, 0) != 0 || config_line.rfind(kConfigTag, 0) != 0)
    throw InputError("cosda sweep: " + path.string() +
                     " is not a journal this cosda can resume (another version, or damaged)" +
                     fresh);
  if (header == journal_header(c)) return;
  const std::string was_text = unescape(std::string_view(config_line).substr(kConfigTag.size()));
  if (fnv1a(was_text) == fnv1a(c.text))
    throw InputError("cosda sweep: cosda was rebuilt since the interrupted run of " + c.source +
                     " began, so its journaled points (" + path.string() +
                     ") were counted by another build" + fresh);
  std::string what = "its text";
  try {
    what = config_change(c, parse_config(was_text, c.source));
  } catch (const std::exception&) {
    // The journaled config no longer parses: say only that the text changed.
  }
  throw InputError("cosda sweep: " + c.source + " changed since the interrupted run (" + what +
                   " differs from the config in " + path.string() +
                   "); undo the edit to resume, or run with --fresh to start over");
}

// The row of one complete journal line, or an InputError naming file and line.
SweepRow journal_row(const SweepConfig& c, const std::filesystem::path& path, std::size_t line_no,
                     const std::string& line) {
  auto fail = [&](const std::string& what) {
    throw InputError("cosda sweep: " + path.string() + ":" + std::to_string(line_no) + ": " + what +
                     "; the journal is damaged, run with --fresh to start over");
  };
  const std::size_t first = line.find(','), second = line.find(',', first + 1);
  if (first != 16 || second != 33) fail("not a journal row (hash,checksum,row)");
  const std::string row = line.substr(second + 1);
  if (fmt::format("{:016x}", fnv1a(row)) != line.substr(first + 1, 16))
    fail("the row does not match its checksum");
  std::vector<SweepRow> rows;
  try {
    rows = read_points_csv(points_csv_header() + "\n" + row + "\n", path.string());
  } catch (const std::exception& e) {
    fail(std::string("the row does not read: ") + e.what());
  }
  if (rows.size() != 1) fail("not one row");
  if (row_hash(c, rows[0].point) != line.substr(0, first))
    fail("the row's point hash does not match its point");
  if (const std::string defect = row_defect(rows[0]); !defect.empty()) fail(defect);
  return std::move(rows[0]);
}

}  // namespace

std::string point_key(const Point& p) {
  return fmt::format("{}/{}/{}/{}/{}/{}{}", p.variant, p.layers, p.heads, p.n, p.d, p.m,
                     p.stabilised ? "/stabilised" : "");
}

std::string row_defect(const SweepRow& r) {
  if (!r.executed())
    return r.flops == 0 && r.cycle_steps == 0 && !r.update_flops && !r.plain_flops
               ? ""
               : "a skipped point carries counts";
  const double sum = r.mul + r.add + r.div + r.exp + r.other;
  if (!(std::fabs(r.flops - sum) <= 1e-9 * std::max(1.0, std::fabs(r.flops))))
    return fmt::format("flops {} is not mul + add + div + exp + other = {}", r.flops, sum);
  if (r.cycle_steps < 1 || r.update_steps < 0 || r.update_steps > r.cycle_steps)
    return fmt::format("update_steps {} is not within cycle_steps {}", r.update_steps,
                       r.cycle_steps);
  if (r.update_flops.has_value() != (r.update_steps > 0))
    return "update_flops is given exactly when update_steps > 0, and it is not";
  if (!r.update_flops && !r.plain_flops) return "neither update_flops nor plain_flops is given";
  return "";
}

std::map<std::string, SweepRow> read_journal(const SweepConfig& c,
                                             const std::filesystem::path& path) {
  std::map<std::string, SweepRow> kept;
  const std::string text = read_file(path).value_or("");
  std::vector<std::string> lines;
  for (std::size_t start = 0; start < text.size();) {
    const std::size_t end = text.find('\n', start);
    if (end == std::string::npos) break;  // a last line cut short by a kill
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  check_header(c, path, lines.size() > 0 ? lines[0] : text, lines.size() > 1 ? lines[1] : "");
  for (std::size_t i = 2; i < lines.size(); ++i) {
    SweepRow r = journal_row(c, path, i + 1, lines[i]);
    kept[point_key(r.point)] = std::move(r);
  }
  return kept;
}

JournalWriter::JournalWriter(const SweepConfig& c, const std::filesystem::path& path,
                             const std::vector<const SweepRow*>& kept)
    : config_(c) {
  std::filesystem::create_directories(path.parent_path());
  std::string text = journal_header(c) + "\n" + std::string(kConfigTag) + escape(c.text) + "\n";
  for (const SweepRow* r : kept) text += journal_line(c, *r);
  write_file_atomic(path, text);
  out_.open(path, std::ios::binary | std::ios::app);
  if (!out_)
    throw std::runtime_error("cannot append to " + path.string() +
                             "; check the folder is writable");
}

void JournalWriter::append(const SweepRow& r) {
  out_ << journal_line(config_, r);
  out_.flush();
}

}  // namespace cosda
