// The resume journal of a sweep (<dir>/.points.journal), tied to the config text and the build:
//   cosda-journal 2 <config hash> <build hash>
//   config <the config text, \ and line breaks escaped>
//   <point hash>,<row checksum>,<the point's points.csv row>    one per finished point
// The point hash is FNV-1a of point, config text and build; the row checksum FNV-1a of the row's
// text, so that a damaged or edited row is found rather than trusted.
#pragma once

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <string_view>

#include "sweeps/config.hpp"
#include "sweeps/points.hpp"

namespace cosda {

// FNV-1a, 64 bits: the journal's row checksums, and the fingerprint of a study's .npy inputs.
inline std::uint64_t fnv1a(std::string_view bytes, std::uint64_t h = 1469598103934665603ull) {
  for (const char ch : bytes) {
    h ^= static_cast<unsigned char>(ch);
    h *= 1099511628211ull;
  }
  return h;
}

// Identity of a point for the journal and for merging shards.
std::string point_key(const Point& p);

// Why no measurement can produce `r` ("" if one can): flops must be the buckets' sum,
// 0 <= update_steps <= cycle_steps, update_flops given iff update_steps > 0; skipped: no counts.
std::string row_defect(const SweepRow& r);

// Rows of an earlier run's journal by point_key(); a last line cut short by a kill is left out
// (that point runs again). InputError ("cosda sweep: ...", naming --fresh) for another build or
// config text (naming the first changed key), or, naming file and line, for a row whose
// checksum, point hash or row_defect() fails.
std::map<std::string, SweepRow> read_journal(const SweepConfig& c,
                                             const std::filesystem::path& path);

// A journal created atomically with an earlier run's kept rows, then appended one flushed line
// per finished point.
class JournalWriter {
 public:
  JournalWriter(const SweepConfig& c, const std::filesystem::path& path,
                const std::vector<const SweepRow*>& kept);
  void append(const SweepRow& r);

 private:
  const SweepConfig& config_;
  std::ofstream out_;
};

}  // namespace cosda
