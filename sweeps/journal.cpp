#include "sweeps/journal.hpp"

#include <fmt/format.h>

#include <exception>
#include <iterator>
#include <stdexcept>
#include <vector>

#include "io/atomic_file.hpp"

namespace cosda {
namespace {

std::uint64_t fnv1a(std::string_view bytes, std::uint64_t h = 1469598103934665603ull) {
  for (const char ch : bytes) {
    h ^= static_cast<unsigned char>(ch);
    h *= 1099511628211ull;
  }
  return h;
}

// The journal's header line and each row's hash tie it to the config text and the build.
std::string journal_header(const SweepConfig& c) {
  return fmt::format("cosda-journal 1 {:016x}", fnv1a(c.text, build_hash()));
}
std::string row_hash(const SweepConfig& c, const Point& p) {
  return fmt::format("{:016x}", fnv1a(point_key(p), fnv1a(c.text, build_hash())));
}
std::string journal_line(const SweepConfig& c, const SweepRow& r) {
  return row_hash(c, r.point) + "," + points_csv_line(r) + "\n";
}

}  // namespace

std::string point_key(const Point& p) {
  return fmt::format("{}/{}/{}/{}/{}/{}{}", p.variant, p.layers, p.heads, p.n, p.d, p.m,
                     p.stabilised ? "/stabilised" : "");
}

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

std::map<std::string, SweepRow> read_journal(const SweepConfig& c,
                                             const std::filesystem::path& path) {
  std::map<std::string, SweepRow> kept;
  std::ifstream in(path, std::ios::binary);
  if (!in) return kept;
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::size_t start = text.find('\n');
  if (start == std::string::npos || text.substr(0, start) != journal_header(c)) return kept;
  const std::string header = points_csv_header();
  ++start;
  while (start < text.size()) {
    const std::size_t end = text.find('\n', start);
    if (end == std::string::npos) break;  // cut short by a kill
    const std::string line = text.substr(start, end - start);
    start = end + 1;
    const std::size_t comma = line.find(',');
    if (comma == std::string::npos) continue;
    try {
      std::vector<SweepRow> rows =
          read_points_csv(header + "\n" + line.substr(comma + 1) + "\n", path.string());
      if (rows.size() == 1 && row_hash(c, rows[0].point) == line.substr(0, comma))
        kept[point_key(rows[0].point)] = std::move(rows[0]);
    } catch (const std::exception&) {
      // A damaged line: the point runs again.
    }
  }
  return kept;
}

JournalWriter::JournalWriter(const SweepConfig& c, const std::filesystem::path& path,
                             const std::vector<const SweepRow*>& kept)
    : config_(c) {
  std::filesystem::create_directories(path.parent_path());
  std::string text = journal_header(c) + "\n";
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
